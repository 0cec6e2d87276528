import type { Slice } from '../boc/slice.js';
import { loadAddr, refSlice } from './cell.js';

/**
 * Jetton minter mint messages: the reference minter's `mint#642b7d07 query_id:uint64 to_address:MsgAddressInt
 * ton_amount:Coins master_msg:^Cell`, and the older `mint#00000015` (same fields), whose master_msg is an
 * internal_transfer whose amount the classifier reports when no internal_transfer followed.
 */
export const JETTON_MINT = 0x642b7d07;
export const MINTER_JETTON_MINT = 0x00000015;

export interface JettonMint {
  queryId: bigint;
  to: string | null;
  tonAmount: bigint;
  /** The jetton amount of master_msg (mint#00000015 only). */
  masterAmount: bigint | null;
}

export function loadJettonMint(s: Slice): JettonMint {
  const op = s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const to = loadAddr(s);
  const tonAmount = s.loadCoins();
  let masterAmount: bigint | null = null;
  if (op === MINTER_JETTON_MINT) {
    const m = refSlice(s, s.loadRef());
    m.loadUint(32);
    m.loadUintBig(64);
    masterAmount = m.loadCoins();
  }
  return { queryId, to, tonAmount, masterAmount };
}
