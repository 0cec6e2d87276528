import type { Slice } from '../boc/slice.js';
import { type CurrencyCollection, loadCurrencyCollection } from './CurrencyCollection.js';
import { keyToInt, keyToNumber, walkHashmapE } from './Hashmap.js';

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
