import type { Slice } from '../boc/slice.js';

/**
 * Getgems fixed-price sale messages (getgems-io/nft-contracts `sources/nft-fixprice-sale-v3r3.fc`, 7f2cf76e):
 * `cancel#00000003 query_id:uint64` (from the owner or the marketplace: the NFT goes back to the owner) and the
 * owner's price change `0x6c6c2080 query_id:uint64 full_price:Coins marketplace_fee:Coins royalty_amount:Coins`
 * (TON Center `SaleUpdateMessage`).
 */
export const NFT_SALE_CANCEL = 0x3;
export const NFT_SALE_UPDATE = 0x6c6c2080;

export interface NftSaleUpdate {
  queryId: bigint;
  fullPrice: bigint;
  marketplaceFee: bigint;
  royaltyAmount: bigint;
}

export function loadNftSaleUpdate(s: Slice): NftSaleUpdate {
  s.loadUint(32);
  return { queryId: s.loadUintBig(64), fullPrice: s.loadCoins(), marketplaceFee: s.loadCoins(), royaltyAmount: s.loadCoins() };
}
