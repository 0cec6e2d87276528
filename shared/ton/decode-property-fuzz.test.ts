import { readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { describeFixtures, fixturesDir, readFixture } from '../../test/helpers/fixtures.js';
import { crc32c } from './boc/crc32c.js';
import { Boc } from './boc/reader.js';
import { decodeBlock } from './decode-block.js';
import { DecodeError, type DecodeErrorCode } from './errors.js';

/*
 * Property-based fuzzing (fast-check) of the block decoder, complementing the seeded mutation loops of
 * boc/fuzz.test.ts and decode-fuzz.test.ts with what random mutation rarely produces:
 *  - damage behind a valid CRC: truncations, bit flips and header overwrites of every fixture block as stored, with
 *    the CRC-32C recomputed (boc/crc32c.ts), so the damage reaches the header, index, cell and TL-B parsers
 *    (a BOC the block loaders refuse is still read, hashed and measured as cells, as a message body would be);
 *  - resource bombs built from scratch (boc.tlb `serialized_boc#b5ee9c72`): headers claiming up to 2^32 - 1 cells
 *    or 2^64 - 1 bytes, a chain of up to 2^16 nested references (deeper than any cell may be), DAGs whose tree has
 *    2^1000 paths, references out of range, to themselves or backwards (cycles), bad root lists and descriptors.
 * Every input must end in a DecodeError with one of the decoder's codes (errors.ts) or a decode whose records
 * serialize, in a time bounded relative to this machine: a generous multiple of how long the largest fixture block
 * takes to decode here, so that a slow or busy machine widens the bound instead of failing the test, while
 * super-linear work (a tree walk of a DAG, a 2^32 allocation) still exceeds it by orders of magnitude.
 */

const SEED = 0x5eed_b0c5;

const CODES: ReadonlySet<DecodeErrorCode> = new Set<DecodeErrorCode>([
  'BOC_BAD_MAGIC',
  'BOC_TRUNCATED',
  'BOC_BAD_HEADER',
  'BOC_BAD_CRC',
  'BOC_BAD_INDEX',
  'BOC_BAD_CELL',
  'TLB_UNKNOWN_CONSTRUCTOR',
  'TLB_UNDERFLOW',
  'TLB_INVALID',
]);

/** The whole decoder on `bytes`: the block decode, and for a BOC that is not a block, the BOC reader's full pass. */
function exercise(bytes: Uint8Array): string {
  let tlb: string;
  try {
    JSON.stringify(decodeBlock(bytes), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Map ? [...v] : v));
    return 'block';
  } catch (e) {
    if (!(e instanceof DecodeError) || !e.code.startsWith('TLB_')) throw e;
    tlb = e.code;
  }
  // Not a block: the cells are still read, hashed and measured, as a message body or state BOC would be.
  const boc = Boc.parse(bytes);
  boc.hashAll();
  boc.hash(boc.root);
  boc.depth(boc.root);
  return `${tlb}, cells read`;
}

interface Outcome {
  result: string;
  /** Anything other than a result or a DecodeError with a known code. */
  crash?: string;
  ms: number;
}

function run(bytes: Uint8Array): Outcome {
  const t0 = performance.now();
  try {
    const result = exercise(bytes);
    return { result, ms: performance.now() - t0 };
  } catch (e) {
    const ms = performance.now() - t0;
    if (e instanceof DecodeError && CODES.has(e.code) && e.message.length > 0) return { result: e.code, ms };
    const err = e as Error;
    return { result: 'crash', crash: `${err?.constructor?.name ?? typeof e}: ${err?.message ?? String(e)}`, ms };
  }
}

// ---- building BOCs by hand (boc.tlb serialized_boc), independent of the writer under test -----------------------

interface RawCell {
  /** Descriptor bytes; default: refs count, level 0, ordinary; data byte-aligned. */
  d1?: number;
  d2?: number;
  data?: Uint8Array;
  refs: number[];
}

interface BocShape {
  cells: RawCell[];
  /** Bytes per cell index (1..4 in valid BOCs). */
  size?: number;
  offBytes?: number;
  /** The cell count written in the header; default the real count. */
  claimedCells?: number;
  roots?: number[];
  absent?: number;
  /** tot_cells_size as written; default the real size. */
  totCellsSize?: bigint;
  index?: boolean;
  crc?: boolean;
}

function uintBE(v: bigint, n: number): number[] {
  const out: number[] = [];
  for (let i = n - 1; i >= 0; i--) out.push(Number((v >> BigInt(8 * i)) & 0xffn));
  return out;
}

function buildBoc(s: BocShape): Uint8Array {
  const size = s.size ?? Math.max(1, Math.ceil(Math.log2(s.cells.length + 1) / 8));
  const cellBytes = s.cells.map((c) => {
    const data = c.data ?? new Uint8Array(0);
    const d1 = c.d1 ?? c.refs.length;
    const d2 = c.d2 ?? data.length * 2;
    return [d1, d2, ...data, ...c.refs.flatMap((r) => uintBE(BigInt(r), size))];
  });
  const total = cellBytes.reduce((n, c) => n + c.length, 0);
  const offBytes = s.offBytes ?? Math.max(1, Math.ceil(Math.log2(total + 1) / 8));
  const index = s.index ?? false;
  const crc = s.crc ?? true;
  const out: number[] = [0xb5, 0xee, 0x9c, 0x72, (index ? 0x80 : 0) | (crc ? 0x40 : 0) | (size & 7), offBytes];
  const roots = s.roots ?? [0];
  out.push(...uintBE(BigInt(s.claimedCells ?? s.cells.length), size), ...uintBE(BigInt(roots.length), size), ...uintBE(BigInt(s.absent ?? 0), size));
  out.push(...uintBE(s.totCellsSize ?? BigInt(total), offBytes));
  for (const r of roots) out.push(...uintBE(BigInt(r), size));
  if (index) {
    let end = 0;
    for (const c of cellBytes) out.push(...uintBE(BigInt((end += c.length)), offBytes));
  }
  for (const c of cellBytes) for (const b of c) out.push(b);
  const bytes = new Uint8Array(out.length + (crc ? 4 : 0));
  bytes.set(out);
  if (crc) withCrc(bytes);
  return bytes;
}

/** Rewrites the trailing CRC-32C (little-endian) over everything before it, so the damage passes the checksum. */
function withCrc(b: Uint8Array): Uint8Array {
  if (b.length < 4) return b;
  const c = crc32c(b, 0, b.length - 4);
  b[b.length - 4] = c & 0xff;
  b[b.length - 3] = (c >>> 8) & 0xff;
  b[b.length - 2] = (c >>> 16) & 0xff;
  b[b.length - 1] = (c >>> 24) & 0xff;
  return b;
}

const hasCrc = (b: Uint8Array): boolean => b.length > 4 && (b[4]! & 0x40) !== 0;

// ---- arbitraries -------------------------------------------------------------------------------------------------

interface Case {
  what: string;
  bytes: Uint8Array;
}

/** Widths and counts at and past every boundary a reader might use. */
const BIG_COUNTS = [0, 1, 2, 255, 256, 65_535, 65_536, 2 ** 24 - 1, 2 ** 24, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1];

const chain = (n: number, fan = 1): RawCell[] =>
  Array.from({ length: n }, (_, i) => ({ refs: i + 1 < n ? Array.from({ length: fan }, () => i + 1) : [] }));

const bombs: fc.Arbitrary<Case> = fc.oneof(
  // A header claiming far more cells (or bytes) than the input holds.
  fc.tuple(fc.constantFrom(...BIG_COUNTS), fc.constantFrom(1, 2, 3, 4), fc.boolean()).map(([claimed, size, index]) => ({
    what: `header claims ${claimed} cells (size ${size}, index ${index})`,
    bytes: buildBoc({ cells: chain(3), size, claimedCells: claimed % 2 ** (8 * size), index }),
  })),
  fc.tuple(fc.constantFrom(0n, 1n, 2n ** 32n - 1n, 2n ** 53n + 1n, 2n ** 64n - 1n), fc.constantFrom(1, 2, 4, 8)).map(([tot, offBytes]) => ({
    what: `tot_cells_size ${tot} in ${offBytes} bytes`,
    bytes: buildBoc({ cells: chain(3), offBytes, totCellsSize: tot & ((1n << BigInt(8 * offBytes)) - 1n) }),
  })),
  // A chain of nested references: depth 1023 is the most a cell may have, 2^16 - 1 the most its 2 bytes store.
  fc.constantFrom(1_023, 1_024, 1_025, 2 ** 16 - 1, 2 ** 16, 2 ** 16 + 1).map((n) => ({ what: `chain of ${n} nested references`, bytes: buildBoc({ cells: chain(n), size: 3 }) })),
  // A DAG: each cell references the next two to four times; its tree has fan^n paths.
  fc.tuple(fc.integer({ min: 16, max: 2_000 }), fc.integer({ min: 2, max: 4 })).map(([n, fan]) => ({ what: `DAG of ${n} cells, ${fan} references each to the next`, bytes: buildBoc({ cells: chain(n, fan), size: 2 }) })),
  // References out of range, to the cell itself, backwards (a cycle).
  fc.tuple(fc.integer({ min: 2, max: 50 }), fc.nat(), fc.constantFrom('count', 'max', 'self', 'back', 'zero')).map(([n, pick, kind]) => {
    const cells = chain(n);
    const at = pick % (n - 1);
    const target = { count: n, max: 255, self: at, back: Math.max(0, at - 1), zero: 0 }[kind];
    cells[at] = { refs: [target] };
    if (kind === 'back') cells[Math.max(0, at - 1)] = { refs: [at] };
    return { what: `cell ${at} of ${n} references ${target} (${kind})`, bytes: buildBoc({ cells, size: 1 }) };
  }),
  // Root lists and absent counts that do not fit the cells.
  fc.tuple(fc.array(fc.constantFrom(0, 1, 2, 3, 255), { maxLength: 4 }), fc.constantFrom(0, 1, 3, 4, 255)).map(([roots, absent]) => ({
    what: `roots [${roots.join(',')}], absent ${absent}`,
    bytes: buildBoc({ cells: chain(3), size: 1, roots, absent }),
  })),
  // Widths a reader cannot use.
  fc.tuple(fc.constantFrom(0, 5, 7), fc.constantFrom(0, 1, 9, 255)).map(([size, offBytes]) => ({
    what: `size ${size}, off_bytes ${offBytes}`,
    bytes: buildBoc({ cells: chain(3), size, offBytes }),
  })),
  // Arbitrary descriptors and data: refs > 4, exotic cells of every type and level mask, bit lengths past 1023.
  fc
    .array(fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(12), { maxLength: 4 })), { minLength: 1, maxLength: 12 })
    .map((cs) => ({
      what: `cells ${JSON.stringify(cs.map(([d1, d2, data, refs]) => [d1, d2, data.length, refs]))}`,
      bytes: buildBoc({ cells: cs.map(([d1, d2, data, refs]) => ({ d1, d2, data, refs })), size: 1, index: cs.length % 2 === 0 }),
    })),
);

function fixtureCases(blocks: ReadonlyArray<{ name: string; bytes: Uint8Array }>): fc.Arbitrary<Case> {
  const block = fc.constantFrom(...blocks);
  const fix = (b: Uint8Array): Uint8Array => (hasCrc(b) ? withCrc(b) : b);
  // A position as a fraction of the input, spread evenly (fast-check's doubles and biased integers crowd near 0).
  const frac = fc.noBias(fc.integer({ min: 0, max: 2 ** 30 - 1 })).map((n) => n / 2 ** 30);
  return fc.oneof(
    // Truncated, the CRC recomputed over what is left (so the reader meets the truncation, not a bad checksum).
    fc.tuple(block, frac).map(([b, f]) => {
      const keep = Math.floor((b.bytes.length - 4) * f);
      const out = new Uint8Array(keep + 4);
      out.set(b.bytes.subarray(0, keep));
      return { what: `${b.name} truncated to ${keep} bytes + CRC`, bytes: keep >= 5 && hasCrc(out) ? withCrc(out) : out };
    }),
    // Bit flips anywhere before the CRC, the CRC recomputed.
    fc.tuple(block, fc.array(frac, { minLength: 1, maxLength: 8 })).map(([b, fs]) => {
      const out = Uint8Array.from(b.bytes);
      const bits = fs.map((f) => Math.floor(f * (out.length - 4) * 8));
      for (const bit of bits) out[bit >> 3] = out[bit >> 3]! ^ (0x80 >> (bit & 7));
      return { what: `${b.name} bits ${bits.join(',')} flipped + CRC`, bytes: fix(out) };
    }),
    // A header byte (flags, widths, counts, root list, start of the index) set to a boundary value, CRC recomputed.
    fc.tuple(block, fc.integer({ min: 4, max: 40 }), fc.constantFrom(0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff)).map(([b, at, v]) => {
      const out = Uint8Array.from(b.bytes);
      out[at] = v;
      return { what: `${b.name} byte ${at} = ${v} + CRC`, bytes: fix(out) };
    }),
    // A run of bytes zeroed or set inside the cell data, CRC recomputed (descriptors, refs and TL-B tags at once).
    fc.tuple(block, frac, fc.integer({ min: 1, max: 64 }), fc.constantFrom(0x00, 0xff)).map(([b, f, n, v]) => {
      const out = Uint8Array.from(b.bytes);
      const at = 40 + Math.floor(f * Math.max(1, out.length - 44 - n));
      out.fill(v, at, Math.min(out.length - 4, at + n));
      return { what: `${b.name} ${n} bytes at ${at} = ${v} + CRC`, bytes: fix(out) };
    }),
  );
}

// ---- the tests -----------------------------------------------------------------------------------------------

describeFixtures('block decoder property fuzz (fast-check): damage behind the CRC, resource bombs', () => {
  const blocks: Array<{ name: string; bytes: Uint8Array }> = [];
  /** The per-input bound, ms: see the file comment. */
  let boundMs = 0;

  beforeAll(() => {
    for (const f of readdirSync(path.join(fixturesDir, 'blocks')).filter((x) => x.endsWith('.boc')).sort()) {
      blocks.push({ name: f, bytes: readFixture(`blocks/${f}`) });
    }
    // How long the largest real block takes here (best of three, after a warm-up): the unit of the bound.
    const largest = blocks.reduce((a, b) => (b.bytes.length > a.bytes.length ? b : a));
    decodeBlock(largest.bytes);
    const times = [0, 1, 2].map(() => {
      const t0 = performance.now();
      decodeBlock(largest.bytes);
      return performance.now() - t0;
    });
    boundMs = Math.max(2_000, 30 * Math.min(...times));
  });

  function check(cases: fc.Arbitrary<Case>, numRuns: number): Record<string, number> {
    const outcomes: Record<string, number> = {};
    const problems: string[] = [];
    fc.assert(
      fc.property(cases, (c) => {
        const o = run(c.bytes);
        outcomes[o.result] = (outcomes[o.result] ?? 0) + 1;
        if (o.crash) problems.push(`${c.what} (${c.bytes.length} bytes): ${o.crash} | hex ${Buffer.from(c.bytes.subarray(0, 48)).toString('hex')}`);
        else if (o.ms > boundMs) problems.push(`${c.what} (${c.bytes.length} bytes): ${o.ms.toFixed(0)} ms > ${boundMs.toFixed(0)} ms`);
      }),
      { seed: SEED, numRuns },
    );
    console.log(JSON.stringify({ boundMs: Math.round(boundMs), outcomes }));
    expect(problems.slice(0, 10), `${problems.length} inputs ended otherwise; outcomes ${JSON.stringify(outcomes)}`).toEqual([]);
    return outcomes;
  }

  it('every fixture block, truncated, bit-flipped or overwritten behind a recomputed CRC: a DecodeError or a decode', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    // The unmutated blocks decode.
    for (const b of blocks) expect(run(b.bytes).result, b.name).toBe('block');
    const outcomes = check(fixtureCases(blocks), 300);
    // Not vacuous: the recomputed CRC lets damage through to the parsers behind it.
    expect(outcomes.BOC_BAD_CRC ?? 0, JSON.stringify(outcomes)).toBe(0);
    const reached = Object.keys(outcomes).filter((k) => k !== 'BOC_TRUNCATED');
    expect(reached.length, JSON.stringify(outcomes)).toBeGreaterThanOrEqual(4);
    // …and through the BOC reader to the TL-B loaders.
    expect(Object.keys(outcomes).some((k) => k.startsWith('TLB_')), JSON.stringify(outcomes)).toBe(true);
  });

  it('cell-count, size, depth and DAG bombs and bad references: a DecodeError or a decode, in bounded time', () => {
    // The builder is right: a plain chain is a valid BOC the reader accepts (as cells, not as a block).
    expect(run(buildBoc({ cells: chain(10) })).result).toMatch(/^TLB_\w+, cells read$/);
    const outcomes = check(bombs, 120);
    expect(Object.keys(outcomes).length, JSON.stringify(outcomes)).toBeGreaterThanOrEqual(3);
  });
});
