import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { skipCurrencyCollection } from './CurrencyCollection.js';
import { lookupHashmapAugE } from './Hashmap.js';
import { type ShardAccount, loadShardAccount } from './ShardAccount.js';

/**
 * The accounts dictionary of one side of a block's state update: `shard_state#9023afe2 ... accounts:^ShardAccounts`
 * (block.tlb ShardStateUnsplit), or both halves of `split_state#5f327da5 left:^ShardStateUnsplit right:^...`.
 * Only the accounts a block touched are present; everything else is a pruned branch.
 */
export interface ShardStateAccounts {
  /** Cells holding `_ (HashmapAugE 256 ShardAccount DepthBalanceInfo) = ShardAccounts`, one per unsplit state. */
  roots: number[];
}

export function loadShardStateAccounts(s: Slice): ShardStateAccounts | null {
  // A pruned side, or a reduced BOC whose update does not hold a state at all, has no accounts to offer.
  if (s.boc.isExotic(s.cell) || s.remainingBits < 32) return null;
  const tag = s.loadUint(32);
  if (tag === 0x5f327da5) {
    const left = loadShardStateAccounts(new Slice(s.boc, s.loadRef()));
    const right = loadShardStateAccounts(new Slice(s.boc, s.loadRef()));
    return { roots: [...(left?.roots ?? []), ...(right?.roots ?? [])] };
  }
  if (tag !== 0x9023afe2) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'ShardState', `tag #${tag.toString(16).padStart(8, '0')}`);
  s.loadRef();
  return { roots: [s.loadRef()] };
}

/** `depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection = DepthBalanceInfo`. */
function skipDepthBalanceInfo(s: Slice): void {
  s.skip(5);
  skipCurrencyCollection(s);
}

/** The ShardAccount of `address`, or null when it is absent or pruned away on this side of the update. */
export function findShardAccount(state: ShardStateAccounts, boc: Slice['boc'], address: Uint8Array): ShardAccount | null {
  for (const root of state.roots) {
    if (boc.isExotic(root)) continue;
    const v = lookupHashmapAugE(new Slice(boc, root), 256, address, skipDepthBalanceInfo);
    if (v && !boc.isExotic(boc.ref(v.cell, v.refPos))) return loadShardAccount(v);
  }
  return null;
}
