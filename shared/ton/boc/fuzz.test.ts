import { Cell } from '@ton/core';
import { expect, it } from 'vitest';
import { crc32cBitwise } from '../../../test/helpers/crc32c-bitwise.js';
import { describeFixtures, readFixture } from '../../../test/helpers/fixtures.js';
import { DecodeError } from '../errors.js';
import { cellHash, sliceToCell } from './built.js';
import { Boc } from './reader.js';
import { Slice } from './slice.js';
import { serializeBoc } from './writer.js';
import { patience } from '../../../test/helpers/patience.js';

/*
 * Seeded, deterministic mutation fuzz of the BOC reader. Every mutated input must either parse (and then hash and
 * read cleanly) or fail with a DecodeError: never a TypeError/RangeError/..., never a hang. A failure message names
 * the seed input, the iteration and the mutation, so it can be replayed by running the same loop.
 */

const SEED = 0x70f1_0b0c;
const ITERATIONS = 2000;
/** Only a hang detector: every step is bounded by the input size; generous for a slow or busy machine. */
const TIME_BUDGET_MS = patience(20_000);

/** mulberry32: small, fast, good enough to spread mutations. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// An independent CRC (test/helpers), so that mutations behind a CRC can be made to pass it and reach the cell parser.
function fixCrc(b: Uint8Array): void {
  if (b.length < 9 || b[0] !== 0xb5 || b[1] !== 0xee || b[2] !== 0x9c || b[3] !== 0x72 || (b[4]! & 0x40) === 0) return;
  const c = crc32cBitwise(b.subarray(0, b.length - 4));
  b[b.length - 4] = c & 0xff;
  b[b.length - 3] = (c >>> 8) & 0xff;
  b[b.length - 2] = (c >>> 16) & 0xff;
  b[b.length - 1] = (c >>> 24) & 0xff;
}

interface Layout {
  headerEnd: number;
  /** Byte offsets of header fields: flags, off_bytes, cells, roots, absent, tot_cells_size, root list, index. */
  fields: number[];
  /** Offset of every cell's d1 byte. */
  cells: number[];
}

/** Where things are in an original (valid) `b5ee9c72` BOC, found by hand (not with the reader under test). */
function layout(b: Uint8Array): Layout {
  const size = b[4]! & 7;
  const off = b[5]!;
  const rd = (at: number, n: number): number => {
    let v = 0;
    for (let k = 0; k < n; k++) v = v * 256 + b[at + k]!;
    return v;
  };
  const count = rd(6, size);
  const roots = rd(6 + size, size);
  const rootList = 6 + 3 * size + off;
  const index = rootList + roots * size;
  const data = index + ((b[4]! & 0x80) !== 0 ? count * off : 0);
  const fields = [4, 5, 6, 6 + size, 6 + 2 * size, 6 + 3 * size, rootList, index];
  const cells: number[] = [];
  let p = data;
  for (let i = 0; i < count; i++) {
    cells.push(p);
    const d1 = b[p]!;
    const d2 = b[p + 1]!;
    p += 2;
    if (d1 & 16) {
      let m = d1 >> 5;
      let n = 1;
      while (m) {
        n += m & 1;
        m >>= 1;
      }
      p += n * 34;
    }
    p += (d2 >> 1) + (d2 & 1) + (d1 & 7) * size;
  }
  return { headerEnd: data, fields, cells };
}

type Mutation = { kind: string; bytes: Uint8Array };

function mutate(src: Uint8Array, lay: Layout, rnd: () => number): Mutation {
  const int = (n: number): number => Math.floor(rnd() * n);
  const b = Uint8Array.from(src);
  const kinds = ['bitflip', 'overwrite', 'truncate', 'insert', 'delete', 'header', 'descriptor', 'refindex', 'multi'] as const;
  const kind = kinds[int(kinds.length)]!;
  let out: Uint8Array = b;
  const one = (k: string): void => {
    switch (k) {
      case 'bitflip': {
        const n = 1 + int(4);
        for (let j = 0; j < n; j++) {
          const at = int(out.length);
          out[at]! ^= 1 << int(8);
        }
        break;
      }
      case 'overwrite': {
        const at = int(out.length);
        const n = 1 + int(4);
        for (let j = 0; j < n && at + j < out.length; j++) out[at + j] = int(256);
        break;
      }
      case 'truncate':
        out = out.slice(0, int(out.length));
        break;
      case 'insert': {
        const at = int(out.length + 1);
        const n = 1 + int(8);
        const ins = Uint8Array.from({ length: n }, () => int(256));
        out = Uint8Array.from([...out.subarray(0, at), ...ins, ...out.subarray(at)]);
        break;
      }
      case 'delete': {
        const at = int(out.length);
        const n = 1 + int(8);
        out = Uint8Array.from([...out.subarray(0, at), ...out.subarray(Math.min(out.length, at + n))]);
        break;
      }
      case 'header': {
        // A header field: a random byte value, ±1, or an extreme.
        const at = lay.fields[int(lay.fields.length)]! + (rnd() < 0.5 ? 0 : int(3));
        if (at >= out.length) break;
        const r = rnd();
        out[at] = r < 0.33 ? int(256) : r < 0.66 ? (out[at]! + (rnd() < 0.5 ? 1 : 255)) & 0xff : rnd() < 0.5 ? 0 : 0xff;
        break;
      }
      case 'descriptor': {
        // d1 or d2 of a cell: exotic bit, level mask, with_hashes, ref count, data length.
        const at = lay.cells[int(lay.cells.length)]! + int(2);
        if (at >= out.length) break;
        const r = rnd();
        if (r < 0.5) out[at]! ^= 1 << int(8);
        else out[at] = int(256);
        break;
      }
      case 'refindex': {
        // A byte right after a cell's data: often a reference index.
        const c = int(lay.cells.length);
        const next = lay.cells[c + 1] ?? out.length;
        const at = next - 1 - int(2);
        if (at >= 0 && at < out.length) out[at] = rnd() < 0.5 ? int(256) : (out[at]! + 255) & 0xff;
        break;
      }
    }
  };
  if (kind === 'multi') {
    const n = 2 + int(3);
    for (let j = 0; j < n; j++) one(kinds[int(kinds.length - 1)]!);
  } else {
    one(kind);
  }
  // Half of the time, make the CRC right so that the mutation is seen by the cell parser.
  if (rnd() < 0.5) fixCrc(out);
  return { kind, bytes: out };
}

/** Everything a consumer does with a parsed bag: hash it all, read every cell, rebuild rests and serialize. */
function exercise(bytes: Uint8Array, rnd: () => number): void {
  const boc = Boc.parse(bytes);
  boc.hashAll();
  for (let i = 0; i < boc.count; i++) {
    boc.hash(i);
    boc.depth(i);
    for (let level = 0; level <= 3; level++) {
      boc.hashAt(i, level);
      boc.depthAt(i, level);
    }
    boc.exoticType(i);
    const s = new Slice(boc, i);
    const bits = s.remainingBits;
    while (s.remainingBits > 0) {
      const left = s.remainingBits;
      const r = rnd();
      if (r < 0.4) s.loadUint(Math.min(left, 1 + Math.floor(rnd() * 32)));
      else if (r < 0.55) s.loadBit();
      else if (r < 0.7 && left >= 64) s.loadUintBig(64);
      else if (r < 0.8 && left >= 67) s.loadIntBig(67);
      else if (r < 0.9 && left >= 16) s.loadBytes(Math.min(Math.floor(left / 8), 1 + Math.floor(rnd() * 16)));
      else s.loadInt(Math.min(left, 1 + Math.floor(rnd() * 32)));
    }
    while (s.remainingRefs > 0) {
      const c = s.loadRef();
      if (c <= i || c >= boc.count) throw new Error(`reference ${c} of cell ${i} escaped validation`);
    }
    // Reading past the end must be a DecodeError as well.
    try {
      s.loadBit();
      throw new Error(`cell ${i}: read past the end did not throw`);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
    }
    // Rest of a partially read slice, as a cell.
    if (!boc.isExotic(i) && (bits > 0 || boc.refCount(i) > 0)) {
      const p = new Slice(boc, i);
      p.skip(Math.floor(rnd() * (bits + 1)));
      if (boc.refCount(i) > 0 && rnd() < 0.5) p.loadRef();
      cellHash(boc, sliceToCell(p));
    }
  }
  // The root's tree again through the writer: our own reader must read it back, with the same root hash. A failure
  // here is a writer bug, not a decoding error, so it is reported as a plain Error.
  let again: Boc;
  try {
    again = Boc.parse(serializeBoc(boc, boc.root, { crc32: true }));
    again.hashAll();
  } catch (e) {
    throw new Error(`serializeBoc output does not read back: ${(e as Error).message}`);
  }
  const h1 = Buffer.from(boc.hash(boc.root)).toString('hex');
  const h2 = Buffer.from(again.hash(again.root)).toString('hex');
  if (h1 !== h2) throw new Error(`serializeBoc changed the root hash: ${h1} -> ${h2}`);
}

const SEEDS = [
  'transactions/testnet_tx_merkle_proof_body.boc', // Merkle proof + pruned branches
  'transactions/mainnet_tx_toncore_0_should_parse_transaction.boc', // CRC, no index
  'blocks/mainnet_0_0d83800000000000_4168601.boc', // index + CRC + cache bits, Merkle update
  'blocks/mainnet_-1_8000000000000000_49383163_trimmed_shard_fsm.boc', // no index, no CRC
  'blocks/mainnet_-1_8000000000000000_17734191.boc', // 375 cells, 2-byte sizes
];

/** Names the first cell whose descriptor level mask differs from the one @ton/core derives from its children. */
function maskMismatch(boc: Boc, root: Cell): string {
  const seen = new Set<number>();
  const stack: Array<[number, Cell]> = [[boc.root, root]];
  while (stack.length > 0) {
    const [i, c] = stack.pop()!;
    if (seen.has(i)) continue;
    seen.add(i);
    if (boc.levelMask(i) !== c.mask.value) {
      return `cell ${i}: descriptor level mask ${boc.levelMask(i)}, @ton/core computes ${c.mask.value}`;
    }
    for (let k = 0; k < boc.refCount(i); k++) stack.push([boc.ref(i, k), c.refs[k]!]);
  }
  return 'level masks agree';
}

interface FuzzResult {
  outcomes: Record<string, number>;
  kinds: Record<string, number>;
  /** Inputs that failed with something other than a DecodeError (or broke an invariant of the walk). */
  crashes: string[];
  /** BOC-level DecodeErrors whose message does not name a byte offset. */
  noOffset: string[];
  /** Mutants that both we and @ton/core read, but with different root hashes. */
  hashDiffs: string[];
  /** Mutants we read but @ton/core rejects (informational: we may be laxer on purpose or by omission). */
  laxer: string[];
  elapsed: number;
  slowest: number;
}

function runFuzz(): FuzzResult {
  // Each fixture as stored, plus @ton/core re-serializations: with index and CRC, and bare.
  const inputs: Array<{ name: string; bytes: Uint8Array; lay: Layout }> = [];
  for (const rel of SEEDS) {
    const raw = readFixture(rel);
    const cell = Cell.fromBoc(raw)[0]!;
    const forms: Array<[string, Uint8Array]> = [
      [rel, raw],
      [`${rel} (idx+crc)`, cell.toBoc({ idx: true, crc32: true })],
      [`${rel} (bare)`, cell.toBoc({ idx: false, crc32: false })],
    ];
    for (const [name, bytes] of forms) {
      expect(() => exercise(bytes, prng(1)), `${name} must be valid before mutation`).not.toThrow();
      inputs.push({ name, bytes, lay: layout(bytes) });
    }
  }

  const rnd = prng(SEED);
  const r: FuzzResult = { outcomes: {}, kinds: {}, crashes: [], noOffset: [], hashDiffs: [], laxer: [], elapsed: 0, slowest: 0 };
  const started = performance.now();
  for (let it = 0; it < ITERATIONS; it++) {
    const input = inputs[it % inputs.length]!;
    const m = mutate(input.bytes, input.lay, rnd);
    r.kinds[m.kind] = (r.kinds[m.kind] ?? 0) + 1;
    const t0 = performance.now();
    try {
      exercise(m.bytes, prng(it));
      r.outcomes.ok = (r.outcomes.ok ?? 0) + 1;
      // Differential check against @ton/core on the mutants we accept.
      const ours = Boc.parse(m.bytes);
      const oursHash = Buffer.from(ours.hash(ours.root)).toString('hex');
      let theirs: string | undefined;
      let why = '';
      try {
        theirs = Cell.fromBoc(Buffer.from(m.bytes))[0]!.hash().toString('hex');
      } catch (e) {
        why = (e as Error).message;
      }
      const tag = `#${it} ${input.name} ${m.kind} | input hex: ${Buffer.from(m.bytes).toString('hex').slice(0, 120)}`;
      if (theirs === undefined) r.laxer.push(`${tag} | @ton/core: ${why}`);
      else if (theirs !== oursHash) {
        r.hashDiffs.push(`${tag} | ours ${oursHash.slice(0, 16)} @ton/core ${theirs.slice(0, 16)} | ${maskMismatch(ours, Cell.fromBoc(Buffer.from(m.bytes))[0]!)}`);
      }
    } catch (e) {
      if (e instanceof DecodeError) {
        r.outcomes[e.code] = (r.outcomes[e.code] ?? 0) + 1;
        if (e.code.startsWith('BOC_') && !/byte offset \d+/.test(e.message)) {
          r.noOffset.push(`#${it} ${input.name} ${m.kind} (${m.bytes.length} bytes): ${e.code}: ${e.message}`);
        }
      } else {
        const err = e as Error;
        r.crashes.push(
          `#${it} ${input.name} ${m.kind} (${m.bytes.length} bytes): ${err?.constructor?.name}: ${err?.message}` +
            ` | input hex: ${Buffer.from(m.bytes).toString('hex').slice(0, 160)}`,
        );
      }
    }
    r.slowest = Math.max(r.slowest, performance.now() - t0);
    // A loop that overruns its budget stops here instead of running on (a sync hang cannot be interrupted, but
    // every step of parse/hash/walk is bounded by the input size, which this catches if it ever stops being so).
    if (performance.now() - started > TIME_BUDGET_MS) {
      r.crashes.push(`time budget of ${TIME_BUDGET_MS} ms exceeded after ${it + 1} iterations`);
      break;
    }
  }
  r.elapsed = performance.now() - started;
  if (process.env.TONFLOW_FUZZ_REPORT === '1') {
    const why: Record<string, number> = {};
    for (const l of r.laxer) {
      const k = (l.split('@ton/core: ')[1] ?? '').replace(/"[0-9a-f]+"/g, 'H').replace(/\d+/g, 'N').slice(0, 70);
      why[k] = (why[k] ?? 0) + 1;
    }
    console.log(JSON.stringify({ outcomes: r.outcomes, kinds: r.kinds, elapsed: Math.round(r.elapsed), laxer: why }, null, 1));
  }
  return r;
}

describeFixtures('Boc fuzz (seeded mutations of fixture BOCs)', () => {
  let result: FuzzResult | undefined;
  const fuzz = (): FuzzResult => (result ??= runFuzz());

  it(
    `${ITERATIONS} mutations: parse + hashAll + full walk either succeed or throw DecodeError, within ${TIME_BUDGET_MS / 1000} s`,
    () => {
      const r = fuzz();
      expect(r.crashes.slice(0, 10), `${r.crashes.length} crashes; outcomes ${JSON.stringify(r.outcomes)}`).toEqual([]);
      expect(r.elapsed).toBeLessThan(TIME_BUDGET_MS);
      expect(r.slowest, 'slowest single input (ms)').toBeLessThan(patience(2_000));
      // The fuzz must reach past the header: some mutants survive, and failures come from several checks.
      expect(r.outcomes.ok ?? 0).toBeGreaterThan(20);
      expect(r.outcomes.BOC_BAD_CELL ?? 0).toBeGreaterThan(20);
      expect(Object.keys(r.outcomes).filter((k) => k !== 'ok').length).toBeGreaterThanOrEqual(5);
      for (const k of ['bitflip', 'overwrite', 'truncate', 'insert', 'delete', 'header', 'descriptor', 'refindex', 'multi']) {
        expect(r.kinds[k] ?? 0, `mutation kind ${k}`).toBeGreaterThan(100);
      }
    },
  );

  it('mutants that both we and @ton/core read have the same root hash', () => {
    const r = fuzz();
    expect(
      r.hashDiffs.slice(0, 5),
      `${r.hashDiffs.length} hash disagreements (${r.laxer.length} mutants read by us but rejected by @ton/core, e.g. ${r.laxer.slice(0, 3).join(' ;; ')})`,
    ).toEqual([]);
  });

  it('every BOC DecodeError met by the fuzz names a byte offset', () => {
    const r = fuzz();
    expect(r.noOffset.slice(0, 5), `${r.noOffset.length} errors without an offset`).toEqual([]);
  });
});
