import { Address, type Cell, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { TONCO_POOL_SWAP, toncoSwapTargets } from './ToncoPool.js';
import { bodySlice } from './cell.js';

/**
 * The swap request a TONCO user puts in the transfer's forward payload, built with @ton/core from the layout the
 * TONCO SDK writes (`POOLV3_SWAP#a7fb58f8 target_router_wallet:MsgAddress price_limit:uint160 min_out:Coins
 * recipient:MsgAddress payload:(Maybe ^Cell)`, a multi-hop request nesting the next hop's request in `payload`).
 */
const slice = (c: Cell) => bodySlice(c.toBoc().toString('base64'));
const W1 = Address.parse('0:' + 'a1'.repeat(32));
const W2 = Address.parse('0:' + 'b2'.repeat(32));
const RECIPIENT = Address.parse('0:' + 'c3'.repeat(32));

function hop(target: Address, minOut: bigint, next: Cell | null): Cell {
  return beginCell().storeUint(TONCO_POOL_SWAP, 32).storeAddress(target).storeUint(0, 160).storeCoins(minOut).storeAddress(RECIPIENT).storeMaybeRef(next).endCell();
}

describe('TONCO swap payload targets', () => {
  it('lists every hop, outermost first', () => {
    expect(toncoSwapTargets(slice(hop(W1, 10n, hop(W2, 20n, null))))).toEqual([
      [W1.toRawString().toUpperCase(), 10n],
      [W2.toRawString().toUpperCase(), 20n],
    ]);
  });

  it('keeps the hops read before a nested request that does not parse', () => {
    // The inner request carries the swap opcode but stops after its target: the outer hop still counts.
    const truncated = beginCell().storeUint(TONCO_POOL_SWAP, 32).storeAddress(W2).endCell();
    expect(toncoSwapTargets(slice(hop(W1, 10n, truncated)))).toEqual([[W1.toRawString().toUpperCase(), 10n]]);
  });

  it('a nested payload of another kind ends the list', () => {
    expect(toncoSwapTargets(slice(hop(W1, 10n, beginCell().storeUint(0x12345678, 32).endCell())))).toEqual([[W1.toRawString().toUpperCase(), 10n]]);
  });

  it('an outermost request that does not parse is an error', () => {
    expect(() => toncoSwapTargets(slice(beginCell().storeUint(TONCO_POOL_SWAP, 32).storeAddress(W1).endCell()))).toThrow();
  });
});
