import type { Boc } from '../boc/reader.js';
import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';

/**
 * `!merkle_update#04 old_hash:bits256 new_hash:bits256 old_depth:uint16 new_depth:uint16 old:^X new:^X`
 * (block.tlb). Reading it touches only the exotic cell itself; `old`/`new` are cell indices to walk on demand.
 */
export interface MerkleUpdate {
  cell: number;
  oldHash: Uint8Array;
  newHash: Uint8Array;
  oldDepth: number;
  newDepth: number;
  old: number;
  new: number;
}

export function loadMerkleUpdate(boc: Boc, cell: number): MerkleUpdate {
  if (boc.exoticType(cell) !== 4) throw tlbError('TLB_INVALID', 'MERKLE_UPDATE', `cell ${cell} is not a Merkle update`);
  const s = new Slice(boc, cell);
  s.skip(8);
  return {
    cell,
    oldHash: s.loadBytes(32),
    newHash: s.loadBytes(32),
    oldDepth: s.loadUint(16),
    newDepth: s.loadUint(16),
    old: s.loadRef(),
    new: s.loadRef(),
  };
}
