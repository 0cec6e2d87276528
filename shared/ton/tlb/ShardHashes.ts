import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { keyToInt, walkHashmapE } from './Hashmap.js';
import { type ShardDescr, loadShardDescr } from './ShardDescr.js';
import type { TlbBuilder } from './builder.js';
import { keyFromInt, storeHashmapE } from './Hashmap.js';
import { storeShardDescr } from './ShardDescr.js';

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

/**
 * Writes `_ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes`: per workchain, the shard tree whose leaves are the
 * given shards (each workchain's shards must cover it exactly, as a split tree does).
 */
export function storeShardHashes<C>(hashes: ReadonlyArray<ShardHash>, b: TlbBuilder<C>): void {
  const byWorkchain = new Map<number, ShardHash[]>();
  for (const h of hashes) byWorkchain.set(h.workchain, [...(byWorkchain.get(h.workchain) ?? []), h]);
  // Keys are int32: sort by their two's complement bits, which is how the dictionary orders them.
  const entries = [...byWorkchain.entries()]
    .map(([wc, list]) => ({ key: keyFromInt(wc, 32), value: list }))
    .sort((x, y) => Buffer.compare(Buffer.from(x.key), Buffer.from(y.key)));
  storeHashmapE(b, entries, 32, (list, vb) => {
    const tree = vb.child();
    storeBinTree(list, 0n, 0, tree);
    vb.storeRef(tree.endCell());
  });
}

function storeBinTree<C>(list: ReadonlyArray<ShardHash>, prefix: bigint, depth: number, b: TlbBuilder<C>): void {
  const tag = 1n << BigInt(63 - depth);
  const leaf = list.find((h) => h.shard === (prefix | tag));
  if (leaf) {
    b.storeBit(0);
    storeShardDescr(leaf.descr, b);
    return;
  }
  if (depth >= 60) throw new RangeError('ShardHashes: shards do not cover the workchain');
  b.storeBit(1);
  for (const half of [prefix, prefix | tag]) {
    const c = b.child();
    storeBinTree(list, half, depth + 1, c);
    b.storeRef(c.endCell());
  }
}
