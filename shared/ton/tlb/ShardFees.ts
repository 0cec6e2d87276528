import type { Slice } from '../boc/slice.js';
import type { TlbBuilder } from './builder.js';
import { type CurrencyCollection, addCurrencyCollections, grams, loadCurrencyCollection, storeCurrencyCollection } from './CurrencyCollection.js';
import { type HashmapEntry, keyConcat, keyFromInt, keyToInt, keyToNumber, storeHashmapAugE, walkHashmapE } from './Hashmap.js';

/** `_ fees:CurrencyCollection create:CurrencyCollection = ShardFeeCreated` (block.tlb). */
export interface ShardFeeCreated {
  fees: CurrencyCollection;
  create: CurrencyCollection;
}

/** One entry of ShardFees: the 96-bit key is workchain (int32) then shard id (uint64). */
export interface ShardFee extends ShardFeeCreated {
  workchain: number;
  shard: bigint;
}

export function loadShardFeeCreated(s: Slice): ShardFeeCreated {
  return { fees: loadCurrencyCollection(s), create: loadCurrencyCollection(s) };
}

/**
 * `_ (HashmapAugE 96 ShardFeeCreated ShardFeeCreated) = ShardFees`: the entries in key order and the total
 * (the augmentation of the root, present even when the map is empty).
 */
export function loadShardFees(s: Slice): { entries: ShardFee[]; total: ShardFeeCreated } {
  const entries: ShardFee[] = [];
  walkHashmapE(
    s,
    96,
    (v, key) => {
      const shard = BigInt(keyToNumber(key, 32, 64)) * 4294967296n + BigInt(keyToNumber(key, 64, 96));
      entries.push({ workchain: keyToInt(key, 0, 32), shard, ...loadShardFeeCreated(v) });
    },
    (v) => {
      loadShardFeeCreated(v);
    },
  );
  return { entries, total: loadShardFeeCreated(s) };
}

export function storeShardFeeCreated<C>(f: ShardFeeCreated, b: TlbBuilder<C>): void {
  storeCurrencyCollection(f.fees, b);
  storeCurrencyCollection(f.create, b);
}

/** Writes ShardFees (augmentation: the sum of both collections); returns the total. */
export function storeShardFees<C>(fees: ReadonlyArray<ShardFee>, b: TlbBuilder<C>): ShardFeeCreated {
  const entries: Array<HashmapEntry<ShardFeeCreated>> = fees
    .map((f) => ({ key: keyConcat([[keyFromInt(f.workchain, 32), 32], [keyFromInt(f.shard, 64), 64]]), value: { fees: f.fees, create: f.create } }))
    .sort((x, y) => Buffer.compare(Buffer.from(x.key), Buffer.from(y.key)));
  return storeHashmapAugE(b, entries, 96, storeShardFeeCreated, {
    leaf: (v) => v,
    fork: (l, r) => ({ fees: addCurrencyCollections(l.fees, r.fees), create: addCurrencyCollections(l.create, r.create) }),
    empty: { fees: grams(0n), create: grams(0n) },
    store: storeShardFeeCreated,
  });
}
