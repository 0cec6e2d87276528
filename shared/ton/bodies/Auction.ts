import type { Slice } from '../boc/slice.js';
import { loadAddr, refSlice } from './cell.js';

/**
 * Auction message bodies (TON Center `messages/nft.py`):
 *  - Telegram items (Fragment, telemint `nft-item`): `teleitem_start_auction#487a8e81 query_id:uint64
 *    auction_config:^TeleitemAuctionConfig` with `beneficiary_address:MsgAddressInt initial_min_bid:Grams
 *    max_bid:Grams min_bid_step:uint8 min_extend_time:uint32 duration:uint32`; `teleitem_cancel_auction#371638ae
 *    query_id:uint64`; the item's answer `teleitem_ok#a37a0983 query_id:uint64`;
 *  - TON DNS items (dns-contract `nft-item.fc`): the winning bid paid to the collection when an auction ends,
 *    `op::fill_up#370fec51 query_id:uint64`, and `op::dns_balance_release#4ed14b65 query_id:uint64`; the query id is
 *    optional in both as TON Center reads them (absent when fewer than 64 bits follow the opcode);
 *  - getgems auctions take text commands (`cancel`, `stop`, `finish`) or these opcodes instead.
 */
export const TELEITEM_START_AUCTION = 0x487a8e81;
export const TELEITEM_CANCEL_AUCTION = 0x371638ae;
export const TELEITEM_OK = 0xa37a0983;
export const AUCTION_FILL_UP = 0x370fec51;
export const DNS_RELEASE_BALANCE = 0x4ed14b65;
/** Opcodes TON Center takes as a getgems auction's `cancel`, `finish` and `stop` commands. */
export const AUCTION_CANCEL_OP = 0x5616c572;
export const AUCTION_FINISH_OPS: readonly number[] = [0x20c9eb18, 0xb95616b6];

export interface TeleitemStartAuction {
  queryId: bigint;
  beneficiary: string | null;
  initialMinBid: bigint;
  maxBid: bigint;
  minBidStep: number;
  minExtendTime: number;
  duration: number;
}

export function loadTeleitemStartAuction(s: Slice): TeleitemStartAuction {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const c = refSlice(s, s.loadRef());
  try {
    return {
      queryId,
      beneficiary: loadAddr(c),
      initialMinBid: c.loadCoins(),
      maxBid: c.loadCoins(),
      minBidStep: c.loadUint(8),
      minExtendTime: c.loadUint(32),
      duration: c.loadUint(32),
    };
  } catch {
    // TON Center keeps the action with an empty configuration when the config cell does not parse.
    return { queryId, beneficiary: null, initialMinBid: 0n, maxBid: 0n, minBidStep: 0, minExtendTime: 0, duration: 0 };
  }
}

/** `query_id` of a fill-up or balance-release body, null when the body ends after its opcode. */
export function loadOptionalQueryId(s: Slice): bigint | null {
  s.loadUint(32);
  return s.remainingBits >= 64 ? s.loadUintBig(64) : null;
}
