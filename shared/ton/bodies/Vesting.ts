import type { Slice } from '../boc/slice.js';
import { loadAddr, refSlice } from './cell.js';

/**
 * Vesting wallet (ton-blockchain vesting-contract): owner → vesting `send_message#a7733acd query_id:uint64 mode:uint8
 * message:^MessageRelaxed` (answered by `#f7733acd`) and creator → vesting `add_whitelist#7258a69b query_id:uint64
 * addresses:(snake of MsgAddress, one per cell, linked by the first reference)` (answered by `#f258a69b`).
 */
export const VESTING_SEND_MESSAGE = 0xa7733acd;
export const VESTING_SEND_MESSAGE_RESPONSE = 0xf7733acd;
export const VESTING_ADD_WHITELIST = 0x7258a69b;
export const VESTING_ADD_WHITELIST_RESPONSE = 0xf258a69b;

export function loadVestingSendMessage(s: Slice): { queryId: bigint; mode: number; message: number; destination: string | null; value: bigint } {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const mode = s.loadUint(8);
  const message = s.loadRef();
  const m = refSlice(s, message);
  if (m.loadBit()) throw new Error('vesting message is not internal');
  m.loadBit();
  m.loadBit();
  m.loadBit();
  loadAddr(m);
  const destination = loadAddr(m);
  return { queryId, mode, message, destination, value: m.loadCoins() };
}

export function loadVestingAddWhitelist(s: Slice): { queryId: bigint; addresses: (string | null)[] } {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const addresses: (string | null)[] = [];
  let cur = s;
  for (let guard = 0; cur.remainingRefs > 0 && guard < 1024; guard++) {
    addresses.push(loadAddr(cur));
    cur = refSlice(cur, cur.loadRef());
  }
  addresses.push(loadAddr(cur));
  return { queryId, addresses };
}
