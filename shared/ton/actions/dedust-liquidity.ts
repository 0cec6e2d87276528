import {
  DEDUST_ASK_LIQUIDITY_FACTORY,
  DEDUST_DEPLOY_DEPOSIT_CONTRACT,
  DEDUST_DEPOSIT_REJECTED,
  DEDUST_DEPOSIT_TON_TO_VAULT,
  DEDUST_DEPOSIT_TO_POOL,
  DEDUST_DESTROY_DEPOSIT_CONTRACT,
  DEDUST_RETURN_EXCESS_FROM_VAULT,
  DEDUST_TOP_UP_DEPOSIT_CONTRACT,
  loadDedustDepositJettonPayload,
  loadDedustDepositToPool,
  loadDedustDepositTonToVault,
} from '../bodies/DedustLiquidity.js';
import { DEDUST_PAYOUT, DEDUST_PAYOUT_FROM_POOL, loadDedustPayoutAmount } from '../bodies/Dedust.js';
import { JETTON_BURN, JETTON_BURN_NOTIFICATION, loadJettonBurn } from '../bodies/JettonBurn.js';
import { JETTON_INTERNAL_TRANSFER, loadJettonInternalTransfer } from '../bodies/JettonInternalTransfer.js';
import { JETTON_NOTIFY } from '../bodies/JettonNotify.js';
import { JETTON_TRANSFER } from '../bodies/JettonTransfer.js';
import { loadAddr, refSlice } from '../bodies/cell.js';
import { Block } from './block.js';
import { CallContractBlock, isCall } from './basic.js';
import type { Family } from './classify.js';
import { type InterfaceRepository, jettonWallet } from './interfaces.js';
import { JettonTransferBlock, JettonTransferMatcher } from './jettons.js';
import { Matcher, OpMatcher, OrMatcher, TypeMatcher, findCall, getAllLabeled, getLabeled, labeled } from './matcher.js';
import type { ActionRow } from './row.js';

/**
 * DeDust liquidity (actions.md "DEX liquidity"). Deposits: the final half, which makes the deposit contract call
 * the pool, and an unmatched first half (`dedust_deposit_liquidity_partial`); a first half found in the same trace
 * as its final half is merged into it. Withdrawals: LP jettons burnt, the pool paying each asset out through its
 * vault. Assets here are `'TON'` or a jetton master until they are written out (withdrawals: null = TON).
 */
const TON = 'TON';
type Asset = string;
const asset = (a: string | null): Asset => a ?? TON;
const out = (a: Asset | null | undefined): string | null => (a === undefined || a === null || a === TON ? null : a);

/** The user's asset arriving at a vault: TON to the native vault, or a jetton transfer ending in a notification. */
const depositSource = (): Matcher[] => [
  new OpMatcher(DEDUST_DEPOSIT_TON_TO_VAULT),
  new OpMatcher(JETTON_NOTIFY, { parent: new OpMatcher(JETTON_INTERNAL_TRANSFER, { parent: new OpMatcher(JETTON_TRANSFER) }) }),
];

function excesses(repo: InterfaceRepository): Matcher[] {
  const jettonExcess = new JettonTransferMatcher(repo);
  jettonExcess.optional = true;
  const vaultExcess = (): Matcher =>
    new OpMatcher(DEDUST_RETURN_EXCESS_FROM_VAULT, {
      optional: true,
      children: [labeled('jetton_excess', jettonExcess, true), labeled('ton_excess', new OpMatcher(DEDUST_PAYOUT, { optional: true }))],
    });
  return [new TypeMatcher('ton_transfer', { optional: true }), vaultExcess(), vaultExcess()];
}

class DedustDepositMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    const [ton, jetton] = depositSource();
    super({
      parent: new OpMatcher(DEDUST_TOP_UP_DEPOSIT_CONTRACT, {
        parent: new OpMatcher(DEDUST_ASK_LIQUIDITY_FACTORY, {
          parent: new OrMatcher([labeled('deposit', ton!), labeled('deposit', jetton!)]),
          child: new OpMatcher(DEDUST_DEPLOY_DEPOSIT_CONTRACT, { optional: true }),
        }),
      }),
      children: [
        new OrMatcher([
          labeled('lp_transfer', new OpMatcher(JETTON_INTERNAL_TRANSFER, { child: new OpMatcher(JETTON_NOTIFY, { optional: true }) })),
          labeled('rejection', new OpMatcher(DEDUST_DEPOSIT_REJECTED, { children: excesses(repo) })),
        ]),
        new OpMatcher(DEDUST_DESTROY_DEPOSIT_CONTRACT, { optional: true, children: excesses(repo) }),
      ],
    });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, DEDUST_DEPOSIT_TO_POOL);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const info = loadDedustDepositToPool(block.body());
    const sender = info.owner;
    const lp = getLabeled('lp_transfer', others);
    const reject = getLabeled('rejection', others);
    let pool: string | null;
    let lpTokens: bigint | null;
    if (lp) {
      lpTokens = loadJettonInternalTransfer(lp.body()).amount;
      pool = block.message.destination;
    } else if (reject) {
      pool = reject.message.source;
      lpTokens = null;
    } else throw new Error('no LP transfer or rejection');
    const jettonDeposits = others.filter((b) => isCall(b, JETTON_TRANSFER) && b.message.source?.toUpperCase() === sender);
    const deposit = getLabeled('deposit', others)!;
    let actualAsset: Asset;
    let actualAmount: bigint;
    if (isCall(deposit, DEDUST_DEPOSIT_TON_TO_VAULT)) {
      actualAsset = TON;
      actualAmount = loadDedustDepositTonToVault(deposit.body()).amount;
    } else {
      const s = deposit.body();
      if (s.loadUint(32) !== JETTON_NOTIFY) throw new Error('not a notification');
      s.loadUintBig(64);
      actualAmount = s.loadCoins();
      const w = jettonWallet(this.repo, deposit.message.source);
      if (w === null) throw new Error('unknown vault wallet');
      actualAsset = w.jetton;
    }
    let userWallet: string | null = null;
    for (const j of jettonDeposits) {
      const w = jettonWallet(this.repo, j.message.destination?.toUpperCase());
      if (w === null) continue;
      // TON Center compares the jetton with the asset; for TON that comparison fails (no jetton address).
      if (actualAsset === TON) throw new Error('jetton deposit against a TON asset');
      if (w.jetton === actualAsset) userWallet = j.message.destination;
    }
    const vaultExcesses: [Asset, bigint][] = [];
    for (const t of getAllLabeled('ton_excess', others)) if (t.message.destination === sender) vaultExcesses.push([TON, BigInt(t.message.value ?? 0)]);
    for (const j of getAllLabeled('jetton_excess', others)) if (j instanceof JettonTransferBlock && j.data.receiver === sender) vaultExcesses.push([asset(j.data.asset), j.data.amount]);
    const nb = new Block('dedust_deposit_liquidity', [], {
      dex: 'dedust',
      sender,
      pool,
      depositContract: block.message.source,
      lpTokens,
      asset1: actualAsset,
      asset2: null,
      amount1: actualAmount,
      amount2: null,
      targetAsset1: asset(info.asset0),
      targetAmount1: info.amount0,
      targetAsset2: asset(info.asset1),
      targetAmount2: info.amount1,
      wallet1: userWallet,
      wallet2: null,
      vaultExcesses,
    });
    nb.mergeBlocks([block, ...others]);
    nb.failed = lpTokens === null;
    return [nb];
  }
}

class DedustDepositFirstAssetMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({
      parent: new OpMatcher(DEDUST_ASK_LIQUIDITY_FACTORY, { child: new OpMatcher(DEDUST_DEPLOY_DEPOSIT_CONTRACT), parent: new OrMatcher(depositSource()) }),
    });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, DEDUST_TOP_UP_DEPOSIT_CONTRACT);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const include = [block, ...others];
    const vault = block.previous!.previous!;
    const topUp = findCall(include, DEDUST_TOP_UP_DEPOSIT_CONTRACT)!;
    for (const n of topUp.next) {
      if (n instanceof CallContractBlock && (n.op === DEDUST_DEPOSIT_TO_POOL || n.op === DEDUST_DEPOSIT_REJECTED)) throw new Error('final deposit after top up');
    }
    let d: Record<string, unknown>;
    try {
      const m = loadDedustDepositTonToVault(vault.body());
      d = { sender: vault.message.source, asset1: TON, amount1: m.amount, t: m, wallet1: null };
    } catch {
      const s = vault.body();
      if (s.loadUint(32) !== JETTON_NOTIFY) throw new Error('not a notification');
      s.loadUintBig(64);
      const amount = s.loadCoins();
      const sender = loadAddr(s);
      const t = loadDedustDepositJettonPayload(refSlice(s, s.loadRef()));
      const w = jettonWallet(this.repo, vault.message.source?.toUpperCase());
      if (w === null) throw new Error('unknown vault wallet');
      d = { sender, asset1: w.jetton, amount1: amount, t, wallet1: vault.previous!.message.source };
    }
    const t = d.t as { asset0: string | null; asset1: string | null; target0: bigint; target1: bigint };
    const nb = new Block('dedust_deposit_liquidity_partial', [], {
      dex: 'dedust',
      sender: d.sender,
      depositContract: block.message.destination,
      asset1: d.asset1,
      amount1: d.amount1,
      asset2: null,
      amount2: null,
      wallet1: d.wallet1,
      wallet2: null,
      targetAsset1: asset(t.asset0),
      targetAmount1: t.target0,
      targetAsset2: asset(t.asset1),
      targetAmount2: t.target1,
    });
    nb.mergeBlocks(include);
    return [nb];
  }
}

/** Merges each first half into the final half of the same deposit contract (TON Center `post_process_dedust_liquidity`). */
function mergeDeposits(blocks: Block[]): Block[] {
  const firsts = blocks.filter((b) => b.type === 'dedust_deposit_liquidity_partial');
  const finals = blocks.filter((b) => b.type === 'dedust_deposit_liquidity');
  const used = new Map<string, number>();
  for (const b of [...firsts, ...finals]) used.set(b.data.depositContract, (used.get(b.data.depositContract) ?? 0) + 1);
  for (const v of used.values()) if (v > 2) return blocks;
  for (const first of firsts) {
    const fin = finals.find((b) => b.data.depositContract === first.data.depositContract);
    if (!fin) continue;
    const data = combine(first.data, fin.data);
    blocks.splice(blocks.indexOf(first), 1);
    fin.nodes.push(...first.nodes);
    if (fin.initiatingNode !== first.initiatingNode && first.initiatingNode) fin.nodes.push(first.initiatingNode);
    fin.data = data;
    fin.nodes = [...new Set(fin.nodes)];
    fin.children = [...new Set([...fin.children, ...first.children])];
    fin.calculateMinMax();
  }
  return blocks;
}

function combine(first: Record<string, any>, fin: Record<string, any>): Record<string, any> {
  const result = { ...fin };
  const targetsFirst = new Set([first.targetAsset1, first.targetAsset2]);
  const targetsFinal = new Set([fin.targetAsset1, fin.targetAsset2]);
  if (targetsFirst.size !== targetsFinal.size || [...targetsFirst].some((a) => !targetsFinal.has(a))) throw new Error("target assets don't match");
  const tuples: [Asset, bigint, string | null][] = [];
  for (const i of [1, 2]) if (first[`asset${i}`]) tuples.push([first[`asset${i}`], first[`amount${i}`], first[`wallet${i}`] ?? null]);
  for (const i of [1, 2]) {
    const a = fin[`asset${i}`];
    if (!a) continue;
    const amount = fin[`amount${i}`];
    const wallet = fin[`wallet${i}`] ?? null;
    const idx = tuples.findIndex((t) => t[0] === a);
    if (idx >= 0) {
      const e = tuples[idx]!;
      if (e[2] !== wallet) throw new Error(`user wallet mismatch for ${a}`);
      tuples[idx] = [a, e[1] + amount, wallet ?? e[2]];
    } else tuples.push([a, amount, wallet]);
  }
  const unique = new Set(tuples.map((t) => t[0]));
  if (unique.size !== 2) throw new Error('expected exactly 2 assets');
  if ([...unique].some((a) => !targetsFirst.has(a))) throw new Error("assets don't match targets");
  tuples.forEach(([a, amount, wallet], k) => {
    result[`asset${k + 1}`] = a;
    result[`amount${k + 1}`] = amount;
    result[`wallet${k + 1}`] = wallet;
  });
  result.targetAsset1 = tuples[0]![0];
  result.targetAsset2 = tuples[1]![0];
  return result;
}

/** One payout of a liquidity withdrawal: the asset (null = TON), the DEX account paying it and the user's wallet. */
export interface WithdrawSide {
  asset: string | null;
  /** The vault or router sending the payout. */
  dexWallet: string | null;
  /** Its jetton wallet, for a jetton payout. */
  dexJettonWallet: string | null;
  /** The user's jetton wallet receiving it. */
  wallet: string | null;
}

/** A `dex_withdraw_liquidity` block's data (DeDust, STON.fi v2, swap.coffee). */
export interface WithdrawLiquidityData {
  dex: string;
  sender: string | null;
  /** The owner's LP jetton wallet. */
  senderWallet: string | null;
  pool: string | null;
  /** The LP jetton master. */
  asset: string | null;
  lpTokensBurnt: bigint | null;
  isRefund: boolean;
  amount1: bigint | null;
  amount2: bigint | null;
  side1: WithdrawSide;
  side2: WithdrawSide;
}

const noSide = (): WithdrawSide => ({ asset: null, dexWallet: null, dexJettonWallet: null, wallet: null });

/**
 * LP jettons burnt at a DeDust pool (TON Center `DedustWithdrawBlockMatcher`): burn → burn_notification to the pool
 * → one `payout_from_pool` per asset to its vault, each paid out as TON (`payout`) or a jetton transfer.
 */
class DedustWithdrawMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    const payout = (label: string): Matcher =>
      new OpMatcher(DEDUST_PAYOUT_FROM_POOL, {
        child: new OrMatcher([labeled(label, new OpMatcher(DEDUST_PAYOUT)), labeled(label, new TypeMatcher('jetton_transfer'))]),
      });
    super({ child: new OpMatcher(JETTON_BURN_NOTIFICATION, { children: [payout('payout_1'), payout('payout_2')] }) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, JETTON_BURN);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const sender = block.message.source;
    const senderWallet = block.message.destination;
    const burn = loadJettonBurn(block.body());
    const pool = block.next[0]!.message.destination;
    const lp = jettonWallet(this.repo, senderWallet?.toUpperCase());
    if (lp === null) return [];
    const sides: WithdrawSide[] = [];
    const amounts: bigint[] = [];
    for (const label of ['payout_1', 'payout_2']) {
      const p = getLabeled(label, others);
      const request = p?.previous ?? null;
      if (!p || request === null) continue;
      if (isCall(p, DEDUST_PAYOUT)) sides.push({ ...noSide(), dexWallet: p.message.source });
      else if (p instanceof JettonTransferBlock) {
        sides.push({ asset: p.data.asset, dexWallet: p.data.sender, dexJettonWallet: p.data.senderWallet, wallet: p.data.receiverWallet });
      } else return [];
      amounts.push(loadDedustPayoutAmount(request.body()));
    }
    if (sides.length < 2) throw new Error('a payout is missing');
    const data: WithdrawLiquidityData = {
      dex: 'dedust',
      sender,
      senderWallet,
      pool,
      asset: lp.jetton,
      lpTokensBurnt: burn.amount,
      isRefund: false,
      amount1: amounts[0]!,
      amount2: amounts[1]!,
      side1: sides[0]!,
      side2: sides[1]!,
    };
    const nb = new Block('dex_withdraw_liquidity', [], data);
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

/** A liquidity withdrawal's row (TON Center `_fill_dex_withdraw_liquidity`; TONCO has its own). */
export function fillDexWithdrawLiquidity(b: Block, row: ActionRow): void {
  const d = b.data as WithdrawLiquidityData;
  row.source = d.sender;
  row.source_secondary = d.senderWallet;
  row.destination = d.pool;
  row.asset = d.asset;
  row.dex_withdraw_liquidity_data = {
    dex: d.dex,
    amount1: d.amount1,
    amount2: d.amount2,
    asset1_out: d.side1.asset,
    asset2_out: d.side2.asset,
    user_jetton_wallet_1: d.side1.wallet,
    user_jetton_wallet_2: d.side2.wallet,
    dex_jetton_wallet_1: d.side1.dexJettonWallet,
    dex_wallet_1: d.side1.dexWallet,
    dex_wallet_2: d.side2.dexWallet,
    dex_jetton_wallet_2: d.side2.dexJettonWallet,
    is_refund: d.isRefund,
    lp_tokens_burnt: d.lpTokensBurnt,
  };
}

export function depositData(d: Record<string, any>, withExcesses: boolean): Record<string, unknown> {
  const out1: Record<string, unknown> = {
    dex: d.dex,
    asset1: out(d.asset1),
    amount1: d.amount1 ?? null,
    asset2: out(d.asset2),
    amount2: d.amount2 ?? null,
    user_jetton_wallet_1: d.wallet1 ?? null,
    user_jetton_wallet_2: d.wallet2 ?? null,
    lp_tokens_minted: withExcesses ? d.lpTokens ?? null : null,
    target_asset_1: out(d.targetAsset1),
    target_amount_1: d.targetAmount1 ?? null,
    target_asset_2: out(d.targetAsset2),
    target_amount_2: d.targetAmount2 ?? null,
  };
  if (withExcesses) out1.vault_excesses = (d.vaultExcesses as [Asset, bigint][]).map(([a, amount]) => ({ asset: out(a), amount }));
  return out1;
}

export const dedustLiquidityFamily: Family = {
  matchers: (repo) => [
    [30, new DedustDepositMatcher(repo)],
    [40, new DedustDepositFirstAssetMatcher(repo)],
    [170, new DedustWithdrawMatcher(repo)],
  ],
  fillers: [
    [
      'dedust_deposit_liquidity',
      (b: Block, row: ActionRow) => {
        row.type = 'dex_deposit_liquidity';
        row.source = b.data.sender;
        row.destination = b.data.pool;
        row.destination_secondary = b.data.depositContract;
        row.dex_deposit_liquidity_data = depositData(b.data, true);
      },
    ],
    [
      'dedust_deposit_liquidity_partial',
      (b: Block, row: ActionRow) => {
        row.type = 'dex_deposit_liquidity';
        row.source = b.data.sender;
        row.destination_secondary = b.data.depositContract;
        row.dex_deposit_liquidity_data = depositData(b.data, false);
      },
    ],
    ['dex_withdraw_liquidity', fillDexWithdrawLiquidity],
  ],
  postProcess: (blocks) => mergeDeposits(blocks),
};
