import { Cell, type Slice, loadTransaction } from '@ton/core';

/**
 * The baseline the decode benchmark compares against: what a decoder built on @ton/core does with a block —
 * `Cell.fromBoc` of the whole BOC (which hashes every cell as it reads it), then a walk of
 * Block → BlockExtra → ShardAccountBlocks → AccountBlock.transactions with `loadTransaction` on each
 * transaction cell. @ton/core has no block or augmented-dictionary loader, so the walk over the HashmapAug
 * labels is written here (block.tlb `ahm_edge`, `ahmn_fork`), following the MANIFEST's description of how the
 * fixture figures were produced.
 */
export function baselineDecode(bytes: Buffer): number {
  const root = Cell.fromBoc(bytes)[0]!;
  const extra = root.refs[3]!;
  const accountBlocks = extra.refs[2]!.beginParse();
  let transactions = 0;
  if (accountBlocks.loadBit()) {
    walkAug(accountBlocks.loadRef().beginParse(), 256, skipCurrencyCollection, (ab) => {
      ab.skip(4 + 256);
      walkAug(ab, 64, skipCurrencyCollection, (v) => {
        loadTransaction(v.loadRef().beginParse());
        transactions++;
      });
    });
  }
  return transactions;
}

function skipCurrencyCollection(s: Slice): void {
  s.loadCoins();
  s.loadMaybeRef();
}

function walkAug(s: Slice, m: number, skipExtra: (s: Slice) => void, leaf: (s: Slice) => void): void {
  let l: number;
  if (!s.loadBit()) {
    l = 0;
    while (s.loadBit()) l++;
    s.skip(l);
  } else if (!s.loadBit()) {
    l = s.loadUint(32 - Math.clz32(m));
    s.skip(l);
  } else {
    s.skip(1);
    l = s.loadUint(32 - Math.clz32(m));
  }
  if (m - l === 0) {
    skipExtra(s);
    leaf(s);
    return;
  }
  const left = s.loadRef();
  const right = s.loadRef();
  walkAug(left.beginParse(), m - l - 1, skipExtra, leaf);
  walkAug(right.beginParse(), m - l - 1, skipExtra, leaf);
}
