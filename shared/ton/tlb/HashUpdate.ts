import type { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import type { TlbBuilder } from './builder.js';

/** `update_hashes#72 old_hash:bits256 new_hash:bits256 = HASH_UPDATE X` (block.tlb). */
export interface HashUpdate {
  oldHash: Uint8Array;
  newHash: Uint8Array;
}

export function loadHashUpdate(s: Slice): HashUpdate {
  const tag = s.loadUint(8);
  if (tag !== 0x72) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'HASH_UPDATE', `tag #${tag.toString(16)}`);
  return { oldHash: s.loadBytes(32), newHash: s.loadBytes(32) };
}

export function storeHashUpdate<C>(u: HashUpdate, b: TlbBuilder<C>): void {
  b.storeUint(0x72, 8);
  b.storeBytes(u.oldHash);
  b.storeBytes(u.newHash);
}
