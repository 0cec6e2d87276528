import type { Slice } from '../boc/slice.js';
import { loadAddr, loadEitherSlice } from './cell.js';

/**
 * TEP-74 `transfer_notification#7362d09c query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
 * forward_payload:(Either Cell ^Cell)`.
 */
export const JETTON_NOTIFY = 0x7362d09c;

export interface JettonNotify {
  queryId: bigint;
  amount: bigint;
  sender: string | null;
  forwardPayload: Slice | null;
}

export function loadJettonNotify(s: Slice): JettonNotify {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const sender = loadAddr(s);
  let forwardPayload: Slice | null = null;
  try {
    forwardPayload = loadEitherSlice(s);
  } catch {
    forwardPayload = null;
  }
  return { queryId, amount, sender, forwardPayload };
}
