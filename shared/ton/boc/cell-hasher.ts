/**
 * Cell hashing of a whole batch inside WebAssembly: hash inputs assembled, padded, queued, hashed in SIMD lanes
 * (sha256-multi.ts) and the digests put in place, with one call from JavaScript per batch.
 *
 * Why: SHA-256 itself is under half of what hashing a block costs when JavaScript assembles each cell's hash
 * input and hands it to the lanes one message at a time (about 190 ns of bookkeeping per message against 180 ns of
 * hashing, bench/RESULTS.md, decode). A block's root hash needs every cell hashed, above pruned branches twice, so
 * that bookkeeping is paid 70,000 times per pass over the fixture blocks.
 *
 * The rules are the ones `Boc.writeHashInput` implements (tvm.pdf §3.1.4–3.1.6, crypto/vm/cells/DataCell.cpp):
 * hash number `hi` of a cell is taken at level `levelOf(mask, hi)`; its input is the descriptor as seen at that
 * level, the data (first hash, and every hash of a pruned branch) or else the previous hash, then each child's depth
 * and hash at that level (one level up under a Merkle cell). A pruned branch's lower hashes and depths are copied
 * from its data. What stays in JavaScript: the order (cells by height), and checking a Merkle cell's stored child
 * hashes against the computed ones (a few per block).
 *
 * Like sha256-multi.ts, the module is assembled from the code below, not checked in as a binary.
 */

import { SHA256_K } from './sha256.js';
import { MAX_DEPTH, levelOf, popcount } from './levels.js';
import { Code, I32, K_BYTES, OP, SIMD, hashBody, name, section, sleb, uleb, wasmApi } from './sha256-multi.js';

/** Messages per queue (one queue per block count 1..5). */
const QUEUE = 256;
const MAX_BLOCKS = 5;
/** Bytes after each queue that the 16-byte copies and zero fills of its last message may run into. */
const SLACK = 16;

// Fixed layout after the round constants.
const QUEUE_BASE: number[] = [0];
let at = K_BYTES;
for (let b = 1; b <= MAX_BLOCKS; b++) {
  QUEUE_BASE.push(at);
  at += QUEUE * b * 64 + SLACK + 48;
}
const DIGESTS = at;
at += QUEUE * 32;
const FILL = at;
at += (MAX_BLOCKS + 1) * 4;
const TAGS = at;
at += (MAX_BLOCKS + 1) * QUEUE * 4;
const QBASE_TABLE = at;
at += (MAX_BLOCKS + 1) * 4;
/** levelOf(mask, hi) for mask 0..7, hi 0..3. */
const LEVEL_OF = at;
at += 8 * 4;
/** Which stored lower hash serves `level` (0..4) of a cell with level mask `mask`, or -1 for its own hash. */
const LOW_INDEX = at;
at += 8 * 5;
/** Descriptor bits 5..7 as seen at `level`: mask & (2^level − 1), shifted. */
const PARAMS = (at + 15) & ~15;
/** Parameter slots (i32) of one run, written by JavaScript before calling `cells`. */
const P = {
  bytes: 0,
  d1: 1,
  d2: 2,
  dataOff: 3,
  refs: 4,
  lowSlot: 5,
  hashed: 6,
  hashes: 7,
  depths: 8,
  lowHashes: 9,
  lowDepths: 10,
  order: 11,
  starts: 12,
  maxHeight: 13,
  multi: 14,
  errorDepth: 15,
} as const;
const PARAM_COUNT = 16;
/** Where a run's arrays start. */
export const DYNAMIC_BASE = (PARAMS + PARAM_COUNT * 4 + 63) & ~63;

// More opcodes than the SHA kernel needs (WebAssembly core spec §5.4).
const O = {
  if: 0x04,
  else: 0x05,
  return: 0x0f,
  call: 0x10,
  drop: 0x1a,
  select: 0x1b,
  localTee: 0x22,
  i32Load: 0x28,
  i32Load8S: 0x2c,
  i32Load8U: 0x2d,
  i32Load16U: 0x2f,
  i32Store: 0x36,
  i32Store8: 0x3a,
  i32Store16: 0x3b,
  i32Eqz: 0x45,
  i32Eq: 0x46,
  i32Ne: 0x47,
  i32LtS: 0x48,
  i32LtU: 0x49,
  i32GtU: 0x4b,
  i32LeU: 0x4d,
  i32GeS: 0x4e,
  i32GeU: 0x4f,
  i32Popcnt: 0x69,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32And: 0x71,
  i32Or: 0x72,
  i32Xor: 0x73,
  i32Shl: 0x74,
  i32ShrU: 0x76,
} as const;
const EMPTY = 0x40;

/** A function body with named i32 locals and a few structured-control helpers. */
class Fn extends Code {
  private readonly names = new Map<string, number>();
  private count: number;
  /** Index of the first local after the parameters (the locals header declares the rest). */
  private readonly firstLocal: number;

  constructor(params: string[], locals: string[]) {
    super();
    params.forEach((p, i) => this.names.set(p, i));
    this.count = params.length;
    this.firstLocal = params.length;
    for (const l of locals) this.names.set(l, this.count++);
  }

  private local(n: string): number {
    const i = this.names.get(n);
    if (i === undefined) throw new Error(`cell-hasher: no local ${n}`);
    return i;
  }

  g(n: string): this {
    this.get(this.local(n));
    return this;
  }

  s(n: string): this {
    this.set(this.local(n));
    return this;
  }

  c(v: number): this {
    this.i32(v);
    return this;
  }

  o(...codes: number[]): this {
    for (const code of codes) this.op(code);
    return this;
  }

  /** Loads parameter slot `p`. */
  p(slot: number): this {
    return this.c(0).mem32(O.i32Load, PARAMS + slot * 4);
  }

  mem32(code: number, offset: number, align = 0): this {
    this.op(code);
    uleb(this.b, align);
    uleb(this.b, offset);
    return this;
  }

  load8(offset = 0): this {
    return this.mem32(O.i32Load8U, offset);
  }

  load16(offset = 0): this {
    return this.mem32(O.i32Load16U, offset);
  }

  load32(offset = 0): this {
    return this.mem32(O.i32Load, offset);
  }

  store8(offset = 0): this {
    return this.mem32(O.i32Store8, offset);
  }

  store16(offset = 0): this {
    return this.mem32(O.i32Store16, offset);
  }

  store32(offset = 0): this {
    return this.mem32(O.i32Store, offset);
  }

  /** Unaligned v128 load/store. */
  vload(offset = 0): this {
    this.simd(SIMD.load);
    uleb(this.b, 0);
    uleb(this.b, offset);
    return this;
  }

  vstore(offset = 0): this {
    this.simd(SIMD.store);
    uleb(this.b, 0);
    uleb(this.b, offset);
    return this;
  }

  vzero(): this {
    this.vconst([0, 0, 0, 0]);
    return this;
  }

  /** if (cond on the stack) { then } else { otherwise } */
  ifElse(then: () => void, otherwise?: () => void): this {
    this.op(O.if);
    this.op(EMPTY);
    then();
    if (otherwise) {
      this.op(O.else);
      otherwise();
    }
    this.op(OP.end);
    return this;
  }

  /** while (cond()) { body() } — `cond` pushes an i32. */
  while(cond: () => void, body: () => void): this {
    this.op(OP.block);
    this.op(EMPTY);
    this.op(OP.loop);
    this.op(EMPTY);
    cond();
    this.op(O.i32Eqz);
    this.op(OP.brIf);
    uleb(this.b, 1);
    body();
    this.op(OP.br);
    uleb(this.b, 0);
    this.op(OP.end);
    this.op(OP.end);
    return this;
  }

  /** Copies 32 bytes from the address in local `src` to the address in local `dst`. */
  copy32(dst: string, src: string): this {
    this.g(dst).g(src).vload(0).vstore(0);
    this.g(dst).g(src).vload(16).vstore(16);
    return this;
  }

  call(fn: number): this {
    this.op(O.call);
    uleb(this.b, fn);
    return this;
  }

  localsHeader(): number[] {
    const out: number[] = [];
    const n = this.count - this.firstLocal;
    if (n === 0) {
      uleb(out, 0);
      return out;
    }
    uleb(out, 1);
    uleb(out, n);
    out.push(I32);
    return out;
  }
}

// Function indices.
const F_HASH = 0;
const F_FLUSH = 1;
const F_PUSH = 2;
const F_FLUSH_ALL = 3;
const F_CELLS = 4;

/**
 * `flush(b)`: hashes queue b and moves each digest to its tag's place: the cell's hash (and its hashed flag) for a
 * tag ≥ 0, lower hash slot ~tag otherwise.
 */
function flushBody(): Fn {
  const f = new Fn(['b'], ['n', 'k', 'tag', 'src', 'dst', 'tagAt']);
  f.c(FILL).g('b').c(2).o(O.i32Shl, O.i32Add).load32().s('n');
  // hash(queue, stride = 64·b, blocks = b, groups = ⌈n/4⌉, out)
  f.c(QBASE_TABLE).g('b').c(2).o(O.i32Shl, O.i32Add).load32();
  f.g('b').c(6).o(O.i32Shl);
  f.g('b');
  f.g('n').c(3).o(O.i32Add).c(2).o(O.i32ShrU);
  f.c(DIGESTS);
  f.call(F_HASH);
  f.c(FILL).g('b').c(2).o(O.i32Shl, O.i32Add).c(0).store32();
  f.c(TAGS).g('b').c(QUEUE * 4).o(O.i32Mul, O.i32Add).s('tagAt');
  f.c(0).s('k');
  f.c(DIGESTS).s('src');
  f.while(
    () => f.g('k').g('n').o(O.i32LtU),
    () => {
      f.g('tagAt').load32().s('tag');
      f.g('tag').c(0).o(O.i32GeS).ifElse(
        () => {
          f.p(P.hashes).g('tag').c(5).o(O.i32Shl, O.i32Add).s('dst');
          f.p(P.hashed).g('tag').o(O.i32Add).c(1).store8();
        },
        () => {
          f.p(P.lowHashes).g('tag').c(-1).o(O.i32Xor).c(5).o(O.i32Shl, O.i32Add).s('dst');
        },
      );
      f.copy32('dst', 'src');
      f.g('src').c(32).o(O.i32Add).s('src');
      f.g('tagAt').c(4).o(O.i32Add).s('tagAt');
      f.g('k').c(1).o(O.i32Add).s('k');
    },
  );
  return f;
}

function flushAllBody(): Fn {
  const f = new Fn([], ['b']);
  f.c(1).s('b');
  f.while(
    () => f.g('b').c(MAX_BLOCKS).o(O.i32LeU),
    () => {
      f.c(FILL).g('b').c(2).o(O.i32Shl, O.i32Add).load32().ifElse(() => f.g('b').call(F_FLUSH));
      f.g('b').c(1).o(O.i32Add).s('b');
    },
  );
  return f;
}

/**
 * `push(cell, hi) → 0 | 1`: queues hash number `hi` of `cell` (its children's hashes, and hash hi − 1, must be in
 * place), records the depth, and returns 1 (with the depth in the errorDepth slot) when the depth exceeds the TVM's.
 */
function pushBody(): Fn {
  const f = new Fn(
    ['cell', 'hi'],
    [
      'd1', 'refCount', 'mask', 'off', 'type', 'slot', 'level', 'len', 'blocks', 'n', 'at', 'q', 'k', 'r', 'c',
      'chi', 'cd', 'depth', 'src', 'dst', 'dataLen', 'useData', 'childLevel', 'hq', 'li', 'end', 'isMerkle', 'last',
    ],
  );
  f.p(P.d1).g('cell').o(O.i32Add).load8().s('d1');
  f.g('d1').c(7).o(O.i32And).s('refCount');
  f.g('d1').c(5).o(O.i32ShrU).s('mask');
  f.p(P.dataOff).g('cell').c(2).o(O.i32Shl, O.i32Add).load32().s('off');
  // type = exotic ? first data byte : 0
  f.p(P.bytes).g('off').o(O.i32Add).load8().c(0).g('d1').c(8).o(O.i32And).o(O.select).s('type');
  f.g('type').c(3).o(O.i32Eq).g('type').c(4).o(O.i32Eq).o(O.i32Or).s('isMerkle');
  f.p(P.lowSlot).g('cell').c(2).o(O.i32Shl, O.i32Add).load32().s('slot');
  f.g('mask').o(O.i32Popcnt).s('last');
  f.c(LEVEL_OF).g('mask').c(2).o(O.i32Shl, O.i32Add).g('hi').o(O.i32Add).load8().s('level');
  // dataLen = ⌊d2/2⌋ + (d2 & 1)
  f.p(P.d2).g('cell').o(O.i32Add).load8().s('k');
  f.g('k').c(1).o(O.i32ShrU).g('k').c(1).o(O.i32And).o(O.i32Add).s('dataLen');
  f.g('hi').o(O.i32Eqz).g('type').c(1).o(O.i32Eq).o(O.i32Or).s('useData');
  // len = 2 + (useData ? dataLen : 32) + 34·refCount
  f.c(2).g('dataLen').c(32).g('useData').o(O.select).o(O.i32Add).g('refCount').c(34).o(O.i32Mul, O.i32Add).s('len');
  f.g('len').c(9 + 63).o(O.i32Add).c(6).o(O.i32ShrU).s('blocks');
  f.c(FILL).g('blocks').c(2).o(O.i32Shl, O.i32Add).load32().s('n');
  f.g('n').c(QUEUE).o(O.i32Eq).ifElse(() => {
    f.g('blocks').call(F_FLUSH);
    f.c(0).s('n');
  });
  f.c(FILL).g('blocks').c(2).o(O.i32Shl, O.i32Add).g('n').c(1).o(O.i32Add).store32();
  // tag: the cell for its representation hash, ~(lower slot) for the others
  f.c(TAGS).g('blocks').c(QUEUE * 4).o(O.i32Mul, O.i32Add).g('n').c(2).o(O.i32Shl, O.i32Add);
  f.g('cell').g('slot').c(3).o(O.i32Mul).g('hi').o(O.i32Add).c(-1).o(O.i32Xor).g('hi').g('last').o(O.i32Eq).o(O.select);
  f.store32();
  f.c(QBASE_TABLE).g('blocks').c(2).o(O.i32Shl, O.i32Add).load32().g('n').g('blocks').c(6).o(O.i32Shl, O.i32Mul, O.i32Add).s('at');
  // Descriptor as seen at `level`: refs, exotic bit, level mask cut to the levels below.
  f.g('at');
  f.g('refCount').g('d1').c(8).o(O.i32And).o(O.i32Add);
  f.g('mask').c(1).g('level').o(O.i32Shl).c(1).o(O.i32Sub, O.i32And).c(5).o(O.i32Shl, O.i32Add);
  f.store8();
  f.g('at').p(P.d2).g('cell').o(O.i32Add).load8().store8(1);
  f.g('at').c(2).o(O.i32Add).s('q');
  f.g('useData').ifElse(
    () => {
      // 16 bytes at a time; what runs past the data is overwritten below or lies in the slack.
      f.p(P.bytes).g('off').o(O.i32Add).s('src');
      f.c(0).s('k');
      f.while(
        () => f.g('k').g('dataLen').o(O.i32LtU),
        () => {
          f.g('q').g('k').o(O.i32Add).g('src').g('k').o(O.i32Add).vload().vstore();
          f.g('k').c(16).o(O.i32Add).s('k');
        },
      );
      f.g('q').g('dataLen').o(O.i32Add).s('q');
    },
    () => {
      f.p(P.lowHashes).g('slot').c(3).o(O.i32Mul).g('hi').o(O.i32Add).c(1).o(O.i32Sub).c(5).o(O.i32Shl, O.i32Add).s('src');
      f.copy32('q', 'src');
      f.g('q').c(32).o(O.i32Add).s('q');
    },
  );
  f.g('level').g('isMerkle').o(O.i32Add).s('childLevel');
  f.g('q').g('refCount').c(1).o(O.i32Shl, O.i32Add).s('hq');
  f.c(0).s('depth');
  f.c(0).s('r');
  f.while(
    () => f.g('r').g('refCount').o(O.i32LtU),
    () => {
      f.p(P.refs).g('cell').c(4).o(O.i32Shl, O.i32Add).g('r').c(2).o(O.i32Shl, O.i32Add).load32().s('c');
      // chi = LOW_INDEX[child mask][childLevel]
      f.c(LOW_INDEX).p(P.d1).g('c').o(O.i32Add).load8().c(5).o(O.i32ShrU).c(5).o(O.i32Mul, O.i32Add).g('childLevel').o(O.i32Add);
      f.mem32(O.i32Load8S, 0).s('chi');
      f.g('chi').c(0).o(O.i32LtS).ifElse(
        () => {
          f.p(P.depths).g('c').c(1).o(O.i32Shl, O.i32Add).load16().s('cd');
          f.p(P.hashes).g('c').c(5).o(O.i32Shl, O.i32Add).s('src');
        },
        () => {
          f.p(P.lowSlot).g('c').c(2).o(O.i32Shl, O.i32Add).load32().c(3).o(O.i32Mul).g('chi').o(O.i32Add).s('li');
          f.p(P.lowDepths).g('li').c(1).o(O.i32Shl, O.i32Add).load16().s('cd');
          f.p(P.lowHashes).g('li').c(5).o(O.i32Shl, O.i32Add).s('src');
        },
      );
      f.g('hq').g('r').c(5).o(O.i32Shl, O.i32Add).s('dst');
      f.copy32('dst', 'src');
      f.g('cd').c(1).o(O.i32Add).g('depth').o(O.i32GtU).ifElse(() => f.g('cd').c(1).o(O.i32Add).s('depth'));
      // depth, big-endian
      f.g('q').g('r').c(1).o(O.i32Shl, O.i32Add).s('dst');
      f.g('dst').g('cd').c(8).o(O.i32ShrU).store8();
      f.g('dst').g('cd').store8(1);
      f.g('r').c(1).o(O.i32Add).s('r');
    },
  );
  f.g('depth').c(MAX_DEPTH).o(O.i32GtU).ifElse(() => {
    f.c(PARAMS + P.errorDepth * 4).g('depth').store32();
    f.c(1).o(O.return);
  });
  f.g('hi').g('last').o(O.i32Eq).ifElse(
    () => f.p(P.depths).g('cell').c(1).o(O.i32Shl, O.i32Add).g('depth').store16(),
    () => f.p(P.lowDepths).g('slot').c(3).o(O.i32Mul).g('hi').o(O.i32Add).c(1).o(O.i32Shl, O.i32Add).g('depth').store16(),
  );
  // Padding (FIPS 180-4 §5.1.1): 0x80, zeros, the bit length (< 2^16 here) in the last two bytes.
  f.g('at').g('len').o(O.i32Add).s('q');
  f.g('at').g('blocks').c(6).o(O.i32Shl, O.i32Add).s('end');
  f.g('q').s('k');
  f.while(
    () => f.g('k').g('end').o(O.i32LtU),
    () => {
      f.g('k').vzero().vstore();
      f.g('k').c(16).o(O.i32Add).s('k');
    },
  );
  f.g('q').c(0x80).store8();
  f.g('end').c(2).o(O.i32Sub).g('len').c(5).o(O.i32ShrU).store8();
  f.g('end').c(1).o(O.i32Sub).g('len').c(3).o(O.i32Shl).store8();
  f.c(0);
  return f;
}

/**
 * `cells() → -1 | cell`: hashes the run's cells height by height (order[starts[h], starts[h + 1]) are the cells of
 * height h); a cell with a level mask gets its further hashes in rounds after its height's first hashes are in.
 * Returns the first cell whose depth exceeds the TVM's, else -1.
 */
function cellsBody(): Fn {
  const f = new Fn([], ['h', 'maxH', 'k', 'kEnd', 'cell', 'd1', 'off', 'mcount', 'keep', 'hi', 'j', 'last', 'src', 'dst', 'slot', 'x']);
  f.p(P.maxHeight).s('maxH');
  f.c(0).s('h');
  f.while(
    () => f.g('h').g('maxH').o(O.i32LeU),
    () => {
      f.c(0).s('mcount');
      f.p(P.starts).g('h').c(2).o(O.i32Shl, O.i32Add).load32().s('k');
      f.p(P.starts).g('h').c(2).o(O.i32Shl, O.i32Add).load32(4).s('kEnd');
      f.while(
        () => f.g('k').g('kEnd').o(O.i32LtU),
        () => {
          f.p(P.order).g('k').c(2).o(O.i32Shl, O.i32Add).load32().s('cell');
          f.p(P.hashed).g('cell').o(O.i32Add).load8().o(O.i32Eqz).ifElse(() => {
            f.p(P.d1).g('cell').o(O.i32Add).load8().s('d1');
            f.g('d1').c(0xe0).o(O.i32And).o(O.i32Eqz).ifElse(
              () => {
                f.g('cell').c(0).call(F_PUSH).ifElse(() => f.g('cell').o(O.return));
              },
              () => {
                f.p(P.dataOff).g('cell').c(2).o(O.i32Shl, O.i32Add).load32().s('off');
                f.g('d1').c(8).o(O.i32And).ifElse(() => f.p(P.bytes).g('off').o(O.i32Add).load8().s('x'), () => f.c(0).s('x'));
                f.g('d1').c(5).o(O.i32ShrU).o(O.i32Popcnt).s('last');
                f.g('x').c(1).o(O.i32Eq).ifElse(
                  () => {
                    // Pruned branch: data is type, mask, then `last` hashes and `last` depths of the levels below.
                    f.p(P.lowSlot).g('cell').c(2).o(O.i32Shl, O.i32Add).load32().c(3).o(O.i32Mul).s('slot');
                    f.c(0).s('hi');
                    f.while(
                      () => f.g('hi').g('last').o(O.i32LtU),
                      () => {
                        f.p(P.bytes).g('off').o(O.i32Add).c(2).o(O.i32Add).g('hi').c(5).o(O.i32Shl, O.i32Add).s('src');
                        f.p(P.lowHashes).g('slot').g('hi').o(O.i32Add).c(5).o(O.i32Shl, O.i32Add).s('dst');
                        f.copy32('dst', 'src');
                        f.p(P.bytes).g('off').o(O.i32Add).c(2).o(O.i32Add).g('last').c(5).o(O.i32Shl, O.i32Add).g('hi').c(1).o(O.i32Shl, O.i32Add).s('src');
                        f.p(P.lowDepths).g('slot').g('hi').o(O.i32Add).c(1).o(O.i32Shl, O.i32Add);
                        f.g('src').load8().c(8).o(O.i32Shl).g('src').load8(1).o(O.i32Or);
                        f.store16();
                        f.g('hi').c(1).o(O.i32Add).s('hi');
                      },
                    );
                    f.g('cell').g('last').call(F_PUSH).ifElse(() => f.g('cell').o(O.return));
                  },
                  () => {
                    f.g('cell').c(0).call(F_PUSH).ifElse(() => f.g('cell').o(O.return));
                    f.p(P.multi).g('mcount').c(2).o(O.i32Shl, O.i32Add).g('cell').store32();
                    f.g('mcount').c(1).o(O.i32Add).s('mcount');
                  },
                );
              },
            );
          });
          f.g('k').c(1).o(O.i32Add).s('k');
        },
      );
      f.call(F_FLUSH_ALL);
      f.c(1).s('hi');
      f.while(
        () => f.g('mcount'),
        () => {
          f.c(0).s('keep');
          f.c(0).s('j');
          f.while(
            () => f.g('j').g('mcount').o(O.i32LtU),
            () => {
              f.p(P.multi).g('j').c(2).o(O.i32Shl, O.i32Add).load32().s('cell');
              f.g('cell').g('hi').call(F_PUSH).ifElse(() => f.g('cell').o(O.return));
              f.g('hi').p(P.d1).g('cell').o(O.i32Add).load8().c(5).o(O.i32ShrU).o(O.i32Popcnt).o(O.i32LtU).ifElse(() => {
                f.p(P.multi).g('keep').c(2).o(O.i32Shl, O.i32Add).g('cell').store32();
                f.g('keep').c(1).o(O.i32Add).s('keep');
              });
              f.g('j').c(1).o(O.i32Add).s('j');
            },
          );
          f.g('keep').s('mcount');
          f.call(F_FLUSH_ALL);
          f.g('hi').c(1).o(O.i32Add).s('hi');
        },
      );
      f.g('h').c(1).o(O.i32Add).s('h');
    },
  );
  f.c(-1);
  return f;
}

/** The module: functions hash, flush, push, flushAll, cells (the last exported) and a growable memory. */
export function cellHasherWasm(pages: number): Uint8Array {
  const out = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  // Types: 0 hash (5 × i32) → (); 1 (i32) → (); 2 (i32, i32) → i32; 3 () → (); 4 () → i32.
  section(out, 1, [5, 0x60, 5, I32, I32, I32, I32, I32, 0, 0x60, 1, I32, 0, 0x60, 2, I32, I32, 1, I32, 0x60, 0, 0, 0x60, 0, 1, I32]);
  section(out, 3, [5, 0, 1, 2, 3, 4]);
  const mem = [1, 0x00];
  uleb(mem, pages);
  section(out, 5, mem);
  const exp = [2];
  name(exp, 'cells');
  exp.push(0x00, F_CELLS);
  name(exp, 'memory');
  exp.push(0x02, 0);
  section(out, 7, exp);
  const sha = hashBody(1);
  const bodies: number[][] = [[...sha.locals, ...sha.code]];
  for (const f of [flushBody(), pushBody(), flushAllBody(), cellsBody()]) bodies.push([...f.localsHeader(), ...f.b, OP.end]);
  const code = [bodies.length];
  for (const b of bodies) {
    uleb(code, b.length);
    code.push(...b);
  }
  section(out, 10, code);
  const data: number[] = [];
  const segment = (offset: number, bytes: number[]): void => {
    data.push(0x00, OP.i32Const);
    sleb(data, offset);
    data.push(OP.end);
    uleb(data, bytes.length);
    data.push(...bytes);
  };
  const k: number[] = [];
  for (const w of SHA256_K) for (let j = 0; j < 4; j++) k.push(w & 255, (w >>> 8) & 255, (w >>> 16) & 255, w >>> 24);
  const qbase: number[] = [];
  for (let b = 0; b <= MAX_BLOCKS; b++) qbase.push(...le32(QUEUE_BASE[b]!));
  const levels: number[] = [];
  for (let mask = 0; mask < 8; mask++) for (let hi = 0; hi < 4; hi++) levels.push(hi <= popcount(mask) ? levelOf(mask, hi) : 0);
  const lows: number[] = [];
  for (let mask = 0; mask < 8; mask++) {
    for (let level = 0; level < 5; level++) {
      const hi = popcount(mask & ((1 << level) - 1));
      lows.push(mask === 0 || hi >= popcount(mask) ? 0xff : hi);
    }
  }
  const segments: Array<[number, number[]]> = [
    [0, k],
    [QBASE_TABLE, qbase],
    [LEVEL_OF, levels],
    [LOW_INDEX, lows],
  ];
  data.push(segments.length);
  for (const [offset, bytes] of segments) segment(offset, bytes);
  section(out, 11, data);
  return new Uint8Array(out);
}

function le32(v: number): number[] {
  return [v & 255, (v >>> 8) & 255, (v >>> 16) & 255, v >>> 24];
}

/** What a run reads and fills: a bag's cell table and hash state (reader.ts `Boc` passes its own arrays). */
export interface CellTable {
  bytes: Uint8Array;
  d1: Uint8Array;
  d2: Uint8Array;
  dataOff: Uint32Array;
  refs: Int32Array;
  lowSlot: Int32Array;
  hashed: Uint8Array;
  hashes: Uint8Array;
  depths: Uint16Array;
  lowHashes: Uint8Array;
  lowDepths: Uint16Array;
}

interface HasherExports {
  cells: () => number;
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
}

/** Outcome of a run: every cell hashed, or the first cell found deeper than the TVM allows (nothing written back). */
export type RunResult = { ok: true } | { ok: false; cell: number; depth: number };

/**
 * One instance of the module with its memory. Per thread, shared by every bag ({@link acquire}), for the reason
 * Sha256Lanes gives: an instance reserves gigabytes of address space until collected.
 */
export class CellHasher {
  private busy = false;

  private constructor(private readonly exports: HasherExports) {}

  /** The thread's instance, or null without WebAssembly SIMD or while in use. Release it with {@link release}. */
  static acquire(): CellHasher | null {
    if (shared === undefined) shared = CellHasher.create();
    if (shared === null || shared.busy) return null;
    shared.busy = true;
    return shared;
  }

  release(): void {
    this.busy = false;
  }

  /** A new instance, or null when this runtime has no WebAssembly SIMD. */
  static create(): CellHasher | null {
    try {
      const api = wasmApi();
      if (!api) return null;
      const instance = new api.Instance(new api.Module(cellHasherWasm(Math.ceil(DYNAMIC_BASE / 65536) + 1)));
      return new CellHasher(instance.exports as unknown as HasherExports);
    } catch {
      return null;
    }
  }

  /**
   * Hashes the cells of `order` (grouped by height: those of height h are order[starts[h], starts[h + 1])) and
   * writes hashes, depths, lower hashes and hashed flags back into `t`. Cells already hashed are skipped; the
   * caller checks Merkle cells' stored hashes afterwards.
   */
  run(t: CellTable, order: Int32Array, starts: Int32Array, maxHeight: number, anyHashed: boolean): RunResult {
    const count = t.d1.length;
    const slots = t.lowDepths.length / 3;
    let p = DYNAMIC_BASE;
    const place = (bytes: number): number => {
      const at = p;
      p = (p + bytes + 16 + 15) & ~15;
      return at;
    };
    const layout = {
      bytes: place(t.bytes.length),
      d1: place(count),
      d2: place(count),
      dataOff: place(count * 4),
      refs: place(count * 16),
      lowSlot: place(count * 4),
      hashed: place(count),
      hashes: place(count * 32),
      depths: place(count * 2),
      lowHashes: place(slots * 96),
      lowDepths: place(slots * 6),
      order: place(order.length * 4),
      starts: place(starts.length * 4),
      multi: place(order.length * 4),
    };
    const memory = this.exports.memory;
    if (memory.buffer.byteLength < p) memory.grow(Math.ceil((p - memory.buffer.byteLength) / 65536));
    const buf = memory.buffer;
    const u8 = new Uint8Array(buf);
    u8.set(t.bytes, layout.bytes);
    u8.set(t.d1, layout.d1);
    u8.set(t.d2, layout.d2);
    new Uint32Array(buf, layout.dataOff, count).set(t.dataOff);
    new Int32Array(buf, layout.refs, count * 4).set(t.refs);
    new Int32Array(buf, layout.lowSlot, count).set(t.lowSlot);
    if (anyHashed) {
      // Children outside the batch may be hashed already: their hashes are inputs.
      u8.set(t.hashed, layout.hashed);
      u8.set(t.hashes, layout.hashes);
      new Uint16Array(buf, layout.depths, count).set(t.depths);
      u8.set(t.lowHashes, layout.lowHashes);
      new Uint16Array(buf, layout.lowDepths, slots * 3).set(t.lowDepths);
    } else {
      u8.fill(0, layout.hashed, layout.hashed + count);
    }
    new Int32Array(buf, layout.order, order.length).set(order);
    new Int32Array(buf, layout.starts, starts.length).set(starts);
    const params = new Int32Array(buf, PARAMS, PARAM_COUNT);
    params[P.bytes] = layout.bytes;
    params[P.d1] = layout.d1;
    params[P.d2] = layout.d2;
    params[P.dataOff] = layout.dataOff;
    params[P.refs] = layout.refs;
    params[P.lowSlot] = layout.lowSlot;
    params[P.hashed] = layout.hashed;
    params[P.hashes] = layout.hashes;
    params[P.depths] = layout.depths;
    params[P.lowHashes] = layout.lowHashes;
    params[P.lowDepths] = layout.lowDepths;
    params[P.order] = layout.order;
    params[P.starts] = layout.starts;
    params[P.maxHeight] = maxHeight;
    params[P.multi] = layout.multi;
    // Queues left half-full by a run that failed must not leak into this one.
    new Int32Array(buf, FILL, MAX_BLOCKS + 1).fill(0);
    const failed = this.exports.cells();
    if (failed >= 0) return { ok: false, cell: failed, depth: params[P.errorDepth]! };
    if (order.length * 4 >= count) {
      t.hashed.set(u8.subarray(layout.hashed, layout.hashed + count));
      t.hashes.set(u8.subarray(layout.hashes, layout.hashes + count * 32));
      t.depths.set(new Uint16Array(buf, layout.depths, count));
      t.lowHashes.set(u8.subarray(layout.lowHashes, layout.lowHashes + slots * 96));
      t.lowDepths.set(new Uint16Array(buf, layout.lowDepths, slots * 3));
    } else {
      // A small batch in a large bag (a block's transactions when the root hash is known): only its cells.
      copyBack(t, buf, layout, order);
    }
    return { ok: true };
  }
}

/** Copies the results for the cells of `order` from the module's memory into `t`, eight words per hash. */
function copyBack(t: CellTable, buf: ArrayBuffer, layout: { hashed: number; hashes: number; depths: number; lowHashes: number; lowDepths: number }, order: Int32Array): void {
  const count = t.d1.length;
  const slots = t.lowDepths.length / 3;
  const hashed = new Uint8Array(buf, layout.hashed, count);
  const hashes = new Int32Array(buf, layout.hashes, count * 8);
  const depths = new Uint16Array(buf, layout.depths, count);
  const low = new Int32Array(buf, layout.lowHashes, slots * 24);
  const lowDepths = new Uint16Array(buf, layout.lowDepths, slots * 3);
  const outHashes = new Int32Array(t.hashes.buffer, t.hashes.byteOffset, count * 8);
  const outLow = new Int32Array(t.lowHashes.buffer, t.lowHashes.byteOffset, slots * 24);
  for (let k = 0; k < order.length; k++) {
    const c = order[k]!;
    t.hashed[c] = hashed[c]!;
    t.depths[c] = depths[c]!;
    for (let w = c * 8, end = w + 8; w < end; w++) outHashes[w] = hashes[w]!;
    if (t.d1[c]! >> 5 !== 0) {
      const slot = t.lowSlot[c]!;
      for (let w = slot * 24, end = w + 24; w < end; w++) outLow[w] = low[w]!;
      for (let d = slot * 3; d < slot * 3 + 3; d++) t.lowDepths[d] = lowDepths[d]!;
    }
  }
}

/** Per thread: the compiled module and the shared instance (see {@link CellHasher.acquire}). */
let shared: CellHasher | null | undefined;

