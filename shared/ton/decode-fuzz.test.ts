import { Cell } from '@ton/core';
import { expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../test/helpers/fixtures.js';
import { Boc } from './boc/reader.js';
import { decodeBlock } from './decode-block.js';
import { DecodeError, type DecodeErrorCode } from './errors.js';
import { patience } from '../../test/helpers/patience.js';

/*
 * Seeded, deterministic mutation fuzzing of decodeBlock over real blocks: whatever the bytes, it returns records
 * (that serialize to JSON) or throws a DecodeError with a known code; never another error type, never a hang.
 */

const SEED = 0x7f4a7c15;
const CASES = 1500;
/** Only a hang detector (each decode is bounded by its input); generous for a slow or busy machine. */
const BUDGET_MS = patience(30_000);

const FILES = [
  'mainnet_0_8000000000000000_29836576_empty.boc',
  'mainnet_0_0d83800000000000_4168601.boc',
  'mainnet_-1_8000000000000000_49383163_trimmed_shard_fsm.boc',
  'mainnet_-1_8000000000000000_34974098.boc',
  'mainnet_-1_8000000000000000_24374597.boc',
  'mainnet_-1_8000000000000000_17734191.boc',
  'mainnet_0_8000000000000000_34703989_nft.boc',
  'mainnet_0_a000000000000000_54302203.boc',
];

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

/** mulberry32: small, fast, deterministic. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Base {
  name: string;
  bytes: Buffer;
  /** Byte ranges of each cell's data (from a clean parse), for mutations that reach the TL-B loaders. */
  cells: Array<{ off: number; len: number }>;
}

function base(name: string, bytes: Buffer): Base {
  const boc = Boc.parse(bytes);
  const cells: Base['cells'] = [];
  for (let i = 0; i < boc.count; i++) {
    const d2 = boc.d2[i]!;
    const len = (d2 >> 1) + (d2 & 1);
    if (len > 0) cells.push({ off: boc.dataOff[i]!, len });
  }
  return { name, bytes, cells };
}

type Mutation = (b: Buffer, r: () => number, cells: Base['cells']) => { out: Buffer; what: string };
const int = (r: () => number, n: number): number => Math.floor(r() * n);

const MUTATIONS: Mutation[] = [
  (b, r, cells) => {
    // Flip 1..3 bits inside one cell's data: exercises the TL-B loaders.
    const out = Buffer.from(b);
    const c = cells[int(r, cells.length)]!;
    const flips: number[] = [];
    for (let k = 0, n = 1 + int(r, 3); k < n; k++) {
      const bit = int(r, c.len * 8);
      out[c.off + (bit >> 3)] = out[c.off + (bit >> 3)]! ^ (0x80 >> (bit & 7));
      flips.push(c.off * 8 + bit);
    }
    return { out, what: `flip cell-data bits ${flips.join(',')}` };
  },
  (b, r, cells) => {
    const out = Buffer.from(b);
    const c = cells[int(r, cells.length)]!;
    const at = c.off + int(r, c.len);
    const v = [0x00, 0xff, int(r, 256)][int(r, 3)]!;
    out[at] = v;
    return { out, what: `set byte ${at} = ${v}` };
  },
  (b, r) => {
    const out = Buffer.from(b);
    const bit = int(r, out.length * 8);
    out[bit >> 3] = out[bit >> 3]! ^ (0x80 >> (bit & 7));
    return { out, what: `flip bit ${bit} anywhere` };
  },
  (b, r) => {
    // Header region: counts, sizes, root index, first descriptors.
    const out = Buffer.from(b);
    const at = 4 + int(r, Math.min(40, out.length - 4));
    out[at] = int(r, 256);
    return { out, what: `header byte ${at} = ${out[at]}` };
  },
  (b, r) => {
    const len = int(r, b.length);
    return { out: b.subarray(0, len), what: `truncate to ${len}` };
  },
  (b, r) => {
    const at = int(r, b.length);
    const n = 1 + int(r, 8);
    return { out: Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + n))]), what: `delete ${n} at ${at}` };
  },
  (b, r) => {
    const at = int(r, b.length);
    const ins = Buffer.from(Array.from({ length: 1 + int(r, 8) }, () => int(r, 256)));
    return { out: Buffer.concat([b.subarray(0, at), ins, b.subarray(at)]), what: `insert ${ins.length} at ${at}` };
  },
  (b, r, cells) => {
    // Swap two cells' first data bytes (constructor tags land in the wrong places).
    const out = Buffer.from(b);
    const x = cells[int(r, cells.length)]!;
    const y = cells[int(r, cells.length)]!;
    const t = out[x.off]!;
    out[x.off] = out[y.off]!;
    out[y.off] = t;
    return { out, what: `swap first bytes at ${x.off} and ${y.off}` };
  },
];

describeFixtures('decodeBlock mutation fuzz', () => {
  it(`${CASES} seeded mutations: result or DecodeError, nothing else, within ${BUDGET_MS / 1000} s`, () => {
    // Each block twice: as stored (most have a CRC32C, which catches most damage early) and re-serialized by
    // @ton/core without CRC or index, so that damage reaches cell parsing and the TL-B loaders.
    const bases: Base[] = [];
    for (const f of FILES) {
      const raw = readFixture(`blocks/${f}`);
      bases.push(base(`${f} (as stored)`, raw));
      bases.push(base(`${f} (no crc)`, Cell.fromBoc(raw)[0]!.toBoc({ idx: false, crc32: false })));
    }
    // The unmutated inputs decode.
    for (const b of bases) expect(() => decodeBlock(b.bytes), b.name).not.toThrow();

    const r = rng(SEED);
    const outcomes = new Map<string, number>();
    const failures: string[] = [];
    let slowest = { ms: 0, what: '' };
    const started = performance.now();
    for (let i = 0; i < CASES; i++) {
      const b = bases[i % bases.length]!;
      // Mostly CRC-less inputs: a CRC'd input mostly stops at BOC_BAD_CRC.
      const src = b.name.endsWith('(no crc)') || r() < 0.3 ? b : bases[(i + 1) % bases.length]!;
      const { out, what } = MUTATIONS[int(r, MUTATIONS.length)]!(src.bytes, r, src.cells);
      const label = `case ${i} [${src.name}] ${what}`;
      const t0 = performance.now();
      try {
        const res = decodeBlock(out);
        JSON.stringify(res);
        outcomes.set('ok', (outcomes.get('ok') ?? 0) + 1);
      } catch (e) {
        if (e instanceof DecodeError && CODES.has(e.code) && e.message.length > 0) {
          outcomes.set(e.code, (outcomes.get(e.code) ?? 0) + 1);
        } else {
          const err = e as Error;
          failures.push(`${label}: ${err?.constructor?.name ?? typeof e}: ${err?.message ?? String(e)}`);
        }
      }
      const ms = performance.now() - t0;
      if (ms > slowest.ms) slowest = { ms, what: label };
    }
    const elapsed = performance.now() - started;

    expect(failures.slice(0, 20), `${failures.length} non-DecodeError failures`).toEqual([]);
    expect(elapsed, `total ${elapsed.toFixed(0)} ms; slowest ${slowest.ms.toFixed(0)} ms: ${slowest.what}`).toBeLessThan(BUDGET_MS);
    // The fuzz reached the TL-B loaders, not only the BOC reader.
    const tlb = (outcomes.get('TLB_UNKNOWN_CONSTRUCTOR') ?? 0) + (outcomes.get('TLB_UNDERFLOW') ?? 0) + (outcomes.get('TLB_INVALID') ?? 0);
    expect(tlb, JSON.stringify(Object.fromEntries(outcomes))).toBeGreaterThan(100);
  });
});
