import type { Slice } from '../boc/slice.js';
import type { TlbBuilder } from './builder.js';

/** `ext_blk_ref$_ end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256 = ExtBlkRef` (block.tlb). */
export interface ExtBlkRef {
  endLt: bigint;
  seqno: number;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
}

export function loadExtBlkRef(s: Slice): ExtBlkRef {
  return { endLt: s.loadUintBig(64), seqno: s.loadUint(32), rootHash: s.loadBytes(32), fileHash: s.loadBytes(32) };
}

export function storeExtBlkRef<C>(r: ExtBlkRef, b: TlbBuilder<C>): void {
  b.storeUint(r.endLt, 64);
  b.storeUint(r.seqno, 32);
  b.storeBytes(r.rootHash);
  b.storeBytes(r.fileHash);
}
