/**
 * Multi-buffer SHA-256 (FIPS 180-4) in WebAssembly SIMD: several independent messages are hashed at once, one
 * message per 32-bit lane of an i32x4 vector.
 *
 * Why: a block's root hash covers its state update, so it means hashing tens of thousands of cells of one or two
 * 64-byte blocks each. The scalar JS in sha256.ts and node:crypto's per-call overhead dominate at that size; four
 * lanes cost a fraction of either per block (bench/RESULTS.md, decode). Cells of equal height in a bag are independent, which is what makes them batchable (`Boc.hashAll`).
 *
 * The module is not a checked-in binary: {@link sha256MultiWasm} assembles it from the code below, so the bytes
 * are reproducible from source by construction and nothing is needed at build time. Where WebAssembly SIMD is
 * unavailable {@link Sha256Lanes.create} and {@link Sha256Lanes.acquire} return null and callers use sha256.ts.
 */

import { SHA256_K } from './sha256.js';

/**
 * Vectors per group: messages are hashed `4 · VECTORS` at a time. Two vectors (eight lanes, two independent
 * round chains) measured slower than one: sixteen state vectors no longer fit x86-64's sixteen vector registers.
 */
const VECTORS = 1;

/** The round constants, each splatted to a 16-byte vector, at address 0. */
const K_TABLE = 64 * 16;
/** Most vectors per group any module uses (a scratch area per vector follows the constants). */
const MAX_VECTORS = 2;
/** Scratch of the kernel: the 64 words W[t] + K[t] of the block being hashed, then the state saved before it. */
const WK_BASE = K_TABLE;
const SAVED_BASE = WK_BASE + MAX_VECTORS * 64 * 16;
/** Bytes reserved at address 0: the round constants, then the kernel's scratch. */
export const K_BYTES = SAVED_BASE + MAX_VECTORS * 8 * 16;

const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

// Opcodes (WebAssembly core spec §5.4 and the fixed-width SIMD proposal, now part of the core spec).
export const I32 = 0x7f;
export const V128 = 0x7b;
export const OP = {
  block: 0x02,
  loop: 0x03,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  i32Const: 0x41,
  i32GeU: 0x4f,
  i32LtU: 0x49,
  i32Add: 0x6a,
  i32Mul: 0x6c,
  simd: 0xfd,
} as const;
export const SIMD = {
  load: 0x00,
  store: 0x0b,
  const: 0x0c,
  shuffle: 0x0d,
  xor: 0x51,
  bitselect: 0x52,
  shl: 0xab,
  shrU: 0xad,
  add: 0xae,
} as const;

export function uleb(out: number[], n: number): void {
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
}

export function sleb(out: number[], n: number): void {
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return;
    }
    out.push(b | 0x80);
  }
}

/** One function body's instruction stream, with just the instructions the compression function needs. */
export class Code {
  readonly b: number[] = [];
  get(local: number): void {
    this.b.push(OP.localGet);
    uleb(this.b, local);
  }
  set(local: number): void {
    this.b.push(OP.localSet);
    uleb(this.b, local);
  }
  i32(n: number): void {
    this.b.push(OP.i32Const);
    sleb(this.b, n | 0);
  }
  op(code: number): void {
    this.b.push(code);
  }
  simd(code: number): void {
    this.b.push(OP.simd);
    uleb(this.b, code);
  }
  /** v128.load / v128.store with a constant offset (alignment hint 16 bytes: every address used is aligned). */
  mem(code: number, offset: number): void {
    this.simd(code);
    uleb(this.b, 4);
    uleb(this.b, offset);
  }
  vconst(words: number[]): void {
    this.simd(SIMD.const);
    for (const w of words) this.b.push(w & 255, (w >>> 8) & 255, (w >>> 16) & 255, w >>> 24);
  }
  shuffle(lanes: number[]): void {
    this.simd(SIMD.shuffle);
    this.b.push(...lanes);
  }
  /** Pushes rotr(x, r1) ^ rotr(x, r2) ^ (r3 < 0 ? x >>> -r3 : rotr(x, r3)), the shape of all four SHA-256 sigmas. */
  sigma(x: number, r1: number, r2: number, r3: number): void {
    const terms: Array<[number, number]> = [
      [SIMD.shrU, r1],
      [SIMD.shl, 32 - r1],
      [SIMD.shrU, r2],
      [SIMD.shl, 32 - r2],
    ];
    if (r3 < 0) terms.push([SIMD.shrU, -r3]);
    else terms.push([SIMD.shrU, r3], [SIMD.shl, 32 - r3]);
    terms.forEach(([op, n], i) => {
      this.get(x);
      this.i32(n);
      this.simd(op);
      if (i > 0) this.simd(SIMD.xor);
    });
  }
}

/** W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], in a ring of 16 locals. */
function scheduleStep(c: Code, W: number[], t: number): void {
  c.sigma(W[(t - 2) & 15]!, 17, 19, -10);
  c.get(W[(t - 7) & 15]!);
  c.simd(SIMD.add);
  c.sigma(W[(t - 15) & 15]!, 7, 18, -3);
  c.simd(SIMD.add);
  c.get(W[t & 15]!);
  c.simd(SIMD.add);
  c.set(W[t & 15]!);
}

/**
 * Shuffle patterns of a 4×4 transpose of 32-bit words: lanes ↔ words, so that vector k holds word k of four
 * messages (and back, for the digests). The first step also reverses the bytes of each word: SHA-256 is
 * big-endian and WebAssembly little-endian.
 */
function word(w: number, src: number): number[] {
  const o = src * 16 + w * 4;
  return [o + 3, o + 2, o + 1, o];
}
const ZIP_LO = [...word(0, 0), ...word(0, 1), ...word(1, 0), ...word(1, 1)];
const ZIP_HI = [...word(2, 0), ...word(2, 1), ...word(3, 0), ...word(3, 1)];
const HALF_LO = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
const HALF_HI = [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31];

/**
 * Emits the transpose of the four vectors in locals `src` through the temporaries `tmp`, then calls `use(k, emit)`
 * for each output row k, where `emit()` pushes that row.
 */
function transpose(c: Code, src: number[], tmp: number[], use: (k: number, emit: () => void) => void): void {
  const pairs: Array<[number, number, number[], number]> = [
    [src[0]!, src[1]!, ZIP_LO, tmp[0]!],
    [src[0]!, src[1]!, ZIP_HI, tmp[1]!],
    [src[2]!, src[3]!, ZIP_LO, tmp[2]!],
    [src[2]!, src[3]!, ZIP_HI, tmp[3]!],
  ];
  for (const [a, b, pattern, t] of pairs) {
    c.get(a);
    c.get(b);
    c.shuffle(pattern);
    c.set(t);
  }
  const rows: Array<[number, number, number[]]> = [
    [tmp[0]!, tmp[2]!, HALF_LO],
    [tmp[0]!, tmp[2]!, HALF_HI],
    [tmp[1]!, tmp[3]!, HALF_LO],
    [tmp[1]!, tmp[3]!, HALF_HI],
  ];
  rows.forEach(([a, b, pattern], k) =>
    use(k, () => {
      c.get(a);
      c.get(b);
      c.shuffle(pattern);
    }),
  );
}

/**
 * The body of `hash(in, stride, blocks, groups, out)`: for each of `groups` groups of 4·vectors messages (message
 * m at `in + m·stride`, each `blocks` padded 64-byte blocks), writes the 32-byte digest of message m at
 * `out + 32·m`.
 */
export function hashBody(vectors: number): { locals: number[]; code: number[] } {
  if (vectors > MAX_VECTORS) throw new RangeError(`sha256-multi: at most ${MAX_VECTORS} vectors have scratch`);
  const lanes = 4 * vectors;
  // Parameters 0..4; then i32 locals; then v128 locals.
  const [pIn, pStride, pBlocks, pGroups, pOut] = [0, 1, 2, 3, 4];
  let next = 5;
  const g = next++;
  const q = next++;
  const blk = next++;
  const laneOff: number[] = [-1];
  for (let l = 1; l < lanes; l++) laneOff.push(next++);
  const i32Locals = next - 5;
  const v = (n: number): number[] => Array.from({ length: n }, () => next++);
  const state = Array.from({ length: vectors }, () => v(8));
  const w = Array.from({ length: vectors }, () => v(16));
  const t1 = v(vectors);
  const load = v(4);
  const tmp = v(4);
  const v128Locals = next - 5 - i32Locals;

  const c = new Code();
  for (let l = 1; l < lanes; l++) {
    c.get(pStride);
    c.i32(l);
    c.op(OP.i32Mul);
    c.set(laneOff[l]!);
  }
  c.i32(0);
  c.set(g);
  c.op(OP.block);
  c.op(0x40);
  c.op(OP.loop);
  c.op(0x40);
  c.get(g);
  c.get(pGroups);
  c.op(OP.i32GeU);
  c.op(OP.brIf);
  uleb(c.b, 1);

  for (let s = 0; s < vectors; s++) {
    IV.forEach((h, i) => {
      c.vconst([h, h, h, h]);
      c.set(state[s]![i]!);
    });
  }
  c.get(pIn);
  c.set(q);
  c.i32(0);
  c.set(blk);
  c.op(OP.loop);
  c.op(0x40);

  for (let s = 0; s < vectors; s++) {
    for (let k = 0; k < 4; k++) {
      for (let j = 0; j < 4; j++) {
        c.get(q);
        const lane = s * 4 + j;
        if (lane > 0) {
          c.get(laneOff[lane]!);
          c.op(OP.i32Add);
        }
        c.mem(SIMD.load, k * 16);
        c.set(load[j]!);
      }
      transpose(c, load, tmp, (row, emit) => {
        emit();
        c.set(w[s]![k * 4 + row]!);
      });
    }
  }

  // The message schedule first, into memory as W[t] + K[t]: the rounds then keep only the state and two
  // temporaries in registers. Interleaving both (the straightforward form) keeps the 16-word ring, the state and
  // the saved state live at once, three times x86-64's sixteen vector registers, and spills on every round.
  for (let s = 0; s < vectors; s++) {
    const W = w[s]!;
    for (let t = 0; t < 64; t++) {
      if (t >= 16) scheduleStep(c, W, t);
      c.i32(0);
      c.get(W[t & 15]!);
      c.i32(0);
      c.mem(SIMD.load, t * 16);
      c.simd(SIMD.add);
      c.mem(SIMD.store, WK_BASE + s * 1024 + t * 16);
    }
    for (let i = 0; i < 8; i++) {
      c.i32(0);
      c.get(state[s]![i]!);
      c.mem(SIMD.store, SAVED_BASE + s * 128 + i * 16);
    }
  }

  const names = state.map((st) => [...st]);
  for (let t = 0; t < 64; t++) {
    for (let s = 0; s < vectors; s++) {
      const [a, b, cc, d, e, f, gg, h] = names[s]! as [number, number, number, number, number, number, number, number];
      // T1 = h + Σ1(e) + Ch(e, f, g) + (K[t] + W[t]); Ch is bitselect(f, g, e).
      c.get(h);
      c.sigma(e, 6, 11, 25);
      c.simd(SIMD.add);
      c.get(f);
      c.get(gg);
      c.get(e);
      c.simd(SIMD.bitselect);
      c.simd(SIMD.add);
      c.i32(0);
      c.mem(SIMD.load, WK_BASE + s * 1024 + t * 16);
      c.simd(SIMD.add);
      c.set(t1[s]!);
      // e' = d + T1, kept in d's local.
      c.get(d);
      c.get(t1[s]!);
      c.simd(SIMD.add);
      c.set(d);
      // a' = T1 + Σ0(a) + Maj(a, b, c), kept in h's local; Maj is bitselect(b, a, a ^ c).
      c.get(t1[s]!);
      c.sigma(a, 2, 13, 22);
      c.simd(SIMD.add);
      c.get(b);
      c.get(a);
      c.get(a);
      c.get(cc);
      c.simd(SIMD.xor);
      c.simd(SIMD.bitselect);
      c.simd(SIMD.add);
      c.set(h);
      names[s] = [h, a, b, cc, d, e, f, gg];
    }
  }
  // 64 renamings are 8 full turns: every variable is back in its own local.
  for (let s = 0; s < vectors; s++) {
    for (let i = 0; i < 8; i++) {
      c.get(state[s]![i]!);
      c.i32(0);
      c.mem(SIMD.load, SAVED_BASE + s * 128 + i * 16);
      c.simd(SIMD.add);
      c.set(state[s]![i]!);
    }
  }
  c.get(q);
  c.i32(64);
  c.op(OP.i32Add);
  c.set(q);
  c.get(blk);
  c.i32(1);
  c.op(OP.i32Add);
  c.set(blk);
  c.get(blk);
  c.get(pBlocks);
  c.op(OP.i32LtU);
  c.op(OP.brIf);
  uleb(c.b, 0);
  c.op(OP.end);

  for (let s = 0; s < vectors; s++) {
    for (let half = 0; half < 2; half++) {
      transpose(c, state[s]!.slice(half * 4, half * 4 + 4), tmp, (lane, emit) => {
        c.get(pOut);
        emit();
        c.mem(SIMD.store, (s * 4 + lane) * 32 + half * 16);
      });
    }
  }
  c.get(pOut);
  c.i32(lanes * 32);
  c.op(OP.i32Add);
  c.set(pOut);
  c.get(pIn);
  c.get(pStride);
  c.i32(lanes);
  c.op(OP.i32Mul);
  c.op(OP.i32Add);
  c.set(pIn);
  c.get(g);
  c.i32(1);
  c.op(OP.i32Add);
  c.set(g);
  c.op(OP.br);
  uleb(c.b, 0);
  c.op(OP.end);
  c.op(OP.end);
  c.op(OP.end);

  const locals: number[] = [];
  uleb(locals, 2);
  uleb(locals, i32Locals);
  locals.push(I32);
  uleb(locals, v128Locals);
  locals.push(V128);
  return { locals, code: c.b };
}

export function section(out: number[], id: number, body: number[]): void {
  out.push(id);
  uleb(out, body.length);
  out.push(...body);
}

export function name(out: number[], s: string): void {
  uleb(out, s.length);
  for (let i = 0; i < s.length; i++) out.push(s.charCodeAt(i));
}

/**
 * The module's bytes: one function `hash` and one memory `memory` of `pages` 64 KiB pages, whose first
 * {@link K_BYTES} bytes hold the round constants.
 */
export function sha256MultiWasm(pages: number): Uint8Array {
  const out = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  section(out, 1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]);
  section(out, 3, [1, 0]);
  const mem = [1, 0x00];
  uleb(mem, pages);
  section(out, 5, mem);
  const exp = [2];
  name(exp, 'hash');
  exp.push(0x00, 0);
  name(exp, 'memory');
  exp.push(0x02, 0);
  section(out, 7, exp);
  const { locals, code } = hashBody(VECTORS);
  const body = [...locals, ...code];
  const fn = [1];
  uleb(fn, body.length);
  fn.push(...body);
  section(out, 10, fn);
  const table: number[] = [];
  for (const k of SHA256_K) for (let j = 0; j < 4; j++) table.push(k & 255, (k >>> 8) & 255, (k >>> 16) & 255, k >>> 24);
  const data = [1, 0x00, OP.i32Const, 0, OP.end];
  uleb(data, table.length);
  data.push(...table);
  section(out, 11, data);
  return new Uint8Array(out);
}

/** The part of the WebAssembly JS API used here (tsconfig's lib has no WebAssembly declarations). */
export interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
type HashFn = (input: number, stride: number, blocks: number, groups: number, out: number) => void;

/** Longest message a queue takes: the largest cell hash input (2 + 128 + 4·2 + 4·32 = 266 bytes) fits in five blocks. */
export const MAX_BLOCKS = 5;
/** Messages per queue; a multiple of the lane count, so a queue's last group stays inside its own area. */
const QUEUE = 256;
const LANES = 4 * VECTORS;
/** Memory layout after the constants: queue b (1..MAX_BLOCKS) holds messages of b blocks; then the digests. */
const QUEUE_BASE: number[] = [0];
for (let b = 1, at = K_BYTES; b <= MAX_BLOCKS; at += QUEUE * b * 64, b++) QUEUE_BASE.push(at);
const DIGEST_BASE = QUEUE_BASE[MAX_BLOCKS]! + QUEUE * MAX_BLOCKS * 64;
const PAGES = Math.ceil((DIGEST_BASE + MAX_BLOCKS * QUEUE * 32) / 65536);

/**
 * Batches messages by length and hashes each batch `LANES` messages at a time in WebAssembly SIMD.
 *
 * Bags of cells do not come through here: cell-hasher.ts drives the same kernel ({@link hashBody}) from inside
 * WebAssembly, inputs included. This is the kernel's front end for arbitrary messages, which is how its tests hold
 * it against node:crypto on every length.
 *
 * Use: {@link push} reserves room for a message and returns where to write it (padding is already in place);
 * when a queue is full, or on {@link flush}, its messages are hashed and `done(tag, at)` is called for each, with
 * the digest at `mem[at, at + 32)` (valid until the next push or flush). Messages pushed before a flush must not
 * depend on each other's digests.
 */
export class Sha256Lanes {
  readonly mem: Uint8Array;
  /** The same memory as 32-bit words, for copying digests out eight words at a time. */
  readonly mem32: Int32Array;
  /** And as a DataView, for writing messages at any byte offset. */
  readonly view: DataView;
  /** Called with each message's tag and digest offset as its queue is hashed. */
  done: (tag: number, at: number) => void = () => {};
  private readonly fn: HashFn;
  private readonly fill = new Int32Array(MAX_BLOCKS + 1);
  private readonly tags = new Int32Array((MAX_BLOCKS + 1) * QUEUE);
  private busy = false;

  private constructor(exports: Record<string, unknown>) {
    const buffer = (exports.memory as { buffer: ArrayBuffer }).buffer;
    this.mem = new Uint8Array(buffer);
    this.mem32 = new Int32Array(buffer);
    this.view = new DataView(buffer);
    this.fn = exports.hash as HashFn;
  }

  /** A new instance, or null when this runtime has no WebAssembly SIMD (hash with sha256.ts then). */
  static create(): Sha256Lanes | null {
    const module = compiled();
    if (module === null) return null;
    try {
      return new Sha256Lanes(new (wasmApi()!.Instance)(module).exports);
    } catch {
      // Out of memory for the instance's memory: the scalar hash still works.
      return null;
    }
  }

  /**
   * The thread's shared instance, or null when SIMD is unavailable or the instance is in use (a caller must not
   * hold it across anything that could hash another bag). Release it with {@link release}.
   *
   * Shared rather than one per bag because an instance costs ~30 µs to create and, like every WebAssembly
   * memory, reserves gigabytes of address space for guard regions until it is garbage collected: one per block
   * at thousands of blocks a second can run out of address space before the collector catches up. Its memory is
   * scratch that never outlives one {@link acquire}/{@link release} span, so sharing it leaks nothing between bags.
   */
  static acquire(): Sha256Lanes | null {
    if (shared === undefined) shared = Sha256Lanes.create();
    if (shared === null || shared.busy) return null;
    shared.busy = true;
    return shared;
  }

  /** Drops unhashed messages and hands the instance back. */
  release(): void {
    this.fill.fill(0);
    this.done = () => {};
    this.busy = false;
  }

  /** Reserves room for a message of `len` bytes (at most 64·MAX_BLOCKS − 9) tagged `tag`; returns its offset. */
  push(len: number, tag: number): number {
    const blocks = (len + 9 + 63) >> 6;
    if (this.fill[blocks] === QUEUE) this.flushQueue(blocks);
    const n = this.fill[blocks]!;
    this.fill[blocks] = n + 1;
    this.tags[blocks * QUEUE + n] = tag;
    const at = QUEUE_BASE[blocks]! + n * blocks * 64;
    padInPlace(this.view, at, len);
    return at;
  }

  /** Hashes every queued message. */
  flush(): void {
    for (let b = 1; b <= MAX_BLOCKS; b++) if (this.fill[b] !== 0) this.flushQueue(b);
  }

  private flushQueue(blocks: number): void {
    const n = this.fill[blocks]!;
    const out = DIGEST_BASE + (blocks - 1) * QUEUE * 32;
    this.fn(QUEUE_BASE[blocks]!, blocks * 64, blocks, Math.ceil(n / LANES), out);
    this.fill[blocks] = 0;
    const done = this.done;
    const tags = this.tags;
    for (let k = 0; k < n; k++) done(tags[blocks * QUEUE + k]!, out + k * 32);
  }
}

/**
 * Mutable module state, on purpose: the compiled module (immutable code, ~10 ms to emit and compile, so built on
 * first use rather than at import) and the shared instance of {@link Sha256Lanes.acquire}. Both are per thread.
 */
let module: object | null | undefined;
let shared: Sha256Lanes | null | undefined;

export function wasmApi(): WasmApi | undefined {
  return (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
}

/** Null when this runtime has no WebAssembly or no SIMD: a module using v128 fails validation there. */
function compiled(): object | null {
  if (module === undefined) {
    try {
      const api = wasmApi();
      module = api ? new api.Module(sha256MultiWasm(PAGES)) : null;
    } catch {
      module = null;
    }
  }
  return module;
}

/**
 * Pads the message `view[at, at + len)` in place (FIPS 180-4 §5.1.1) and returns its length in 64-byte blocks.
 * Only bytes from `at + len` on are written, so the message may be written before or after. `at` must be a
 * multiple of 4. Messages here are far below 2^29 bytes, so the high word of the bit length is zero.
 */
export function padInPlace(view: DataView, at: number, len: number): number {
  const blocks = (len + 9 + 63) >> 6;
  const end = at + blocks * 64;
  let k = at + len;
  view.setUint8(k++, 0x80);
  for (; (k & 3) !== 0; k++) view.setUint8(k, 0);
  for (; k < end - 4; k += 4) view.setInt32(k, 0);
  view.setUint32(end - 4, len * 8);
  return blocks;
}
