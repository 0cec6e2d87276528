import type { GetgemsSaleVersion, NftSaleInfo } from '../actions/interfaces.js';
import type { Slice } from '../boc/slice.js';
import { bodySlice, loadAddr, refSlice } from '../bodies/cell.js';
import { normaliseCodeHash } from './repository.js';

/**
 * Getgems fixed-price sales (kind `nft_sale` in code-hashes.ts) read from their data cell, giving what TON Center's
 * detector stores for them (`getgems_nft_sales`): it runs `get_sale_data` (v2…v3r3) or `get_fix_price_data_v4`
 * (v4r1) and keeps the answer only when the marketplace, the NFT, the fee and the royalty addresses are standard
 * addresses (the owner may be addr_none before the NFT arrives). For v4r1 the "fee" and "royalty amount" it stores
 * are the percentages (× 100,000) that method returns.
 *
 * Storage layouts, from getgems-io/nft-contracts `packages/contracts/sources/` at 7f2cf76e (the `load_data` /
 * `load_fees` / `load_static_data` of each file):
 *  - nft-fixprice-sale-v2.fc: `is_complete:uint1 created_at:uint32 marketplace:MsgAddress nft:MsgAddress
 *    owner:MsgAddress full_price:Coins fees:^[fee_address:MsgAddress fee:Coins royalty_address:MsgAddress
 *    royalty:Coins]`;
 *  - nft-fixprice-sale-v3.fc, -v3r2.fc: the same, then `can_deploy_by_external:uint1`;
 *  - nft-fixprice-sale-v3r3.fc: the v2 fields, then `sold_at:uint32 query_id:uint64`;
 *  - nft-fixprice-sale-v4r1.fc: `is_complete:uint1 marketplace:MsgAddress owner:MsgAddress full_price:Coins
 *    sold_at:uint32 query_id:uint64 static:^[fee_address:MsgAddress royalty_address:MsgAddress fee_percent:uint17
 *    royalty_percent:uint17 nft:MsgAddress created_at:uint32] jetton_prices:(HashmapE 256 Coins)`.
 * Each version's get-method loads every one of its fields, so data missing one of them is no sale of that version.
 */

/** Versions by code hash (hex), as TON Center names them (`SALE_VERSION_MAPPING`); hashes in code-hashes.ts. */
const VERSIONS: ReadonlyMap<string, GetgemsSaleVersion> = new Map([
  ['8278f4c5233de6fbedc969af519344a7a9bffc544856dba986a95c0bcf8571c9', 'v2'],
  ['32050dfac44f64866bcc86f2cd9e1305fe9dcadb3959c002237cfb0902d44323', 'v3'],
  ['deb53b6c5765c1e6cd238bf47bc5e83ba596bdcc04b0b84cd50ab1e474a08f31', 'v3r2'],
  ['24221fa571e542e055c77bedfdbf527c7af460cfdc7f344c450787b4cfa1eb4d', 'v3r3'],
  ['6b95a6418b9c9d2359045d1e7559b8d549ae0e506f24caab58fa30c8fb1feb86', 'v4r1'],
]);

/** The getgems fixed-price sale version of a code hash (any encoding code-hashes reads), or null. */
export function getgemsSaleVersion(codeHash: string | null): GetgemsSaleVersion | null {
  if (!codeHash) return null;
  const hex = normaliseCodeHash(codeHash);
  return hex === null ? null : (VERSIONS.get(hex) ?? null);
}

/** A standard address, or a throw (the detector rejects the sale). */
function stdAddr(s: Slice): string {
  const a = loadAddr(s);
  if (a === null) throw new Error('not a standard address');
  return a;
}

/**
 * The sale facts of an account whose code is a getgems fixed-price sale, from its data (`dataBoc`: the data cell,
 * or only its root's bits: then a v2…v3r3 sale gives its root fields without the fees, and a v4r1 sale, whose NFT
 * is in the referenced cell, nothing). Null when the code is no such sale or the data is not in its layout.
 */
export function getgemsSaleFacts(address: string, codeHash: string | null, dataBoc: string | null): NftSaleInfo | null {
  const version = getgemsSaleVersion(codeHash);
  if (version === null || dataBoc === null) return null;
  try {
    const s = bodySlice(dataBoc);
    return version === 'v4r1' ? readV4(address, s) : readV2V3(address, version, s);
  } catch {
    return null;
  }
}

function readV2V3(address: string, version: GetgemsSaleVersion, s: Slice): NftSaleInfo {
  const isComplete = s.loadUint(1) === 1;
  const createdAt = s.loadUint(32);
  const marketplace = stdAddr(s);
  const nft = stdAddr(s);
  const owner = loadAddr(s);
  const fullPrice = s.loadCoins();
  const hasFees = s.remainingRefs > 0;
  const feesCell = hasFees ? s.loadRef() : -1;
  if (version === 'v3' || version === 'v3r2') s.loadUint(1);
  if (version === 'v3r3') {
    s.loadUint(32);
    s.loadUintBig(64);
  }
  const info: NftSaleInfo = { address, marketplace, nft, owner, fullPrice, version, isComplete, createdAt };
  if (!hasFees) return info;
  const f = refSlice(s, feesCell);
  info.marketplaceFeeAddress = stdAddr(f);
  info.marketplaceFee = f.loadCoins();
  info.royaltyAddress = stdAddr(f);
  info.royaltyAmount = f.loadCoins();
  // v3r3's get_sale_data throws (exit code 409) when the seller would get nothing.
  if (version === 'v3r3' && fullPrice - info.marketplaceFee - info.royaltyAmount < 1n) throw new Error('no profit');
  return info;
}

function readV4(address: string, s: Slice): NftSaleInfo {
  const isComplete = s.loadUint(1) === 1;
  const marketplace = stdAddr(s);
  const owner = loadAddr(s);
  const fullPrice = s.loadCoins();
  s.loadUint(32);
  s.loadUintBig(64);
  const st = refSlice(s, s.loadRef());
  s.loadMaybeRef();
  const marketplaceFeeAddress = stdAddr(st);
  const royaltyAddress = stdAddr(st);
  const marketplaceFee = BigInt(st.loadUint(17));
  const royaltyAmount = BigInt(st.loadUint(17));
  const nft = stdAddr(st);
  const createdAt = st.loadUint(32);
  return { address, marketplace, nft, owner, fullPrice, marketplaceFee, royaltyAmount, marketplaceFeeAddress, royaltyAddress, version: 'v4r1', isComplete, createdAt };
}
