import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { keyToInt, walkHashmapE } from './Hashmap.js';
import { type ShardDescr, loadShardDescr } from './ShardDescr.js';

/** One leaf of `_ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes`, with its shard id derived from the tree path. */
export interface ShardHash {
  workchain: number;
  /** 64-bit shard id with tag bit (e.g. 0x8000000000000000 for an unsplit workchain). */
  shard: bigint;
  descr: ShardDescr;
}

/**
 * Reads ShardHashes from `s` (which it advances past the HashmapE). The BinTree path gives the shard:
 * `bt_leaf$0 leaf:X` / `bt_fork$1 left:^(BinTree X) right:^(BinTree X)`, left = prefix bit 0.
 */
export function loadShardHashes(s: Slice): ShardHash[] {
  const out: ShardHash[] = [];
  walkHashmapE(s, 32, (v, key) => {
    const workchain = keyToInt(key);
    walkBinTree(new Slice(v.boc, v.loadRef()), 0n, 0, workchain, out);
  });
  return out;
}

function walkBinTree(s: Slice, prefix: bigint, depth: number, workchain: number, out: ShardHash[]): void {
  if (!s.loadBit()) {
    const shard = prefix | (1n << BigInt(63 - depth));
    out.push({ workchain, shard, descr: loadShardDescr(s) });
    return;
  }
  if (depth >= 60) throw tlbError('TLB_INVALID', 'BinTree', 'shard tree deeper than 60 levels');
  const left = s.loadRef();
  const right = s.loadRef();
  walkBinTree(new Slice(s.boc, left), prefix, depth + 1, workchain, out);
  walkBinTree(new Slice(s.boc, right), prefix | (1n << BigInt(63 - depth)), depth + 1, workchain, out);
}
