import type { Slice } from '../boc/slice.js';
import { loadAddr, loadMaybeRefSlice, refSlice, sliceToBocBase64 } from './cell.js';

/**
 * TEP-62 `transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress
 * custom_payload:(Maybe ^Cell) forward_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)`.
 * The forward payload is kept as a BOC whenever the Either bit is there, even when the inline cell is empty.
 */
export const NFT_TRANSFER = 0x5fcc3d14;

export interface NftTransfer {
  queryId: bigint;
  newOwner: string | null;
  responseDestination: string | null;
  customPayload: string | null;
  forwardAmount: bigint;
  forwardPayload: string | null;
}

export function loadNftTransfer(s: Slice): NftTransfer {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const newOwner = loadAddr(s);
  const responseDestination = loadAddr(s);
  const custom = loadMaybeRefSlice(s);
  const forwardAmount = s.loadCoins();
  let forwardPayload: string | null = null;
  if (s.remainingBits > 0) {
    const p = s.loadBit() ? refSlice(s, s.loadRef()) : s.clone();
    forwardPayload = sliceToBocBase64(p);
  }
  return { queryId, newOwner, responseDestination, customPayload: custom ? sliceToBocBase64(custom) : null, forwardAmount, forwardPayload };
}
