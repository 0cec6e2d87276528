import { Address, beginCell } from '@ton/core';
import { expect, it } from 'vitest';
import { assembleTrace } from '../../../test/helpers/assembled-trace.js';
import { actionDetails } from './api.js';
import { createClassifier } from './index.js';
import type { AccountInterfaces } from './interfaces.js';
import { rowToJson } from './row.js';

/*
 * coffee_mev_protect_failed_swap on an assembled trace (no such case in the action corpus; swap.coffee's MEV
 * protector is not among the fixtures to run on the devnet): the MEV protector sends the user's TON back with
 * `mev_protect_failed_swap#ee51ce51 query_id:uint64 recipient:MsgAddressInt` (swap.coffee TL-B). TON Center builds
 * the block but stores only the generic columns for the type (its serializer has no case for it, actions.md), and
 * the API has no details shape for it.
 */

const MEV = '0:' + '6E'.repeat(32);
const USER = '0:' + '75'.repeat(32);

it('a failed swap returned by the MEV protector: one coffee_mev_protect_failed_swap row with the generic columns only', () => {
  const failed = beginCell().storeUint(0xee51ce51, 32).storeUint(99n, 64).storeAddress(Address.parseRaw(USER)).endCell();
  const trace = assembleTrace({ from: null, to: MEV, body: beginCell().storeUint(0x11223344, 32).endCell(), children: [{ from: MEV, to: USER, body: failed, value: 3_000_000_000n }] }, 'mev-failed');
  const rows = createClassifier(() => undefined).classify(trace);
  const top = rows.filter((r) => r.parent_action_id === null);
  expect(top.map((r) => r.type)).toEqual(['coffee_mev_protect_failed_swap']);
  const r = rowToJson(top[0]!) as Record<string, any>;
  expect(r).toMatchObject({ success: true, source: null, destination: null, asset: null, amount: null, value: null });
  // The transaction that took the refund is among the action's.
  expect(r.tx_hashes).toContain(trace.transactions.find((t) => t.account === USER)!.hash);
  expect(Object.keys(r).filter((k) => k.endsWith('_data'))).toEqual([]);
  expect(actionDetails(r as never)).toBeNull();
});

it('a failed swap refunded in jettons (the message as the transfer payload): the jetton transfer folded into it', () => {
  const MEV_WALLET = '0:' + '6F'.repeat(32);
  const USER_WALLET = '0:' + '76'.repeat(32);
  const JETTON = '0:' + '77'.repeat(32);
  const interfaces = new Map<string, AccountInterfaces>([
    [MEV_WALLET, { jettonWallet: { address: MEV_WALLET, owner: MEV, jetton: JETTON } }],
    [USER_WALLET, { jettonWallet: { address: USER_WALLET, owner: USER, jetton: JETTON } }],
  ]);
  const payload = beginCell().storeUint(0xee51ce51, 32).storeUint(99n, 64).storeAddress(Address.parseRaw(USER)).endCell();
  const amount = 12_345n;
  const transfer = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(1n, 64).storeCoins(amount).storeAddress(Address.parseRaw(USER)).storeAddress(Address.parseRaw(MEV)).storeMaybeRef(null).storeCoins(1n).storeBit(1).storeRef(payload).endCell();
  const internal = beginCell().storeUint(0x178d4519, 32).storeUint(1n, 64).storeCoins(amount).storeAddress(Address.parseRaw(MEV)).storeAddress(Address.parseRaw(MEV)).storeCoins(1n).storeBit(1).storeRef(payload).endCell();
  const notify = beginCell().storeUint(0x7362d09c, 32).storeUint(1n, 64).storeCoins(amount).storeAddress(Address.parseRaw(MEV)).storeBit(1).storeRef(payload).endCell();
  const trace = assembleTrace(
    {
      from: null,
      to: MEV,
      body: beginCell().storeUint(0x11223344, 32).endCell(),
      children: [{ from: MEV, to: MEV_WALLET, body: transfer, children: [{ from: MEV_WALLET, to: USER_WALLET, body: internal, children: [{ from: USER_WALLET, to: USER, body: notify }] }] }],
    },
    'mev-failed-jetton',
  );
  const rows = createClassifier((a) => interfaces.get(a)).classify(trace);
  const top = rows.filter((r) => r.parent_action_id === null);
  expect(top.map((r) => r.type)).toEqual(['coffee_mev_protect_failed_swap']);
  expect(rowToJson(top[0]!)).toMatchObject({ success: true, source: null, destination: null, asset: null, amount: null });
  // The jetton transfer it was built from is its child row.
  expect(rows.filter((r) => r.parent_action_id === top[0]!.action_id).map((r) => r.type)).toContain('jetton_transfer');
});

it('another opcode from the MEV protector is no failed swap', () => {
  const other = beginCell().storeUint(0xee51ce52, 32).storeUint(99n, 64).storeAddress(Address.parseRaw(USER)).endCell();
  const rows = createClassifier(() => undefined).classify(assembleTrace({ from: null, to: MEV, body: beginCell().storeUint(0x11223344, 32).endCell(), children: [{ from: MEV, to: USER, body: other }] }, 'mev-other'));
  expect(rows.map((r) => r.type)).not.toContain('coffee_mev_protect_failed_swap');
});
