import type { Slice } from '../boc/slice.js';
import { loadAddr, refSlice, sliceToBocBase64 } from './cell.js';

/**
 * TEP-62 `ownership_assigned#05138d91 query_id:uint64 prev_owner:MsgAddress forward_payload:(Either Cell ^Cell)`.
 * A Telegram item (Fragment) sold at auction carries `teleitem_bid_info#38127de1 bid:Grams bid_ts:uint32` as
 * its payload.
 */
export const NFT_OWNERSHIP_ASSIGNED = 0x05138d91;
export const TELEITEM_BID_INFO = 0x38127de1;

export interface NftOwnershipAssigned {
  queryId: bigint;
  prevOwner: string | null;
  /** The payload BOC, or null when it could not be read. */
  payload: string | null;
  bid: { amount: bigint; ts: number } | null;
}

export function loadNftOwnershipAssigned(s: Slice): NftOwnershipAssigned {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const prevOwner = loadAddr(s);
  let payload: string | null = null;
  let bid: NftOwnershipAssigned['bid'] = null;
  try {
    const p = s.loadBit() ? refSlice(s, s.loadRef()) : s.clone();
    payload = sliceToBocBase64(p);
    if (p.remainingBits >= 32 && p.loadUint(32) === TELEITEM_BID_INFO) bid = { amount: p.loadCoins(), ts: p.loadUint(32) };
  } catch {
    // Payload unreadable: kept as what was read.
  }
  return { queryId, prevOwner, payload, bid };
}
