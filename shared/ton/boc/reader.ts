import { type DecodeError, bocError } from '../errors.js';
import { crc32c } from './crc32c.js';
import { CellHasher } from './cell-hasher.js';
import { MAX_DEPTH, levelOf, popcount } from './levels.js';
import { paddedLength, sha256Into } from './sha256.js';

/**
 * A bag of cells read lazily (boc.tlb `serialized_boc#b5ee9c72`, and the legacy
 * `serialized_boc_idx#68ff65f3` / `serialized_boc_idx_crc32c#acc3a728` forms).
 *
 * Parsing validates the header, the CRC32C and every cell's descriptor, and records where each cell's data
 * starts and which cells it references. Nothing is copied and nothing is hashed: a cell's representation hash
 * is computed the first time someone asks for it (and then cached), so a block's `state_update` costs nothing
 * unless its hash is wanted. Cells are addressed by their index in the bag.
 */
export class Boc {
  /** Index of every root cell, in `root_list` order. */
  readonly roots: number[];
  readonly count: number;
  /** Descriptor bytes d1 (refs + 8·exotic + 32·level mask) and d2 (⌊bits/8⌋ + ⌈bits/8⌉) per cell. */
  readonly d1: Uint8Array;
  readonly d2: Uint8Array;
  /** Byte offset of each cell's data inside `bytes`. */
  readonly dataOff: Uint32Array;
  /** Number of meaningful bits of each cell's data (completion tag removed). */
  readonly bitLen: Uint16Array;
  /** Child indices, four slots per cell (unused slots hold -1). */
  readonly refs: Int32Array;

  private readonly hashes: Uint8Array;
  private readonly depths: Uint16Array;
  private readonly hashed: Uint8Array;
  /**
   * Hashes and depths below a cell's own level (index 0..2 = hash index), for cells whose level mask is not zero:
   * pruned branches and everything above them inside a Merkle update.
   */
  private lowHashes: Uint8Array | null = null;
  private lowDepths: Uint16Array | null = null;
  /** Slot of each cell with a non-zero level mask in lowHashes/lowDepths (assigned while parsing). */
  private readonly lowSlot: Int32Array;
  private lowSlots = 0;
  /** Height of each cell (0 for a leaf, else one more than its highest child), from the parse's last pass. */
  private readonly height: Int32Array;
  private maxHeight = 0;
  /** The Merkle proof and update cells, whose stored child hashes are checked once their children are hashed. */
  private readonly merkleCells: number[] = [];
  /** False until a first cell is hashed: a first batch then needs no earlier hashes as inputs. */
  private anyHashed = false;
  private readonly scratch = new Uint8Array(paddedLength(2 + 128 + 4 * 2 + 4 * 32));
  /*
   * DataViews for building hash inputs four bytes at a time (cell data and hashes sit at any byte offset, which
   * typed arrays cannot address); reading and writing both little-endian keeps the byte order on any platform.
   */
  private readonly scratchView = new DataView(this.scratch.buffer);
  private readonly bytesView: DataView;
  private readonly hashesView: DataView;
  private lowView: DataView | null = null;
  private readonly schedule = new Int32Array(64);

  private constructor(
    readonly bytes: Uint8Array,
    count: number,
    roots: number[],
  ) {
    this.count = count;
    this.roots = roots;
    this.d1 = new Uint8Array(count);
    this.d2 = new Uint8Array(count);
    this.dataOff = new Uint32Array(count);
    this.bitLen = new Uint16Array(count);
    this.refs = new Int32Array(count * 4).fill(-1);
    this.hashes = new Uint8Array(count * 32);
    this.bytesView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.hashesView = new DataView(this.hashes.buffer);
    this.depths = new Uint16Array(count);
    this.hashed = new Uint8Array(count);
    this.lowSlot = new Int32Array(count);
    this.height = new Int32Array(count);
  }

  /** Parses the header, index and cell table. Throws {@link DecodeError} on any malformed input. */
  static parse(input: Uint8Array): Boc {
    const bytes = input;
    const len = bytes.length;
    if (len < 4) throw bocError('BOC_TRUNCATED', `not a BOC: ${len} bytes, too short for a magic`, len);
    const magic = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
    let p = 4;
    const need = (n: number, what: string): void => {
      if (p + n > len) throw bocError('BOC_TRUNCATED', `BOC truncated while reading ${what}`, p);
    };
    const readN = (n: number, what: string): number => {
      need(n, what);
      let v = 0;
      for (let k = 0; k < n; k++) v = v * 256 + bytes[p++]!;
      return v;
    };

    let hasIdx: boolean;
    let hasCrc: boolean;
    let hasCacheBits = false;
    let size: number;
    if (magic === 0xb5ee9c72) {
      need(1, 'flags');
      const b = bytes[p++]!;
      hasIdx = (b & 0x80) !== 0;
      hasCrc = (b & 0x40) !== 0;
      hasCacheBits = (b & 0x20) !== 0;
      if ((b & 0x18) !== 0) throw bocError('BOC_BAD_HEADER', `BOC flags must be 0, got ${(b >> 3) & 3}`, 4);
      size = b & 7;
    } else if (magic === 0x68ff65f3 || magic === 0xacc3a728) {
      hasIdx = true;
      hasCrc = magic === 0xacc3a728;
      size = readN(1, 'size');
    } else {
      throw bocError('BOC_BAD_MAGIC', `not a BOC: unknown magic 0x${magic.toString(16).padStart(8, '0')}`, 0);
    }
    if (size < 1 || size > 4) throw bocError('BOC_BAD_HEADER', `BOC size field ${size} not in 1..4`, 4);
    const offBytes = readN(1, 'off_bytes');
    if (offBytes < 1 || offBytes > 8) throw bocError('BOC_BAD_HEADER', `BOC off_bytes ${offBytes} not in 1..8`, p - 1);
    const cells = readN(size, 'cells');
    const rootCount = readN(size, 'roots');
    const absent = readN(size, 'absent');
    const totCellsSize = readN(offBytes, 'tot_cells_size');
    if (cells === 0) throw bocError('BOC_BAD_HEADER', 'BOC has no cells', 6);
    if (rootCount < 1 || rootCount + absent > cells) {
      throw bocError('BOC_BAD_HEADER', `BOC roots=${rootCount} absent=${absent} inconsistent with cells=${cells}`, 6);
    }
    if (absent !== 0) throw bocError('BOC_BAD_HEADER', `BOC with ${absent} absent cells is not supported`, 6);
    if (magic !== 0xb5ee9c72 && rootCount !== 1) {
      throw bocError('BOC_BAD_HEADER', `legacy BOC must have exactly one root, has ${rootCount}`, 6);
    }
    // Every cell takes at least two descriptor bytes: this bounds `cells` before anything is allocated.
    if (cells * 2 > len) throw bocError('BOC_TRUNCATED', `BOC declares ${cells} cells but has only ${len} bytes`, 6);

    const roots: number[] = [];
    if (magic === 0xb5ee9c72) {
      for (let r = 0; r < rootCount; r++) {
        const at = p;
        const idx = readN(size, 'root_list');
        if (idx >= cells) throw bocError('BOC_BAD_HEADER', `root index ${idx} >= cells ${cells}`, at);
        roots.push(idx);
      }
    } else {
      roots.push(0);
    }
    const indexStart = p;
    if (hasIdx) need(cells * offBytes, 'index');
    const dataStart = indexStart + (hasIdx ? cells * offBytes : 0);
    const dataEnd = dataStart + totCellsSize;
    const expectedLen = dataEnd + (hasCrc ? 4 : 0);
    if (expectedLen > len) {
      throw bocError('BOC_TRUNCATED', `BOC truncated: header declares ${expectedLen} bytes, file has ${len}`, len);
    }
    if (expectedLen < len) throw bocError('BOC_BAD_HEADER', `${len - expectedLen} trailing bytes after the BOC`, expectedLen);
    if (hasCrc) {
      const stored = (bytes[dataEnd]! | (bytes[dataEnd + 1]! << 8) | (bytes[dataEnd + 2]! << 16) | (bytes[dataEnd + 3]! << 24)) >>> 0;
      const actual = crc32c(bytes, 0, dataEnd);
      if (stored !== actual) {
        throw bocError(
          'BOC_BAD_CRC',
          `BOC CRC32C mismatch: stored 0x${stored.toString(16).padStart(8, '0')}, computed 0x${actual.toString(16).padStart(8, '0')}`,
          dataEnd,
        );
      }
    }

    const boc = new Boc(bytes, cells, roots);
    const { d1: D1, d2: D2, dataOff, bitLen, refs } = boc;
    p = dataStart;
    for (let i = 0; i < cells; i++) {
      const cellStart = p;
      if (p + 2 > dataEnd) throw bocError('BOC_TRUNCATED', `cell ${i} descriptor runs past the cell data`, p);
      const d1 = bytes[p]!;
      const d2 = bytes[p + 1]!;
      p += 2;
      const refCount = d1 & 7;
      if (refCount > 4) throw bocError('BOC_BAD_CELL', `cell ${i} has invalid reference count ${refCount}`, cellStart);
      const mask = d1 >> 5;
      const exotic = (d1 & 8) !== 0;
      if ((d1 & 16) !== 0) p += (popcount(mask) + 1) * (32 + 2);
      const dataLen = (d2 >> 1) + (d2 & 1);
      if (p + dataLen + refCount * size > dataEnd) {
        throw bocError('BOC_TRUNCATED', `cell ${i} runs past the cell data`, cellStart);
      }
      let bits = dataLen * 8;
      if (d2 & 1) {
        const last = bytes[p + dataLen - 1]!;
        if (last === 0) throw bocError('BOC_BAD_CELL', `cell ${i} has no completion tag`, p + dataLen - 1);
        bits -= ctz8(last) + 1;
      }
      D1[i] = d1;
      D2[i] = d2;
      dataOff[i] = p;
      bitLen[i] = bits;
      p += dataLen;
      for (let r = 0; r < refCount; r++) {
        let idx = 0;
        for (let k = 0; k < size; k++) idx = idx * 256 + bytes[p++]!;
        // Children must come after their parent: this is what every TON serializer emits, and it makes
        // cycles (and so endless walks over a crafted BOC) impossible.
        if (idx <= i || idx >= cells) {
          throw bocError('BOC_BAD_CELL', `cell ${i} references cell ${idx} (must be in ${i + 1}..${cells - 1})`, p - size);
        }
        refs[i * 4 + r] = idx;
      }
      if (exotic) validateExotic(bytes, i, p - refCount * size - dataLen, bits, refCount, mask, cellStart);
      if (hasIdx) {
        const at = indexStart + i * offBytes;
        let v = 0;
        for (let k = 0; k < offBytes; k++) v = v * 256 + bytes[at + k]!;
        if (hasCacheBits) v = Math.floor(v / 2);
        if (v !== p - dataStart) {
          throw bocError('BOC_BAD_INDEX', `BOC index entry ${i} is ${v}, cell ends at ${p - dataStart}`, at);
        }
      }
    }
    if (p !== dataEnd) throw bocError('BOC_BAD_HEADER', `cell data is ${p - dataStart} bytes, header says ${totCellsSize}`, p);
    boc.checkLevelMasks();
    return boc;
  }

  /**
   * A cell's level mask follows from its children (tvm.pdf §3.1.3): their union for ordinary cells, shifted down
   * one level for Merkle cells, stored in the data for pruned branches. Hashing trusts the descriptor, so a
   * descriptor that disagrees is rejected here, children first (they come later in the bag). The same pass records
   * each cell's height, which orders a hashing batch ({@link byHeight}).
   */
  private checkLevelMasks(): void {
    const { d1: D1, refs, height } = this;
    for (let i = this.count - 1; i >= 0; i--) {
      const d1 = D1[i]!;
      const n = d1 & 7;
      let mask = 0;
      let h = 0;
      for (let r = 0; r < n; r++) {
        const child = refs[i * 4 + r]!;
        mask |= D1[child]! >> 5;
        const ch = height[child]! + 1;
        if (ch > h) h = ch;
      }
      height[i] = h;
      if (h > this.maxHeight) this.maxHeight = h;
      const type = d1 & 8 ? this.bytes[this.dataOff[i]!]! : 0;
      if (type === 3 || type === 4) this.merkleCells.push(i);
      if (type === 1) {
        this.lowSlot[i] = this.lowSlots++;
        continue;
      }
      if (d1 >> 5 !== 0) this.lowSlot[i] = this.lowSlots++;
      const expected = type === 3 || type === 4 ? mask >> 1 : type === 2 ? 0 : mask;
      if (expected !== d1 >> 5) {
        throw bocError('BOC_BAD_CELL', `cell ${i} declares level mask ${d1 >> 5}, its children give ${expected}`, this.dataOff[i]);
      }
    }
  }

  get root(): number {
    return this.roots[0]!;
  }

  refCount(cell: number): number {
    return this.d1[cell]! & 7;
  }

  ref(cell: number, n: number): number {
    return this.refs[cell * 4 + n]!;
  }

  isExotic(cell: number): boolean {
    return (this.d1[cell]! & 8) !== 0;
  }

  levelMask(cell: number): number {
    return this.d1[cell]! >> 5;
  }

  /** Exotic cell type (1 pruned branch, 2 library, 3 Merkle proof, 4 Merkle update), 0 for ordinary cells. */
  exoticType(cell: number): number {
    return this.isExotic(cell) ? this.bytes[this.dataOff[cell]!]! : 0;
  }

  /** Representation hash (the hash at the cell's own level), computed on first use. */
  hash(cell: number): Uint8Array {
    this.ensureHashed(cell);
    return this.hashes.subarray(cell * 32, cell * 32 + 32);
  }

  /** The first four bytes of the representation hash, as a little-endian 32-bit integer (a well-spread hash key). */
  hashWord(cell: number): number {
    this.ensureHashed(cell);
    return this.hashesView.getInt32(cell * 32, true);
  }

  /** Whether two cells have the same representation hash, compared in place. */
  sameHash(a: number, b: number): boolean {
    this.ensureHashed(a);
    this.ensureHashed(b);
    const h = this.hashes;
    for (let k = 0, x = a * 32, y = b * 32; k < 32; k++) if (h[x + k] !== h[y + k]) return false;
    return true;
  }

  /** Whether `cell`'s representation hash equals `hash`. */
  hashEquals(cell: number, hash: Uint8Array): boolean {
    this.ensureHashed(cell);
    const h = this.hashes;
    for (let k = 0, x = cell * 32; k < 32; k++) if (h[x + k] !== hash[k]) return false;
    return true;
  }

  depth(cell: number): number {
    this.ensureHashed(cell);
    return this.depths[cell]!;
  }

  /** Hash of the cell as seen at `level` (for cells under Merkle cells); equals {@link hash} for level-0 cells. */
  hashAt(cell: number, level: number): Uint8Array {
    this.ensureHashed(cell);
    const hi = this.lowIndex(cell, level);
    if (hi < 0) return this.hashes.subarray(cell * 32, cell * 32 + 32);
    const o = (this.lowSlot[cell]! * 3 + hi) * 32;
    return this.lowHashes!.subarray(o, o + 32);
  }

  depthAt(cell: number, level: number): number {
    this.ensureHashed(cell);
    const hi = this.lowIndex(cell, level);
    return hi < 0 ? this.depths[cell]! : this.lowDepths![this.lowSlot[cell]! * 3 + hi]!;
  }

  /** Which stored lower hash serves `level`, or -1 when it is the representation hash. */
  private lowIndex(cell: number, level: number): number {
    const mask = this.d1[cell]! >> 5;
    if (mask === 0) return -1;
    const hi = popcount(mask & ((1 << level) - 1));
    return hi >= popcount(mask) ? -1 : hi;
  }

  /** Copies the hash of `cell` at `level` into `buf` at `q`. */
  private copyHashAt(cell: number, level: number, buf: Uint8Array, q: number): void {
    const hi = this.lowIndex(cell, level);
    const src = hi < 0 ? this.hashes : this.lowHashes!;
    const o = hi < 0 ? cell * 32 : (this.lowSlot[cell]! * 3 + hi) * 32;
    for (let k = 0; k < 32; k++) buf[q + k] = src[o + k]!;
  }

  /**
   * Hashes every cell, children first. Cheaper than recursive {@link hash} calls when the whole bag is wanted
   * (a block's root hash covers its state update, so it needs all of them).
   */
  hashAll(): void {
    this.hashBatch(null, this.count);
  }

  /**
   * Hashes every cell under `roots` in one batch: what {@link hashAll} does for the whole bag, for the subtrees a
   * caller is about to ask {@link hash} about (a block's transactions when its root hash comes from the source).
   * Cells hashed before are skipped, and so are their subtrees (a cell is hashed only after its children).
   */
  hashSubtrees(roots: ArrayLike<number>): void {
    const { hashed, d1, refs } = this;
    const want = new Uint8Array(this.count);
    const stack: number[] = [];
    let n = 0;
    for (let k = 0; k < roots.length; k++) {
      const root = roots[k]!;
      if (hashed[root] !== 0 || want[root] !== 0) continue;
      want[root] = 1;
      n++;
      stack.push(root);
      while (stack.length > 0) {
        const c = stack.pop()!;
        const m = d1[c]! & 7;
        for (let r = 0; r < m; r++) {
          const child = refs[c * 4 + r]!;
          if (hashed[child] === 0 && want[child] === 0) {
            want[child] = 1;
            n++;
            stack.push(child);
          }
        }
      }
    }
    if (n === 0) return;
    // Children come after their parents in a bag, so descending index order is children first.
    const cells = new Int32Array(n);
    for (let i = this.count - 1, k = 0; i >= 0; i--) if (want[i] !== 0) cells[k++] = i;
    this.hashBatch(cells, n);
  }

  /** Hashes the `n` cells of `cells` (in descending index order; null for all of them), in WebAssembly if worth it. */
  private hashBatch(cells: Int32Array | null, n: number): void {
    const hasher = n >= BATCH_MIN_CELLS ? CellHasher.acquire() : null;
    if (hasher === null) {
      for (let k = 0; k < n; k++) {
        const i = cells === null ? this.count - 1 - k : cells[k]!;
        if (this.hashed[i] === 0) this.computeHash(i);
      }
      return;
    }
    try {
      this.hashInWasm(hasher, cells, n);
    } finally {
      hasher.release();
    }
  }

  /**
   * The cells of a batch grouped by height (0 for a leaf, else one more than its highest child): a cell's height
   * exceeds its children's, so the cells of one height never need each other's hashes and can share SIMD lanes.
   * Over a subset, a child outside it is already hashed and counts as height 0; that only ever raises a parent's.
   */
  private byHeight(cells: Int32Array | null, n: number): { order: Int32Array; start: Int32Array; maxHeight: number } {
    const { count, d1, refs } = this;
    let height: Int32Array;
    let maxHeight = 0;
    if (cells === null) {
      // The whole bag: the heights the parse recorded.
      height = this.height;
      maxHeight = this.maxHeight;
    } else {
      height = new Int32Array(count);
      for (let k = 0; k < n; k++) {
        const i = cells[k]!;
        const m = d1[i]! & 7;
        let h = 0;
        for (let r = 0; r < m; r++) {
          const ch = height[refs[i * 4 + r]!]! + 1;
          if (ch > h) h = ch;
        }
        height[i] = h;
        if (h > maxHeight) maxHeight = h;
      }
    }
    // Counting sort by height: cells of height h are order[start[h], start[h + 1]).
    const start = new Int32Array(maxHeight + 2);
    for (let k = 0; k < n; k++) start[height[cells === null ? k : cells[k]!]! + 1]!++;
    for (let h = 0; h <= maxHeight; h++) start[h + 1]! += start[h]!;
    const order = new Int32Array(n);
    const next = start.slice(0, maxHeight + 1);
    for (let k = 0; k < n; k++) {
      const i = cells === null ? k : cells[k]!;
      order[next[height[i]!]!++] = i;
    }
    return { order, start, maxHeight };
  }

  /**
   * {@link hashBatch} inside WebAssembly (cell-hasher.ts), one call for the whole batch. The Merkle cells' stored
   * child hashes are checked after it; a bag that fails the check is left as if never batched, so asking for a
   * hash again fails the same way.
   */
  private hashInWasm(hasher: CellHasher, cells: Int32Array | null, n: number): void {
    const { order, start, maxHeight } = this.byHeight(cells, n);
    this.ensureLow();
    const result = hasher.run(
      {
        bytes: this.bytes,
        d1: this.d1,
        d2: this.d2,
        dataOff: this.dataOff,
        refs: this.refs,
        lowSlot: this.lowSlot,
        hashed: this.hashed,
        hashes: this.hashes,
        depths: this.depths,
        lowHashes: this.lowHashes!,
        lowDepths: this.lowDepths!,
      },
      order,
      start,
      maxHeight,
      this.anyHashed,
    );
    if (!result.ok) throw depthError(result.cell, result.depth, this.dataOff[result.cell]!);
    this.anyHashed = true;
    try {
      if (cells === null) {
        for (const cell of this.merkleCells) this.checkMerkleChildren(cell, this.dataOff[cell]!);
      } else {
        for (let k = 0; k < n; k++) {
          const cell = order[k]!;
          if ((this.d1[cell]! & 8) === 0) continue;
          const type = this.bytes[this.dataOff[cell]!]!;
          if (type === 3 || type === 4) this.checkMerkleChildren(cell, this.dataOff[cell]!);
        }
      }
    } catch (e) {
      for (let k = 0; k < n; k++) this.hashed[order[k]!] = 0;
      throw e;
    }
  }

  /**
   * Hashes `cell` after its unhashed descendants. Iterative, so a crafted chain of cells cannot exhaust the stack
   * (depth itself is capped at {@link MAX_DEPTH} while hashing).
   */
  private ensureHashed(cell: number): void {
    if (this.hashed[cell] !== 0) return;
    const stack = [cell];
    while (stack.length > 0) {
      const c = stack[stack.length - 1]!;
      if (this.hashed[c] !== 0) {
        stack.pop();
        continue;
      }
      const refCount = this.d1[c]! & 7;
      let pending = false;
      for (let r = 0; r < refCount; r++) {
        const child = this.refs[c * 4 + r]!;
        if (this.hashed[child] === 0) {
          stack.push(child);
          pending = true;
        }
      }
      if (!pending) {
        this.computeHash(c);
        stack.pop();
      }
    }
  }

  /**
   * A Merkle proof or update stores the level-0 hash and depth of each child (block.tlb `!merkle_proof`,
   * `!merkle_update`); a cell whose stored values disagree with its children is not a valid exotic cell.
   */
  private checkMerkleChildren(cell: number, off: number): void {
    const bytes = this.bytes;
    const n = this.d1[cell]! & 7;
    for (let r = 0; r < n; r++) {
      const child = this.refs[cell * 4 + r]!;
      const h = this.hashAt(child, 0);
      const ho = off + 1 + r * 32;
      for (let k = 0; k < 32; k++) {
        if (bytes[ho + k] !== h[k]) {
          throw bocError('BOC_BAD_CELL', `Merkle cell ${cell}: stored hash of child ${r} does not match cell ${child}`, ho);
        }
      }
      const dp = off + 1 + n * 32 + r * 2;
      if (((bytes[dp]! << 8) | bytes[dp + 1]!) !== this.depthAt(child, 0)) {
        throw bocError('BOC_BAD_CELL', `Merkle cell ${cell}: stored depth of child ${r} does not match cell ${child}`, dp);
      }
    }
  }

  /**
   * Cell hashes per the TVM spec (tvm.pdf §3.1.4–3.1.6) and crypto/vm/cells/DataCell.cpp: one hash per
   * significant level; Merkle cells take their children's hashes one level up; a pruned branch stores its
   * lower hashes and depths in its data and only its top hash is computed.
   */
  private computeHash(cell: number): void {
    const d1 = this.d1[cell]!;
    const buf = this.scratch;
    if ((d1 & 0xe8) === 0) {
      // Fast path: an ordinary level-0 cell has exactly one hash, and its children are level 0 too.
      const len = this.writeSimpleInput(cell, this.scratchView, 0);
      sha256Into(buf, len, this.hashes, cell * 32, this.schedule);
      this.hashed[cell] = 1;
      this.anyHashed = true;
      return;
    }
    const mask = d1 >> 5;
    const isPruned = (d1 & 8) !== 0 && this.bytes[this.dataOff[cell]!] === 1;
    const last = popcount(mask);
    const low = this.ensureLow();
    const slot = this.lowSlot[cell]!;
    for (let hi = 0; hi <= last; hi++) {
      if (isPruned && hi < last) {
        this.copyPrunedHash(cell, hi);
        continue;
      }
      const len = this.writeHashInput(cell, levelOf(mask, hi), hi, this.scratchView, 0);
      if (hi === last) sha256Into(buf, len, this.hashes, cell * 32, this.schedule);
      else sha256Into(buf, len, low, (slot * 3 + hi) * 32, this.schedule);
    }
    this.hashed[cell] = 1;
    this.anyHashed = true;
  }

  private ensureLow(): Uint8Array {
    if (this.lowHashes === null) {
      this.lowHashes = new Uint8Array(this.lowSlots * 3 * 32);
      this.lowDepths = new Uint16Array(this.lowSlots * 3);
      this.lowView = new DataView(this.lowHashes.buffer);
    }
    return this.lowHashes;
  }

  /**
   * Writes the hash input of an ordinary level-0 cell (descriptor, data, child depths, child hashes) to `buf` at
   * `at`, hashing unhashed children first; records the cell's depth and returns the end of the input.
   */
  private writeSimpleInput(cell: number, out: DataView, at: number): number {
    const depths = this.depths;
    const d1 = this.d1[cell]!;
    const d2 = this.d2[cell]!;
    const refCount = d1 & 7;
    const off = this.dataOff[cell]!;
    const dataLen = dataLength(d2);
    out.setUint8(at, d1 & 0x07);
    out.setUint8(at + 1, d2);
    let q = at + 2;
    copyBytes(this.bytesView, off, out, q, dataLen);
    q += dataLen;
    let depth = 0;
    for (let r = 0; r < refCount; r++) {
      const c = this.refs[cell * 4 + r]!;
      if (this.hashed[c] === 0) this.ensureHashed(c);
      const cd = depths[c]!;
      if (cd + 1 > depth) depth = cd + 1;
      out.setUint16(q, cd);
      q += 2;
    }
    for (let r = 0; r < refCount; r++) {
      const c = this.refs[cell * 4 + r]!;
      if (this.levelMask(c) !== 0) {
        // Only an exotic child can have a level mask here; take its level-0 hash.
        const h = this.hashAt(c, 0);
        for (let k = 0; k < 32; k++) out.setUint8(q + k, h[k]!);
      } else {
        copy32(this.hashesView, c * 32, out, q);
      }
      q += 32;
    }
    if (depth > MAX_DEPTH) throw depthError(cell, depth, off);
    depths[cell] = depth;
    return q;
  }

  /**
   * Writes the input of hash number `hi` of `cell` (the one at `level`) to `buf` at `at`: the descriptor as seen
   * at that level, then the data for the first hash (and for every hash of a pruned branch) or else the previous
   * hash, then the children's depths and hashes at that level (one level up under a Merkle cell). Records the
   * depth and returns the end of the input. Needs the children hashed and, for `hi` > 0, hash `hi − 1`.
   */
  private writeHashInput(cell: number, level: number, hi: number, out: DataView, at: number): number {
    const d1 = this.d1[cell]!;
    const refCount = d1 & 7;
    const mask = d1 >> 5;
    const off = this.dataOff[cell]!;
    const exotic = (d1 & 8) !== 0;
    const type = exotic ? this.bytes[off]! : 0;
    const isMerkle = type === 3 || type === 4;
    const isPruned = type === 1;
    const slot = this.lowSlot[cell]!;
    const lowView = this.lowView!;
    out.setUint8(at, (refCount + (exotic ? 8 : 0) + ((mask & ((1 << level) - 1)) << 5)) & 0xff);
    out.setUint8(at + 1, this.d2[cell]!);
    let q = at + 2;
    if (hi === 0 || isPruned) {
      const dataLen = dataLength(this.d2[cell]!);
      copyBytes(this.bytesView, off, out, q, dataLen);
      q += dataLen;
    } else {
      copy32(lowView, (slot * 3 + hi - 1) * 32, out, q);
      q += 32;
    }
    const childLevel = isMerkle ? level + 1 : level;
    const lowDepths = this.lowDepths!;
    const hq = q + refCount * 2;
    let depth = 0;
    for (let r = 0; r < refCount; r++) {
      const c = this.refs[cell * 4 + r]!;
      if (this.hashed[c] === 0) this.ensureHashed(c);
      const chi = this.lowIndex(c, childLevel);
      let cd: number;
      if (chi < 0) {
        cd = this.depths[c]!;
        copy32(this.hashesView, c * 32, out, hq + r * 32);
      } else {
        const li = this.lowSlot[c]! * 3 + chi;
        cd = lowDepths[li]!;
        copy32(lowView, li * 32, out, hq + r * 32);
      }
      if (cd + 1 > depth) depth = cd + 1;
      out.setUint16(q + r * 2, cd);
    }
    q = hq + refCount * 32;
    if (depth > MAX_DEPTH) throw depthError(cell, depth, off);
    if (isMerkle && level === 0) this.checkMerkleChildren(cell, off);
    if (hi === popcount(mask)) this.depths[cell] = depth;
    else lowDepths[slot * 3 + hi] = depth;
    return q;
  }

  /** Pruned branch data: type(8) mask(8) hashes(n·256) depths(n·16) for the levels below its own. */
  private copyPrunedHash(cell: number, hi: number): void {
    const bytes = this.bytes;
    const off = this.dataOff[cell]!;
    const n = popcount(this.d1[cell]! >> 5);
    const low = this.ensureLow();
    const slot = this.lowSlot[cell]!;
    for (let k = 0; k < 32; k++) low[(slot * 3 + hi) * 32 + k] = bytes[off + 2 + hi * 32 + k]!;
    const dp = off + 2 + n * 32 + hi * 2;
    this.lowDepths![slot * 3 + hi] = (bytes[dp]! << 8) | bytes[dp + 1]!;
  }
}

/**
 * Bags smaller than this are hashed with the scalar SHA-256: batching pays for its set-up (heights, a sort)
 * only over many cells, and small bags are mostly single messages and transactions.
 */
const BATCH_MIN_CELLS = 64;

function dataLength(d2: number): number {
  return (d2 >> 1) + (d2 & 1);
}

/** Copies 32 bytes, 4 at a time (same endianness on both sides, so byte order is kept). */
function copy32(src: DataView, from: number, out: DataView, to: number): void {
  for (let k = 0; k < 32; k += 4) out.setInt32(to + k, src.getInt32(from + k, true), true);
}

function copyBytes(src: DataView, from: number, out: DataView, to: number, n: number): void {
  let k = 0;
  for (; k + 4 <= n; k += 4) out.setInt32(to + k, src.getInt32(from + k, true), true);
  for (; k < n; k++) out.setUint8(to + k, src.getUint8(from + k));
}

function depthError(cell: number, depth: number, offset: number): DecodeError {
  return bocError('BOC_BAD_CELL', `cell ${cell} has depth ${depth}, above the maximum ${MAX_DEPTH}`, offset);
}

function ctz8(b: number): number {
  let n = 0;
  while ((b & 1) === 0 && n < 8) {
    b >>= 1;
    n++;
  }
  return n;
}

/** Checks the fixed layouts of exotic cells (tvm.pdf §3.1.7, block.tlb `!merkle_proof`, `!merkle_update`). */
function validateExotic(
  bytes: Uint8Array,
  i: number,
  off: number,
  bits: number,
  refCount: number,
  mask: number,
  at: number,
): void {
  if (bits < 8) throw bocError('BOC_BAD_CELL', `exotic cell ${i} has no type byte`, at);
  const type = bytes[off]!;
  const fail = (what: string): never => {
    throw bocError('BOC_BAD_CELL', `exotic cell ${i} (type ${type}): ${what}`, at);
  };
  switch (type) {
    case 1: {
      if (refCount !== 0) fail('pruned branch with references');
      const m = bits >= 16 ? bytes[off + 1]! : -1;
      if (m !== mask || mask === 0) fail(`pruned branch level mask ${m} does not match descriptor ${mask}`);
      if (bits !== 16 + popcount(mask) * (256 + 16)) fail(`pruned branch has ${bits} bits`);
      return;
    }
    case 2:
      if (refCount !== 0 || bits !== 8 + 256) fail('library cell must be 264 bits without references');
      return;
    case 3:
      if (refCount !== 1 || bits !== 8 + 256 + 16) fail('Merkle proof must be 280 bits with one reference');
      return;
    case 4:
      if (refCount !== 2 || bits !== 8 + 512 + 32) fail('Merkle update must be 552 bits with two references');
      return;
    default:
      fail('unknown exotic cell type');
  }
}
