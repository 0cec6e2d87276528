import type { NftAuctionInfo } from '../actions/interfaces.js';
import type { Slice } from '../boc/slice.js';
import { bodySlice, loadAddr, refSlice } from '../bodies/cell.js';
import { normaliseCodeHash } from './repository.js';

/**
 * A getgems NFT auction's facts from its data cell: the NFT, its owner, the marketplace, the last bid, and the
 * configuration TON Center's classifier reports when the item is put on auction (fees, bid limits).
 *
 * Layouts, from getgems-io/nft-contracts (packages/contracts/sources, commit 7f2cf76e, the sources of the four
 * fixture codes, MANIFEST.md):
 *  - v2 and v3r2 (`nft-auction-v2/struct/storage.func`, `nft-auction-v3r2/struct/storage.func`, `init_data`):
 *    `end?:int1 activated?:int1 is_canceled?:int1 last_member:MsgAddress last_bid:Coins last_bid_at:uint32
 *    end_time:uint32 nft_owner:MsgAddress ^fees ^constants`;
 *    fees `mp_fee_addr:MsgAddress mp_fee_factor:uint32 mp_fee_base:uint32 royalty_fee_addr:MsgAddress
 *    royalty_fee_factor:uint32 royalty_fee_base:uint32`;
 *    constants `sub_gas_price_from_bid?:int32 mp_addr:MsgAddress min_bid:Coins max_bid:Coins min_step:Coins
 *    step_time:uint32 nft_addr:MsgAddress created_at:uint32`;
 *  - v3r3 (`nft-auction-v3r3/nft-auction-v3r3.func`, `init_data`): `end?:int1 is_canceled?:int1
 *    last_member:MsgAddress last_bid:Coins last_bid_at:uint32 end_time:uint32 nft_owner:MsgAddress
 *    last_query_id:uint64 mp_fee_factor:uint32 mp_fee_base:uint32 royalty_fee_factor:uint32 royalty_fee_base:uint32
 *    ^fees ^constants`; fees `mp_fee_addr:MsgAddress royalty_fee_addr:MsgAddress`;
 *    constants `mp_addr:MsgAddress min_bid:Coins max_bid:Coins min_step:uint7 step_time:uint17 nft_addr:MsgAddress
 *    created_at:uint32`;
 *  - v4r1 (`nft-auction-v4r1.func`, `init_data`): as v3r3 without the four fee fractions in the root (`... nft_owner
 *    last_query_id:uint64 ^fees ^constants jetton:(Maybe ^Cell)`), which move to the fees cell:
 *    `mp_fee_addr royalty_fee_addr mp_fee_factor:uint32 mp_fee_base:uint32 royalty_fee_factor:uint32
 *    royalty_fee_base:uint32`; constants as v3r3.
 * Every field returned is one the contract's own `get_auction_data` returns (auction-facts.test.ts runs it).
 */

export type AuctionLayout = 'v2' | 'v3r2' | 'v3r3' | 'v4r1';

/** Code hash (hex) → layout: the four getgems auction codes of code-hashes.ts (fixtures contracts/getgems_nft_auction_*). */
export const AUCTION_LAYOUTS: ReadonlyMap<string, AuctionLayout> = new Map([
  ['6668872fa79705443ffd47523e8e9ea9f76ab99f9a0b59d27de8f81a1c27b9d4', 'v2'],
  ['1bd9c5a39bffb7a0f341588b5dd92b813a842bf65ef14109382200ceaf8f72df', 'v3r2'],
  ['bb6f62ade0feb2d79fab3b8aebf0930af98553df60093b2027f0a8bf169bfcec', 'v3r3'],
  ['ce5a78534eaaa6ceed8dafd486d076eb60a9b0d6dbfb53676f662649c0689956', 'v4r1'],
]);

export function auctionLayout(codeHash: string | null): AuctionLayout | null {
  const hex = codeHash === null ? null : normaliseCodeHash(codeHash);
  return hex === null ? null : (AUCTION_LAYOUTS.get(hex) ?? null);
}

const u32 = (s: Slice): bigint => BigInt(s.loadUint(32));

/**
 * The auction's facts from its whole data cell (the fields are in its two references), or null when the data is
 * not in the layout of its code (or only the root's bits are known).
 */
export function readNftAuction(address: string, codeHash: string | null, dataBoc: string): NftAuctionInfo | null {
  const layout = auctionLayout(codeHash);
  if (layout === null) return null;
  try {
    const s = bodySlice(dataBoc);
    const v2 = layout === 'v2' || layout === 'v3r2';
    s.skip(v2 ? 3 : 2);
    loadAddr(s); // last_member
    const lastBid = s.loadCoins();
    s.skip(64); // last_bid_at, end_time
    const owner = loadAddr(s);
    let fractions: bigint[] | null = null;
    if (!v2) s.skip(64); // last_query_id
    if (layout === 'v3r3') fractions = [u32(s), u32(s), u32(s), u32(s)];
    const fees = refSlice(s, s.loadRef());
    const constants = refSlice(s, s.loadRef());
    let mpFeeAddress: string | null;
    let royaltyAddress: string | null;
    if (v2) {
      mpFeeAddress = loadAddr(fees);
      const mp = [u32(fees), u32(fees)];
      royaltyAddress = loadAddr(fees);
      fractions = [...mp, u32(fees), u32(fees)];
      constants.skip(32); // sub_gas_price_from_bid
    } else {
      mpFeeAddress = loadAddr(fees);
      royaltyAddress = loadAddr(fees);
      if (layout === 'v4r1') fractions = [u32(fees), u32(fees), u32(fees), u32(fees)];
    }
    const marketplace = loadAddr(constants);
    const minBid = constants.loadCoins();
    const maxBid = constants.loadCoins();
    if (v2) {
      constants.loadCoins(); // min_step
      constants.skip(32); // step_time
    } else constants.skip(7 + 17); // min_step, step_time
    const nft = loadAddr(constants);
    const [mpFeeFactor, mpFeeBase, royaltyFeeFactor, royaltyFeeBase] = fractions!;
    return {
      address,
      marketplace,
      nft,
      owner,
      fullPrice: lastBid,
      marketplaceFeeAddress: mpFeeAddress,
      royaltyAddress,
      version: layout,
      mpFeeFactor,
      mpFeeBase,
      royaltyFeeFactor,
      royaltyFeeBase,
      minBid,
      maxBid,
    };
  } catch {
    return null;
  }
}
