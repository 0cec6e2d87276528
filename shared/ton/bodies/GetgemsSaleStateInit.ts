import type { GetgemsSaleVersion } from '../actions/interfaces.js';
import { loadStateInit } from '../tlb/StateInit.js';
import { bodySlice, loadAddr, refSlice } from './cell.js';

/**
 * The listing a getgems fixed-price sale is deployed with: its StateInit's data, read as TON Center's
 * `get_sale_data` (`messages/getgems.py`) reads a sale's state init for `nft_put_on_sale`. Layouts as in
 * shared/ton/interfaces/getgems-sale.ts (getgems-io/nft-contracts `sources/nft-fixprice-sale-*.fc`): v2…v3r3
 * `is_complete created_at marketplace nft owner full_price ^[fee_address fee royalty_address royalty]`; v4r1
 * `is_complete marketplace owner full_price sold_at query_id ^[fee_address royalty_address fee_percent
 * royalty_percent …]`, whose fee and royalty are percentages: no amounts. Addresses that are not standard are null.
 */
export interface GetgemsSaleListing {
  marketplace: string | null;
  fullPrice: bigint | null;
  marketplaceFeeAddress: string | null;
  marketplaceFee: bigint | null;
  royaltyAddress: string | null;
  royaltyAmount: bigint | null;
}

/** Throws when the state init has no data or the data is shorter than the layout. */
export function loadGetgemsSaleListing(stateInitBoc: string, version: GetgemsSaleVersion): GetgemsSaleListing {
  const init = bodySlice(stateInitBoc);
  const { data } = loadStateInit(init);
  if (data < 0) throw new Error('state init without data');
  const s = refSlice(init, data);
  if (version === 'v4r1') {
    s.loadUint(1);
    const marketplace = loadAddr(s);
    loadAddr(s);
    const fullPrice = s.loadCoins();
    s.loadUint(32);
    s.loadUintBig(64);
    const st = refSlice(s, s.loadRef());
    const marketplaceFeeAddress = loadAddr(st);
    const royaltyAddress = loadAddr(st);
    st.loadUint(17);
    st.loadUint(17);
    return { marketplace, fullPrice, marketplaceFeeAddress, marketplaceFee: null, royaltyAddress, royaltyAmount: null };
  }
  s.loadUint(1);
  s.loadUint(32);
  const marketplace = loadAddr(s);
  loadAddr(s);
  loadAddr(s);
  const fullPrice = s.loadCoins();
  const f = refSlice(s, s.loadRef());
  const marketplaceFeeAddress = loadAddr(f);
  const marketplaceFee = f.loadCoins();
  const royaltyAddress = loadAddr(f);
  const royaltyAmount = f.loadCoins();
  return { marketplace, fullPrice, marketplaceFeeAddress, marketplaceFee, royaltyAddress, royaltyAmount };
}
