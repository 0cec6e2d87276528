import { Address, beginCell } from '@ton/core';
import { expect, it } from 'vitest';
import { bodySlice } from './cell.js';
import { loadCoffeeMevFailedSwap } from './Coffee.js';

/* swap.coffee's `mev_protect_failed_swap#ee51ce51 query_id:uint64 recipient:MsgAddressInt`, written with @ton/core. */

it('mev_protect_failed_swap: query id and recipient; another opcode is refused', () => {
  const recipient = Address.parseRaw('0:' + '5a'.repeat(32));
  const body = beginCell().storeUint(0xee51ce51, 32).storeUint(0xabcdef0123n, 64).storeAddress(recipient).endCell();
  expect(loadCoffeeMevFailedSwap(bodySlice(body.toBoc().toString('base64')))).toEqual({ queryId: 0xabcdef0123n, recipient: '0:' + '5A'.repeat(32) });
  const other = beginCell().storeUint(0x6bc79e7e, 32).storeUint(1n, 64).storeAddress(recipient).endCell();
  expect(() => loadCoffeeMevFailedSwap(bodySlice(other.toBoc().toString('base64')))).toThrow();
});
