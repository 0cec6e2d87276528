import type { Slice } from '../boc/slice.js';
import { loadAddr } from './cell.js';

/** TEP-74 `burn#595f07bc query_id:uint64 amount:(VarUInteger 16) response_destination:MsgAddress custom_payload:(Maybe ^Cell)`. */
export const JETTON_BURN = 0x595f07bc;
/** TEP-74 `burn_notification#7bdd97de query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress response_destination:MsgAddress`. */
export const JETTON_BURN_NOTIFICATION = 0x7bdd97de;

export interface JettonBurn {
  queryId: bigint;
  amount: bigint;
  response: string | null;
}

export function loadJettonBurn(s: Slice): JettonBurn {
  s.loadUint(32);
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), response: loadAddr(s) };
}
