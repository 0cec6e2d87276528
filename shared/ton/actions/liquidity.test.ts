import { Address, type Cell, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { type StoredAction, actionDetails } from './api.js';
import { createClassifier, rowToJson } from './index.js';
import type { AccountInterfaces } from './interfaces.js';
import type { ActionRow } from './row.js';
import type { TraceTransaction } from './trace.js';
import { TraceWriter } from '../../../test/helpers/assembled-trace.js';

/**
 * STON.fi v2 provide / withdraw liquidity and DeDust withdraw liquidity on traces built message by message from the
 * contracts' own flows: the local action corpus holds no trace of these, and neither contract set is on our devnet.
 * Flows and layouts: ston-fi/dex-core-v2 (`contracts/common/op.fc`; router `msgs/jetton.fc`, `msgs/pool.fc`; pool
 * `msgs/router.fc`, `msgs/lp_account.fc`, `msgs/lp_wallet.fc`; LP account `msgs/pool.fc`, `msgs/user.fc`), pTON v2
 * `ton_transfer#01f3835d`, DeDust v2 (tongo `abi/schemas/dedust.xml`), TEP-74 jetton messages. Expected values are
 * the scenario's own: who sent what, to whom, how much.
 */

const a = (hex: string): Address => Address.parseRaw(`0:${hex.repeat(32)}`);
const raw = (x: Address): string => `${x.workChain}:${x.hash.toString('hex').toUpperCase()}`;

const USER = a('01');
const ROUTER = a('02');
/** A STON.fi v2 pool is the master of its LP jetton. */
const POOL = a('03');
const LP_ACCOUNT = a('04');
const USER_LP_WALLET = a('05');
const JETTON_A = a('06');
const USER_WALLET_A = a('07');
const ROUTER_WALLET_A = a('08');
/** pTON v2.1 on mainnet (`EQBnGWMCf3-FZZq1W4IWcWiGAc3PHuZ0_H-7sad2oY00o9ok`). */
const PTON = Address.parseRaw('0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3');
const ROUTER_PTON_WALLET = a('09');
const DEDUST_POOL = a('0a');
const DEDUST_LP_WALLET = a('0b');
const TON_VAULT = a('0c');
const JETTON_VAULT = a('0d');
const VAULT_WALLET_J = a('0e');
const JETTON_J = a('0f');
const USER_WALLET_J = a('10');

const wallets: [Address, Address, Address][] = [
  // [jetton wallet, owner, master]
  [USER_LP_WALLET, USER, POOL],
  [USER_WALLET_A, USER, JETTON_A],
  [ROUTER_WALLET_A, ROUTER, JETTON_A],
  [ROUTER_PTON_WALLET, ROUTER, PTON],
  [DEDUST_LP_WALLET, USER, DEDUST_POOL],
  [VAULT_WALLET_J, JETTON_VAULT, JETTON_J],
  [USER_WALLET_J, USER, JETTON_J],
];
const interfaces = new Map<string, AccountInterfaces>(
  wallets.map(([w, owner, jetton]) => [raw(w), { jettonWallet: { address: raw(w), owner: raw(owner), jetton: raw(jetton) } }]),
);
const classifier = createClassifier((addr) => interfaces.get(addr));

const QUERY = 7n;
const cell = () => beginCell();
const walletExternal = (): Cell => cell().storeUint(0x1234, 32).storeUint(0, 64).endCell();
const either = (b: ReturnType<typeof beginCell>, payload: Cell | null) => (payload === null ? b.storeBit(0) : b.storeBit(1).storeRef(payload));

// TEP-74
const jettonTransfer = (amount: bigint, destination: Address, fwd: Cell | null, forwardTon = 0n): Cell =>
  either(cell().storeUint(0x0f8a7ea5, 32).storeUint(QUERY, 64).storeCoins(amount).storeAddress(destination).storeAddress(USER).storeMaybeRef(null).storeCoins(forwardTon), fwd).endCell();
const internalTransfer = (amount: bigint, from: Address, fwd: Cell | null, forwardTon = 0n): Cell =>
  either(cell().storeUint(0x178d4519, 32).storeUint(QUERY, 64).storeCoins(amount).storeAddress(from).storeAddress(USER).storeCoins(forwardTon), fwd).endCell();
const notification = (amount: bigint, sender: Address, fwd: Cell | null): Cell =>
  either(cell().storeUint(0x7362d09c, 32).storeUint(QUERY, 64).storeCoins(amount).storeAddress(sender), fwd).endCell();
const excesses = (): Cell => cell().storeUint(0xd53276db, 32).storeUint(QUERY, 64).endCell();
const burn = (amount: bigint): Cell => cell().storeUint(0x595f07bc, 32).storeUint(QUERY, 64).storeCoins(amount).storeAddress(USER).storeMaybeRef(null).endCell();

// STON.fi v2 (dex-core-v2 op.fc) and pTON v2
const provideLpBody = (): Cell => cell().storeCoins(1n).storeAddress(USER).storeUint(1, 1).storeCoins(0n).storeMaybeRef(null).endCell();
/** The jetton payload asking the router to provide liquidity, naming the other token's router wallet. */
const provideLpPayload = (otherWallet: Address): Cell =>
  cell().storeUint(0x37c096df, 32).storeAddress(otherWallet).storeAddress(USER).storeAddress(USER).storeUint(1_760_000_600, 64).storeRef(provideLpBody()).endCell();
const provideLp = (left: bigint, right: bigint, otherWallet: Address): Cell =>
  cell()
    .storeUint(0x37c096df, 32)
    .storeUint(QUERY, 64)
    .storeAddress(USER)
    .storeCoins(left)
    .storeCoins(right)
    .storeRef(cell().storeUint(0x7362d09c, 32).storeAddress(otherWallet).storeAddress(USER).storeAddress(USER).storeUint(1_760_000_600, 64).storeRef(provideLpBody()))
    .endCell();
const addLiquidity = (amount0: bigint, amount1: bigint, minLpOut = 1n): Cell =>
  cell().storeUint(0x50c6a654, 32).storeUint(QUERY, 64).storeCoins(amount0).storeCoins(amount1).storeCoins(minLpOut).storeCoins(0n).storeUint(1, 1).storeAddress(USER).storeMaybeRef(null).storeRef(cell().storeAddress(USER).storeAddress(USER)).endCell();
const cbAddLiquidity = (total0: bigint, total1: bigint): Cell =>
  cell().storeUint(0x06ecd527, 32).storeUint(QUERY, 64).storeCoins(total0).storeCoins(total1).storeAddress(USER).storeCoins(1n).storeCoins(0n).storeMaybeRef(null).storeRef(cell().storeAddress(USER).storeAddress(USER).storeAddress(USER)).endCell();
const ptonTransfer = (tonAmount: bigint, fwd: Cell | null): Cell =>
  either(cell().storeUint(0x01f3835d, 32).storeUint(QUERY, 64).storeCoins(tonAmount).storeAddress(USER), fwd).endCell();
const burnNotificationExt = (amount: bigint): Cell =>
  cell().storeUint(0x297437cf, 32).storeUint(QUERY, 64).storeCoins(amount).storeAddress(USER).storeAddress(USER).storeMaybeRef(null).endCell();
const refundMe = (): Cell => cell().storeUint(0x132b9a2c, 32).storeUint(QUERY, 64).storeMaybeRef(null).storeMaybeRef(null).endCell();
const cbRefundMe = (total0: bigint, total1: bigint): Cell =>
  cell().storeUint(0x0f98e2b8, 32).storeUint(QUERY, 64).storeCoins(total0).storeCoins(total1).storeAddress(USER).storeMaybeRef(null).storeMaybeRef(null).endCell();
const BURN_OK = 0xdda48b6a;
const REFUND_OK = 0xde7dbbc2;
const payTo = (exitCode: number, amount0: bigint, amount1: bigint): Cell =>
  cell()
    .storeUint(0x657b54f5, 32)
    .storeUint(QUERY, 64)
    .storeAddress(USER)
    .storeAddress(USER)
    .storeAddress(USER)
    .storeUint(exitCode, 32)
    .storeMaybeRef(null)
    .storeRef(cell().storeCoins(0n).storeCoins(amount0).storeAddress(ROUTER_WALLET_A).storeCoins(amount1).storeAddress(ROUTER_PTON_WALLET))
    .endCell();

// DeDust v2
const burnNotification = (amount: bigint): Cell => cell().storeUint(0x7bdd97de, 32).storeUint(QUERY, 64).storeCoins(amount).storeAddress(USER).storeAddress(USER).endCell();
const payoutFromPool = (amount: bigint): Cell =>
  cell().storeUint(0xad4eb6f5, 32).storeUint(QUERY, 64).storeRef(cell().storeUint(0, 8)).storeCoins(amount).storeAddress(USER).storeMaybeRef(null).endCell();
const payout = (): Cell => cell().storeUint(0x474f86cf, 32).storeUint(QUERY, 64).storeMaybeRef(null).endCell();

const rowsOf = (w: TraceWriter): ActionRow[] => classifier.classify(w.trace()).filter((r) => r.type !== 'contract_deploy');
/** The row's API v3 `details` (ton-index-go `ParseRawAction`). */
const details = (r: ActionRow) => actionDetails(rowToJson(r) as StoredAction);
const allTxs = (w: TraceWriter): string[] => w.txs.map((t) => t.hash).sort();

const AMOUNT_A = 3_000_000_000n;
const AMOUNT_TON = 1_500_000_000n;
const LP_MINTED = 2_121_320_343n;

/** The jetton side: user wallet → router's wallet → router → pool → LP account. Returns the LP account's tx. */
function jettonSide(w: TraceWriter, ext: TraceTransaction): TraceTransaction {
  const payload = provideLpPayload(ROUTER_PTON_WALLET);
  const t1 = w.send(ext, USER_WALLET_A, jettonTransfer(AMOUNT_A, ROUTER, payload, 240_000_000n));
  const t2 = w.send(t1, ROUTER_WALLET_A, internalTransfer(AMOUNT_A, USER, payload, 240_000_000n));
  const t3 = w.send(t2, ROUTER, notification(AMOUNT_A, USER, payload));
  const t4 = w.send(t3, POOL, provideLp(0n, AMOUNT_A, ROUTER_PTON_WALLET));
  return w.send(t4, LP_ACCOUNT, addLiquidity(0n, AMOUNT_A));
}

/** The TON side: pTON `ton_transfer` to the router's pTON wallet → router → pool → LP account. */
function tonSide(w: TraceWriter, ext: TraceTransaction): TraceTransaction {
  const payload = provideLpPayload(ROUTER_WALLET_A);
  const p1 = w.send(ext, ROUTER_PTON_WALLET, ptonTransfer(AMOUNT_TON, payload), AMOUNT_TON + 300_000_000n);
  const p2 = w.send(p1, ROUTER, notification(AMOUNT_TON, USER, payload));
  const p3 = w.send(p2, POOL, provideLp(AMOUNT_TON, 0n, ROUTER_WALLET_A));
  return w.send(p3, LP_ACCOUNT, addLiquidity(AMOUNT_TON, 0n));
}

/** The LP account, holding both sides, calls the pool back; the pool mints LP jettons to the user. */
function mint(w: TraceWriter, lpAccount: TraceTransaction): void {
  const cb = w.send(lpAccount, POOL, cbAddLiquidity(AMOUNT_TON, AMOUNT_A));
  const m = w.send(cb, USER_LP_WALLET, internalTransfer(LP_MINTED, POOL, null));
  w.send(m, USER, excesses());
}

describe('STON.fi v2 provide liquidity', () => {
  it('both sides sent by one wallet message are one action with both amounts and the LP tokens minted', () => {
    const w = new TraceWriter();
    const ext = w.external(USER, walletExternal());
    const ton = tonSide(w, ext);
    w.send(ton, USER, excesses());
    mint(w, jettonSide(w, ext));
    const rows = rowsOf(w);
    expect(rows.map((r) => r.type)).toEqual(['dex_deposit_liquidity']);
    const r = rows[0]!;
    expect(r.success).toBe(true);
    expect(r.source).toBe(raw(USER));
    expect(r.destination).toBe(raw(POOL));
    expect(r.destination_secondary).toBeNull();
    // Side 1 is the provision matched last (the pTON one, deeper in the tree); the other side, matched first, is side 2.
    expect(r.dex_deposit_liquidity_data).toEqual({
      dex: 'stonfi_v2',
      amount1: AMOUNT_TON,
      amount2: AMOUNT_A,
      asset1: null,
      asset2: raw(JETTON_A),
      user_jetton_wallet_1: null,
      user_jetton_wallet_2: raw(USER_WALLET_A),
      lp_tokens_minted: LP_MINTED,
    });
    // Every transaction but the wallet's: TON Center joins the two sides under an empty block put in the wallet's
    // place, so the action has no initiating transaction.
    expect([...r.tx_hashes].sort()).toEqual(allTxs(w).filter((h) => h !== ext.hash));
    // ton-index-go: the liquidity goes to the pool itself for every DEX but DeDust; no targets or excesses here.
    expect(details(r)).toMatchObject({
      dex: 'stonfi_v2',
      source: raw(USER),
      pool: raw(POOL),
      destination_liquidity: raw(POOL),
      amount_1: AMOUNT_TON.toString(),
      asset_1: null,
      amount_2: AMOUNT_A.toString(),
      asset_2: raw(JETTON_A),
      lp_tokens_minted: LP_MINTED.toString(),
      target_asset_1: null,
      vault_excesses: [],
    });
  });

  it('one side alone waits in the LP account: no LP tokens yet', () => {
    const w = new TraceWriter();
    const ext = w.external(USER, walletExternal());
    const lp = jettonSide(w, ext);
    w.send(lp, USER, excesses());
    const rows = rowsOf(w);
    expect(rows.map((r) => r.type)).toEqual(['dex_deposit_liquidity']);
    expect(rows[0]!.success).toBe(true);
    expect(rows[0]!.dex_deposit_liquidity_data).toEqual({
      dex: 'stonfi_v2',
      amount1: AMOUNT_A,
      amount2: null,
      asset1: raw(JETTON_A),
      asset2: null,
      user_jetton_wallet_1: raw(USER_WALLET_A),
      user_jetton_wallet_2: null,
      lp_tokens_minted: null,
    });
  });

  it('the side completing a pair sent earlier mints the LP tokens', () => {
    const w = new TraceWriter();
    const ext = w.external(USER, walletExternal());
    mint(w, tonSide(w, ext));
    const rows = rowsOf(w);
    expect(rows.map((r) => r.type)).toEqual(['dex_deposit_liquidity']);
    expect(rows[0]!.success).toBe(true);
    expect(rows[0]!.source).toBe(raw(USER));
    expect(rows[0]!.destination).toBe(raw(POOL));
    expect(rows[0]!.dex_deposit_liquidity_data).toEqual({
      dex: 'stonfi_v2',
      amount1: AMOUNT_TON,
      amount2: null,
      asset1: null,
      asset2: null,
      user_jetton_wallet_1: null,
      user_jetton_wallet_2: null,
      lp_tokens_minted: LP_MINTED,
    });
  });

  it('a mint the pool refuses (back to the LP account) fails', () => {
    const w = new TraceWriter();
    const ext = w.external(USER, walletExternal());
    const cb = w.send(jettonSide(w, ext), POOL, cbAddLiquidity(AMOUNT_TON, AMOUNT_A));
    w.send(cb, LP_ACCOUNT, addLiquidity(AMOUNT_TON, AMOUNT_A, 0n));
    const rows = rowsOf(w);
    expect(rows.map((r) => r.type)).toEqual(['dex_deposit_liquidity']);
    expect(rows[0]!.success).toBe(false);
    expect(rows[0]!.dex_deposit_liquidity_data).toMatchObject({ amount1: AMOUNT_A, asset1: raw(JETTON_A), lp_tokens_minted: null });
  });
});

const LP_BURNT = 1_000_000_000n;
const OUT_A = 1_400_000_000n;
const OUT_TON = 700_000_000n;

/** The router pays each token out: the jetton through its wallet, TON through its pTON wallet. */
function payouts(w: TraceWriter, from: TraceTransaction, exitCode: number): void {
  const pay0 = w.send(from, ROUTER, payTo(exitCode, OUT_A, 0n));
  const pay1 = w.send(from, ROUTER, payTo(exitCode, 0n, OUT_TON));
  const j1 = w.send(pay0, ROUTER_WALLET_A, jettonTransfer(OUT_A, USER, null));
  const j2 = w.send(j1, USER_WALLET_A, internalTransfer(OUT_A, ROUTER, null));
  w.send(j2, USER, excesses());
  const q1 = w.send(pay1, ROUTER_PTON_WALLET, jettonTransfer(OUT_TON, USER, null));
  w.send(q1, USER, ptonTransfer(OUT_TON, null), OUT_TON);
}

describe('STON.fi v2 withdraw liquidity', () => {
  it('LP jettons burnt: both payouts, the burnt amount and the LP jetton', () => {
    const w = new TraceWriter();
    const ext = w.external(USER, walletExternal());
    const b1 = w.send(ext, USER_LP_WALLET, burn(LP_BURNT));
    const b2 = w.send(b1, POOL, burnNotificationExt(LP_BURNT));
    payouts(w, b2, BURN_OK);
    const rows = rowsOf(w);
    expect(rows.map((r) => r.type)).toEqual(['dex_withdraw_liquidity']);
    const r = rows[0]!;
    expect(r.success).toBe(true);
    expect(r.source).toBe(raw(USER));
    expect(r.source_secondary).toBe(raw(USER_LP_WALLET));
    expect(r.destination).toBe(raw(POOL));
    expect(r.asset).toBe(raw(POOL));
    expect(r.dex_withdraw_liquidity_data).toEqual({
      dex: 'stonfi_v2',
      amount1: OUT_A,
      amount2: OUT_TON,
      asset1_out: raw(JETTON_A),
      asset2_out: null,
      user_jetton_wallet_1: raw(USER_WALLET_A),
      user_jetton_wallet_2: null,
      dex_jetton_wallet_1: raw(ROUTER_WALLET_A),
      dex_wallet_1: raw(ROUTER),
      dex_wallet_2: raw(ROUTER),
      // A pTON transfer has no receiving jetton wallet and TON Center records no sending one either.
      dex_jetton_wallet_2: null,
      is_refund: false,
      lp_tokens_burnt: LP_BURNT,
    });
    expect([...r.tx_hashes].sort()).toEqual(allTxs(w));
  });

  it('a refund from the LP account is a withdrawal marked is_refund, without LP tokens', () => {
    const w = new TraceWriter();
    const ext = w.external(USER, walletExternal());
    const r1 = w.send(ext, LP_ACCOUNT, refundMe());
    const r2 = w.send(r1, POOL, cbRefundMe(OUT_A, OUT_TON));
    payouts(w, r2, REFUND_OK);
    const rows = rowsOf(w);
    expect(rows.map((r) => r.type)).toEqual(['dex_withdraw_liquidity']);
    const r = rows[0]!;
    expect(r.source).toBe(raw(USER));
    expect(r.source_secondary).toBeNull();
    expect(r.destination).toBe(raw(POOL));
    expect(r.asset).toBeNull();
    expect(r.dex_withdraw_liquidity_data).toMatchObject({ dex: 'stonfi_v2', amount1: OUT_A, amount2: OUT_TON, is_refund: true, lp_tokens_burnt: null });
  });
});

describe('DeDust withdraw liquidity', () => {
  const OUT_J = 55_000_000n;

  it('LP jettons burnt at the pool, paid out by the TON vault and a jetton vault', () => {
    const w = new TraceWriter();
    const ext = w.external(USER, walletExternal());
    const b1 = w.send(ext, DEDUST_LP_WALLET, burn(LP_BURNT));
    const b2 = w.send(b1, DEDUST_POOL, burnNotification(LP_BURNT));
    const p0 = w.send(b2, TON_VAULT, payoutFromPool(OUT_TON));
    const p1 = w.send(b2, JETTON_VAULT, payoutFromPool(OUT_J));
    w.send(p0, USER, payout(), OUT_TON);
    const j1 = w.send(p1, VAULT_WALLET_J, jettonTransfer(OUT_J, USER, null));
    const j2 = w.send(j1, USER_WALLET_J, internalTransfer(OUT_J, JETTON_VAULT, null));
    w.send(j2, USER, excesses());
    const rows = rowsOf(w);
    expect(rows.map((r) => r.type)).toEqual(['dex_withdraw_liquidity']);
    const r = rows[0]!;
    expect(r.success).toBe(true);
    expect(r.source).toBe(raw(USER));
    expect(r.source_secondary).toBe(raw(DEDUST_LP_WALLET));
    expect(r.destination).toBe(raw(DEDUST_POOL));
    expect(r.asset).toBe(raw(DEDUST_POOL));
    expect(r.dex_withdraw_liquidity_data).toEqual({
      dex: 'dedust',
      amount1: OUT_TON,
      amount2: OUT_J,
      asset1_out: null,
      asset2_out: raw(JETTON_J),
      user_jetton_wallet_1: null,
      user_jetton_wallet_2: raw(USER_WALLET_J),
      dex_jetton_wallet_1: null,
      dex_wallet_1: raw(TON_VAULT),
      dex_wallet_2: raw(JETTON_VAULT),
      dex_jetton_wallet_2: raw(VAULT_WALLET_J),
      is_refund: false,
      lp_tokens_burnt: LP_BURNT,
    });
    expect([...r.tx_hashes].sort()).toEqual(allTxs(w));
    expect(details(r)).toMatchObject({
      dex: 'dedust',
      source: raw(USER),
      pool: raw(DEDUST_POOL),
      destination_liquidity: raw(DEDUST_POOL),
      amount_1: OUT_TON.toString(),
      asset_1: null,
      amount_2: OUT_J.toString(),
      asset_2: raw(JETTON_J),
      user_jetton_wallet_2: raw(USER_WALLET_J),
      lp_tokens_burnt: LP_BURNT.toString(),
    });
  });

  it('a burn whose notification the pool does not answer with two payouts stays a jetton burn', () => {
    const w = new TraceWriter();
    const ext = w.external(USER, walletExternal());
    const b1 = w.send(ext, DEDUST_LP_WALLET, burn(LP_BURNT));
    const b2 = w.send(b1, DEDUST_POOL, burnNotification(LP_BURNT));
    w.send(w.send(b2, TON_VAULT, payoutFromPool(OUT_TON)), USER, payout(), OUT_TON);
    const rows = rowsOf(w);
    expect(rows.map((r) => r.type)).not.toContain('dex_withdraw_liquidity');
    expect(rows.map((r) => r.type)).toContain('jetton_burn');
  });
});
