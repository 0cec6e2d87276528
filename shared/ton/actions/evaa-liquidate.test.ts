import { Address, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { type MessageSpec, assembleTrace } from '../../../test/helpers/assembled-trace.js';
import { createClassifier } from './index.js';
import type { AccountInterfaces } from './interfaces.js';
import { rowToJson } from './row.js';

/*
 * evaa_liquidate on traces assembled from EVAA's message layouts (no liquidation among the action corpus' recorded
 * traces, and EVAA's contracts are not among the fixtures to run on the devnet): the bodies are written from
 * evaa-protocol's schema.tlb as TON Center's message classes cite it, and the expected row follows from the values
 * put in them and actions.md's rules for the type (lower-case raw addresses, decimal `asset`, `0x` asset_id).
 */

const addr = (n: number): string => `0:${n.toString(16).padStart(2, '0').repeat(32).toUpperCase()}`;
const A = (s: string) => Address.parseRaw(s);
const LIQUIDATOR = addr(0x11);
const MASTER = addr(0x22);
const USER_CONTRACT = addr(0x33);
const BORROWER = addr(0x44);
const COLLATERAL = 0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8an; // TON
const DEBT = 0x91ad5c5c1b07a9a06cff27b4c4e5b7ad2f0bc6bd2b8a5b5c9c3f4c9a1b2c3d4en;
const INCOMING = 5_000_000n;

const empty = () => beginCell().endCell();
/** A message to a user contract: `user_version:Coins upgrade_info:(Maybe ^Cell) upgrade_exec:uint2` then the op. */
const userMsg = (op: number, rest: (b: ReturnType<typeof beginCell>) => void): Cell => {
  const b = beginCell().storeCoins(1n).storeBit(0).storeUint(0, 2).storeUint(op, 32).storeUint(7n, 64);
  rest(b);
  return b.endCell();
};
const master = (): Cell =>
  beginCell()
    .storeUint(3, 32)
    .storeUint(7n, 64)
    .storeAddress(A(BORROWER))
    .storeAddress(A(LIQUIDATOR))
    .storeUint(COLLATERAL, 256)
    .storeUint(0n, 64)
    .storeInt(0, 2)
    .storeUint(INCOMING, 64)
    .storeRef(beginCell().storeUint(0n, 64).storeRef(empty()).endCell())
    .storeRef(empty())
    .endCell();
const liquidateUser = (): Cell =>
  userMsg(0x31, (b) => b.storeBit(0).storeBit(0).storeRef(beginCell().storeRef(empty()).storeUint(COLLATERAL, 256).storeUint(0n, 64).storeAddress(A(LIQUIDATOR)).storeUint(DEBT, 256).storeUint(INCOMING, 64).storeUint(0n, 64).storeRef(empty()).endCell()));
const satisfied = (liquidatable: bigint, reward: bigint): Cell =>
  beginCell()
    .storeUint(0x311, 32)
    .storeUint(7n, 64)
    .storeAddress(A(BORROWER))
    .storeAddress(A(LIQUIDATOR))
    .storeUint(DEBT, 256)
    .storeRef(beginCell().storeInt(-1n, 64).storeUint(liquidatable, 64).storeUint(0n, 64).storeInt(0n, 64).storeUint(COLLATERAL, 256).storeInt(-2n, 64).storeUint(reward, 64).endCell())
    .endCell();
const unsatisfied = (error: number): Cell =>
  beginCell()
    .storeUint(0x31f, 32)
    .storeUint(7n, 64)
    .storeAddress(A(BORROWER))
    .storeAddress(A(LIQUIDATOR))
    .storeUint(DEBT, 256)
    .storeRef(beginCell().storeUint(INCOMING, 64).storeUint(COLLATERAL, 256).storeUint(0n, 64).storeUint(0n, 64).storeRef(empty()).storeUint(error, 32).endCell())
    .endCell();
const op = (code: number): Cell => beginCell().storeUint(code, 32).storeUint(7n, 64).endCell();

/** The liquidator's wallet (external) → its liquidate_master to the master → ... */
const fromWallet = (toMaster: MessageSpec): MessageSpec => ({ from: null, to: LIQUIDATOR, body: empty(), children: [toMaster] });

// A liquidation paid in jettons: the liquidator's jetton wallet, the master's, the jetton (TEP-74).
const LIQUIDATOR_WALLET = addr(0x55);
const MASTER_WALLET = addr(0x66);
const JETTON = addr(0x77);
const interfaces = new Map<string, AccountInterfaces>([
  [LIQUIDATOR_WALLET, { jettonWallet: { address: LIQUIDATOR_WALLET, owner: LIQUIDATOR, jetton: JETTON } }],
  [MASTER_WALLET, { jettonWallet: { address: MASTER_WALLET, owner: MASTER, jetton: JETTON } }],
]);
const withPayload = (b: ReturnType<typeof beginCell>, payload: Cell): Cell => b.storeBit(1).storeRef(payload).endCell();

function classify(root: MessageSpec, name: string): Record<string, any>[] {
  const rows = createClassifier((a) => interfaces.get(a)).classify(assembleTrace(root, name));
  return rows.filter((r) => r.parent_action_id === null).map((r) => rowToJson(r) as Record<string, any>);
}

describe('evaa_liquidate (assembled traces)', () => {
  it('a TON liquidation the user contract satisfies: the collateral reward to the liquidator', () => {
    const rows = classify(
      fromWallet({
        from: LIQUIDATOR,
        to: MASTER,
        body: master(),
        children: [
          {
            from: MASTER,
            to: USER_CONTRACT,
            body: liquidateUser(),
            children: [
              {
                from: USER_CONTRACT,
                to: MASTER,
                body: satisfied(4_000_000n, 4_200_000n),
                children: [
                  { from: MASTER, to: USER_CONTRACT, body: userMsg(0x311a, (b) => b.storeUint(DEBT, 256)) },
                  { from: MASTER, to: LIQUIDATOR, body: op(0x311d) },
                ],
              },
            ],
          },
        ],
      }),
      'liq-ok',
    );
    const liq = rows.filter((r) => r.type === 'evaa_liquidate');
    expect(liq).toHaveLength(1);
    expect(liq[0]).toMatchObject({
      success: true,
      source: LIQUIDATOR.toLowerCase(),
      destination: BORROWER.toLowerCase(),
      destination_secondary: USER_CONTRACT.toLowerCase(),
      asset: COLLATERAL.toString(),
      amount: '4200000',
      evaa_liquidate_data: { asset_id: '0x' + COLLATERAL.toString(16), fail_reason: null, debt_amount: '4000000' },
    });
  });

  it('a liquidation the user contract refuses: the error it names, nothing received', () => {
    const rows = classify(
      fromWallet({
        from: LIQUIDATOR,
        to: MASTER,
        body: master(),
        children: [{ from: MASTER, to: USER_CONTRACT, body: liquidateUser(), children: [{ from: USER_CONTRACT, to: MASTER, body: unsatisfied(0xe003), children: [{ from: MASTER, to: LIQUIDATOR, body: op(0x311f) }] }] }],
      }),
      'liq-refused',
    );
    const liq = rows.filter((r) => r.type === 'evaa_liquidate');
    expect(liq).toHaveLength(1);
    expect(liq[0]).toMatchObject({
      success: false,
      destination: BORROWER.toLowerCase(),
      destination_secondary: USER_CONTRACT.toLowerCase(),
      amount: '0',
      evaa_liquidate_data: { asset_id: '0x' + COLLATERAL.toString(16), fail_reason: 'not_liquidatable', debt_amount: INCOMING.toString() },
    });
  });

  it('a liquidation paid in jettons (liquidate_master as the transfer payload) the user contract refuses', () => {
    const payload = master();
    const jettons = 6_000_000n;
    const transfer = withPayload(beginCell().storeUint(0x0f8a7ea5, 32).storeUint(7n, 64).storeCoins(jettons).storeAddress(A(MASTER)).storeAddress(A(LIQUIDATOR)).storeMaybeRef(null).storeCoins(300_000_000n), payload);
    const internal = withPayload(beginCell().storeUint(0x178d4519, 32).storeUint(7n, 64).storeCoins(jettons).storeAddress(A(LIQUIDATOR)).storeAddress(A(LIQUIDATOR)).storeCoins(300_000_000n), payload);
    const notify = withPayload(beginCell().storeUint(0x7362d09c, 32).storeUint(7n, 64).storeCoins(jettons).storeAddress(A(LIQUIDATOR)), payload);
    const rows = classify(
      fromWallet({
        from: LIQUIDATOR,
        to: LIQUIDATOR_WALLET,
        body: transfer,
        children: [
          {
            from: LIQUIDATOR_WALLET,
            to: MASTER_WALLET,
            body: internal,
            children: [
              {
                from: MASTER_WALLET,
                to: MASTER,
                body: notify,
                children: [{ from: MASTER, to: USER_CONTRACT, body: liquidateUser(), children: [{ from: USER_CONTRACT, to: MASTER, body: unsatisfied(0xe006), children: [{ from: MASTER, to: LIQUIDATOR, body: op(0x311f) }] }] }],
              },
            ],
          },
        ],
      }),
      'liq-jetton',
    );
    expect(rows.map((r) => r.type)).toEqual(['evaa_liquidate']);
    expect(rows[0]).toMatchObject({
      success: false,
      source: LIQUIDATOR.toLowerCase(),
      destination: BORROWER.toLowerCase(),
      destination_secondary: USER_CONTRACT.toLowerCase(),
      amount: '0',
      evaa_liquidate_data: { fail_reason: 'user_not_enough_collateral', debt_amount: INCOMING.toString() },
    });
  });

  it('a refusal without its error code: parse_error; one whose body does not read is no liquidation (TON Center reads it unguarded)', () => {
    const noCode = beginCell()
      .storeUint(0x31f, 32)
      .storeUint(7n, 64)
      .storeAddress(A(BORROWER))
      .storeAddress(A(LIQUIDATOR))
      .storeUint(DEBT, 256)
      .storeRef(beginCell().storeUint(INCOMING, 64).storeUint(COLLATERAL, 256).storeUint(0n, 64).storeUint(0n, 64).storeRef(empty()).endCell())
      .endCell();
    // The reference cell stops before forward_ton_amount and custom_response_payload.
    const truncated = beginCell()
      .storeUint(0x31f, 32)
      .storeUint(7n, 64)
      .storeAddress(A(BORROWER))
      .storeAddress(A(LIQUIDATOR))
      .storeUint(DEBT, 256)
      .storeRef(beginCell().storeUint(INCOMING, 64).storeUint(COLLATERAL, 256).endCell())
      .endCell();
    const refusal = (body: Cell, name: string) =>
      classify(
        fromWallet({
          from: LIQUIDATOR,
          to: MASTER,
          body: master(),
          children: [{ from: MASTER, to: USER_CONTRACT, body: liquidateUser(), children: [{ from: USER_CONTRACT, to: MASTER, body, children: [{ from: MASTER, to: LIQUIDATOR, body: op(0x311f) }] }] }],
        }),
        name,
      ).filter((r) => r.type === 'evaa_liquidate');
    const parsed = refusal(noCode, 'liq-no-code');
    expect(parsed).toHaveLength(1);
    expect(parsed[0]).toMatchObject({ success: false, evaa_liquidate_data: { fail_reason: 'parse_error' } });
    expect(refusal(truncated, 'liq-truncated')).toHaveLength(0);
  });

  it('a liquidation the master rejects at once (the TON bounced back): immediate_rejection', () => {
    const bounced = beginCell().storeUint(0xffffffff, 32).storeUint(3, 32).storeUint(7n, 64).endCell();
    const rows = classify(fromWallet({ from: LIQUIDATOR, to: MASTER, body: master(), children: [{ from: MASTER, to: LIQUIDATOR, body: bounced, bounced: true, bounce: false }] }), 'liq-bounced');
    const liq = rows.filter((r) => r.type === 'evaa_liquidate');
    expect(liq).toHaveLength(1);
    expect(liq[0]).toMatchObject({ success: false, destination_secondary: null, amount: '0', evaa_liquidate_data: { fail_reason: 'immediate_rejection', debt_amount: INCOMING.toString() } });
  });

  it('a liquidate_master with no answer yet is no liquidation', () => {
    const rows = classify(fromWallet({ from: LIQUIDATOR, to: MASTER, body: master() }), 'liq-pending');
    expect(rows.map((r) => r.type)).not.toContain('evaa_liquidate');
  });
});
