import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { skipCurrencyCollection } from './CurrencyCollection.js';
import { walkHashmap, walkHashmapE } from './Hashmap.js';
import { type HashUpdate, loadHashUpdate } from './HashUpdate.js';

/**
 * `acc_trans#5 account_addr:bits256 transactions:(HashmapAug 64 ^Transaction CurrencyCollection)
 * state_update:^(HASH_UPDATE Account) = AccountBlock` (block.tlb).
 */
export interface AccountBlock {
  accountAddr: Uint8Array;
  /** Transaction cells in lt order. */
  transactions: number[];
  stateUpdate: HashUpdate;
}

export function loadAccountBlock(s: Slice): AccountBlock {
  const tag = s.loadUint(4);
  if (tag !== 5) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'AccountBlock', `tag #${tag.toString(16)}`);
  const accountAddr = s.loadBytes(32);
  const transactions: number[] = [];
  // The HashmapAug sits inline: its root edge uses this cell's bits and (for a fork) its first two references,
  // so the state_update reference comes after them.
  walkHashmap(s, 64, (v) => transactions.push(v.loadRef()), skipCurrencyCollection);
  return { accountAddr, transactions, stateUpdate: loadHashUpdate(new Slice(s.boc, s.loadRef())) };
}

/** Walks `_ (HashmapAugE 256 AccountBlock CurrencyCollection) = ShardAccountBlocks` in account order. */
export function walkShardAccountBlocks(s: Slice, each: (block: AccountBlock) => void): void {
  walkHashmapE(s, 256, (v) => each(loadAccountBlock(v)), skipCurrencyCollection);
}
