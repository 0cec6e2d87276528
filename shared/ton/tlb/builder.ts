import { BitString, type Builder, type Cell, beginCell } from '@ton/core';

/**
 * What the `storeX` serializers of this folder write to: a cell builder over some cell type `C`.
 *
 * The loaders read the lazy {@link Boc}; the serializers are the other direction and do not care which cell
 * implementation receives the bits. Two exist: {@link tonCoreBuilder} (@ton/core `Builder`/`Cell`, convenient,
 * hashes in JavaScript) and the devnet's native-hash cells (`shared/sources/devnet/cell.ts`), which seal blocks
 * fast enough for hundreds of transactions a second. A `^X` field is written by filling {@link child} and storing
 * the finished cell with {@link storeRef}.
 */
export interface TlbBuilder<C> {
  /** Bits written so far. */
  readonly bits: number;
  /** References stored so far. */
  readonly refs: number;
  storeUint(value: number | bigint, bits: number): void;
  storeInt(value: number | bigint, bits: number): void;
  storeBit(value: boolean | number): void;
  /** Whole bytes, most significant bit first. */
  storeBytes(src: Uint8Array): void;
  /** `len` bits of `src` starting at bit `from` (bit 0 = the top bit of byte 0). */
  storeBitsFrom(src: Uint8Array, from: number, len: number): void;
  /** `var_uint$_ {n:#} len:(#< n) value:(uint (len * 8)) = VarUInteger n`, with `lenBits` = ⌈log2 n⌉. */
  storeVarUint(value: bigint, lenBits: number): void;
  /** `Grams` / `Coins` (`VarUInteger 16`). */
  storeCoins(amount: bigint): void;
  storeRef(cell: C): void;
  /** A fresh builder of the same kind, for a `^X` field. */
  child(): TlbBuilder<C>;
  /** The finished cell; `exotic` for pruned branches and Merkle cells (the type is the first data byte). */
  endCell(opts?: { exotic?: boolean }): C;
}

/** {@link TlbBuilder} over a @ton/core `Builder`. */
export function tonCoreBuilder(b: Builder = beginCell()): TlbBuilder<Cell> {
  return {
    get bits() {
      return b.bits;
    },
    get refs() {
      return b.refs;
    },
    storeUint: (v, n) => void b.storeUint(v, n),
    storeInt: (v, n) => void b.storeInt(v, n),
    storeBit: (v) => void b.storeBit(v),
    storeBytes: (src) => void b.storeBuffer(Buffer.from(src.buffer, src.byteOffset, src.length)),
    storeBitsFrom: (src, from, len) => void b.storeBits(new BitString(Buffer.from(src.buffer, src.byteOffset, src.length), from, len)),
    storeVarUint: (v, lenBits) => void b.storeVarUint(v, lenBits),
    storeCoins: (v) => void b.storeCoins(v),
    storeRef: (c) => void b.storeRef(c),
    child: () => tonCoreBuilder(),
    endCell: (opts) => b.endCell(opts),
  };
}
