import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { skipCurrencyCollection } from './CurrencyCollection.js';
import { walkHashmapEValues, walkHashmapValues } from './Hashmap.js';
import { type HashUpdate, loadHashUpdate } from './HashUpdate.js';
import type { TlbBuilder } from './builder.js';
import { type CurrencyCollection, addCurrencyCollections, grams, storeCurrencyCollection } from './CurrencyCollection.js';
import { type Augmentation, type HashmapEntry, keyFromInt, storeHashmapAug, storeHashmapAugE } from './Hashmap.js';
import { storeHashUpdate } from './HashUpdate.js';

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
  walkHashmapValues(s, 64, (v) => transactions.push(v.loadRef()), skipCurrencyCollection);
  return { accountAddr, transactions, stateUpdate: loadHashUpdate(new Slice(s.boc, s.loadRef())) };
}

/** Walks `_ (HashmapAugE 256 AccountBlock CurrencyCollection) = ShardAccountBlocks` in account order. */
export function walkShardAccountBlocks(s: Slice, each: (block: AccountBlock) => void): void {
  walkHashmapEValues(s, 256, (v) => each(loadAccountBlock(v)), skipCurrencyCollection);
}

/** One transaction of an AccountBlock to write: its cell, lt (the key) and `total_fees` (the augmentation). */
export interface AccountBlockTransaction<C> {
  lt: bigint;
  cell: C;
  totalFees: CurrencyCollection;
}

/** An AccountBlock to write; transactions in lt order. */
export interface AccountBlockInput<C> {
  accountAddr: Uint8Array;
  transactions: ReadonlyArray<AccountBlockTransaction<C>>;
  stateUpdate: HashUpdate;
}

/** `HashmapAug 64 ^Transaction CurrencyCollection`: a transaction's augmentation is its `total_fees`. */
function feesAug<C>(): Augmentation<AccountBlockTransaction<C>, CurrencyCollection, C> {
  return {
    leaf: (t) => t.totalFees,
    fork: addCurrencyCollections,
    empty: grams(0n),
    store: (cc, b) => storeCurrencyCollection(cc, b),
  };
}

/** Writes `acc_trans#5` (the transaction map inline); returns the account's total fees (its augmentation). */
export function storeAccountBlock<C>(ab: AccountBlockInput<C>, b: TlbBuilder<C>): CurrencyCollection {
  b.storeUint(5, 4);
  b.storeBytes(ab.accountAddr);
  const entries = ab.transactions.map((t) => ({ key: keyFromInt(t.lt, 64), value: t }));
  const total = storeHashmapAug(b, entries, 64, (t, vb) => vb.storeRef(t.cell), feesAug<C>());
  const u = b.child();
  storeHashUpdate(ab.stateUpdate, u);
  b.storeRef(u.endCell());
  return total;
}

/**
 * Writes `_ (HashmapAugE 256 AccountBlock CurrencyCollection) = ShardAccountBlocks` (the augmentation of an entry
 * is the account's total fees); blocks in account order. Returns the total fees.
 */
export function storeShardAccountBlocks<C>(blocks: ReadonlyArray<AccountBlockInput<C>>, b: TlbBuilder<C>): CurrencyCollection {
  const fees = new Map<AccountBlockInput<C>, CurrencyCollection>();
  const entries: Array<HashmapEntry<AccountBlockInput<C>>> = blocks.map((ab) => ({ key: ab.accountAddr, value: ab }));
  return storeHashmapAugE(
    b,
    entries,
    256,
    (ab, vb) => {
      storeAccountBlock(ab, vb);
    },
    {
      leaf: (ab) => {
        let f = fees.get(ab);
        if (!f) {
          f = ab.transactions.reduce((s, t) => addCurrencyCollections(s, t.totalFees), grams(0n));
          fees.set(ab, f);
        }
        return f;
      },
      fork: addCurrencyCollections,
      empty: grams(0n),
      store: (cc, vb) => storeCurrencyCollection(cc, vb),
    },
  );
}
