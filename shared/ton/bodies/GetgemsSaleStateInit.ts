import type { GetgemsSaleVersion } from '../actions/interfaces.js';
import { loadStateInit } from '../tlb/StateInit.js';
import { bodySlice, loadAddr, refSlice } from './cell.js';

/**
 * The listing a getgems fixed-price sale is deployed with: its StateInit's data, read as TON Center's
 * `get_sale_data` (`messages/getgems.py`) reads a sale's state init for `nft_put_on_sale`. Layouts as in
 * shared/ton/interfaces/getgems-sale.ts (getgems-io/nft-contracts `sources/nft-fixprice-sale-*.fc`): v2…v3r3
 * `is_complete created_at marketplace nft owner full_price ^[fee_address fee royalty_address royalty]`; v4r1
 * `is_complete marketplace owner full_price sold_at query_id ^[fee_address royalty_address fee_percent
 * royalty_percent …]`, whose fee and royalty are percentages: no amounts; v1 (`nft-fixprice-sale.fc`) `marketplace nft
 * owner full_price ^[fee:Coins fee_address royalty_address royalty:Coins]`, without the flag and creation time.
 * Addresses that are not standard are null.
 */
export interface GetgemsSaleListing {
  marketplace: string | null;
  fullPrice: bigint | null;
  marketplaceFeeAddress: string | null;
  marketplaceFee: bigint | null;
  royaltyAddress: string | null;
  royaltyAmount: bigint | null;
}

/** TON Center's `SALE_VERSION_MAPPING` (`messages/getgems.py`), by code hash in hex. */
const SALE_VERSIONS: ReadonlyMap<string, GetgemsSaleVersion> = new Map([
  ['da9b9fce22e87c496572d20365259579bccef91a720357ccbe8c052efc9be08f', 'v1'],
  ['8278f4c5233de6fbedc969af519344a7a9bffc544856dba986a95c0bcf8571c9', 'v2'],
  ['32050dfac44f64866bcc86f2cd9e1305fe9dcadb3959c002237cfb0902d44323', 'v3'],
  ['deb53b6c5765c1e6cd238bf47bc5e83ba596bdcc04b0b84cd50ab1e474a08f31', 'v3r2'],
  ['24221fa571e542e055c77bedfdbf527c7af460cfdc7f344c450787b4cfa1eb4d', 'v3r3'],
  ['6b95a6418b9c9d2359045d1e7559b8d549ae0e506f24caab58fa30c8fb1feb86', 'v4r1'],
]);

/**
 * The layout TON Center reads a sale's listing in, from the sale's code hash (base64, as its interface records hold
 * it, or hex): an unknown hash is read as the latest version, v4r1.
 */
export function saleListingVersion(codeHash: string): GetgemsSaleVersion {
  const hex = /^[0-9a-fA-F]{64}$/.test(codeHash) ? codeHash.toLowerCase() : Buffer.from(codeHash, 'base64').toString('hex');
  return SALE_VERSIONS.get(hex) ?? 'v4r1';
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
  if (version === 'v1') {
    const marketplace = loadAddr(s);
    loadAddr(s);
    loadAddr(s);
    const fullPrice = s.loadCoins();
    const f = refSlice(s, s.loadRef());
    const marketplaceFee = f.loadCoins();
    const marketplaceFeeAddress = loadAddr(f);
    const royaltyAddress = loadAddr(f);
    const royaltyAmount = f.loadCoins();
    return { marketplace, fullPrice, marketplaceFeeAddress, marketplaceFee, royaltyAddress, royaltyAmount };
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
