import type { Boc } from '../boc/reader.js';
import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import type { TlbBuilder } from './builder.js';

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

/**
 * Writes the data of `!merkle_update#04` into `b` (end it with `endCell({ exotic: true })`). The stored hashes and
 * depths are the level-0 ones of each side, i.e. those of the full states the sides stand for.
 */
export function storeMerkleUpdate<C>(
  u: { oldHash: Uint8Array; newHash: Uint8Array; oldDepth: number; newDepth: number; old: C; new: C },
  b: TlbBuilder<C>,
): void {
  b.storeUint(4, 8);
  b.storeBytes(u.oldHash);
  b.storeBytes(u.newHash);
  b.storeUint(u.oldDepth, 16);
  b.storeUint(u.newDepth, 16);
  b.storeRef(u.old);
  b.storeRef(u.new);
}

/**
 * Writes the data of a level-1 pruned branch (tvm.pdf §3.1.7: type 1, level mask 1, the pruned cell's hash and
 * depth) into `b`; end it with `endCell({ exotic: true })`. This is what stands for an untouched subtree on either
 * side of a Merkle update.
 */
export function storePrunedBranch<C>(hash: Uint8Array, depth: number, b: TlbBuilder<C>): void {
  b.storeUint(1, 8);
  b.storeUint(1, 8);
  b.storeBytes(hash);
  b.storeUint(depth, 16);
}
