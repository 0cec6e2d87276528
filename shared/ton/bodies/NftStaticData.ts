import type { Slice } from '../boc/slice.js';
import { loadAddr } from './cell.js';

/** TEP-62 `get_static_data#2fcb26a2 query_id:uint64` and its answer `report_static_data#8b771735 query_id:uint64 index:uint256 collection:MsgAddress`. */
export const NFT_GET_STATIC_DATA = 0x2fcb26a2;
export const NFT_REPORT_STATIC_DATA = 0x8b771735;

export interface NftReportStaticData {
  queryId: bigint;
  index: bigint;
  collection: string | null;
}

export function loadNftReportStaticData(s: Slice): NftReportStaticData {
  s.loadUint(32);
  return { queryId: s.loadUintBig(64), index: s.loadUintBig(256), collection: loadAddr(s) };
}
