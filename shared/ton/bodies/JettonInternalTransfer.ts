import type { Slice } from '../boc/slice.js';
import { loadAddr } from './cell.js';

/**
 * TEP-74 `internal_transfer#178d4519 query_id:uint64 amount:(VarUInteger 16) from:MsgAddress
 * response_address:MsgAddress forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)`.
 */
export const JETTON_INTERNAL_TRANSFER = 0x178d4519;

export interface JettonInternalTransfer {
  queryId: bigint;
  amount: bigint;
  from: string | null;
  response: string | null;
  forwardAmount: bigint;
}

export function loadJettonInternalTransfer(s: Slice): JettonInternalTransfer {
  s.loadUint(32);
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), from: loadAddr(s), response: loadAddr(s), forwardAmount: s.loadCoins() };
}
