import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeFixtures, fixturesDir, readFixture } from '../../../test/helpers/fixtures.js';
import { DecodeError } from '../errors.js';
import { CellHasher, cellHasherWasm } from './cell-hasher.js';
import { Boc } from './reader.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** Hashes `bytes` with the scalar code path (the shared hasher held, so hashAll cannot use it). */
function scalarBoc(bytes: Uint8Array): Boc {
  const held = CellHasher.acquire();
  try {
    const boc = Boc.parse(bytes);
    boc.hashAll();
    return boc;
  } finally {
    held?.release();
  }
}

describe('CellHasher (bag hashing inside WebAssembly)', () => {
  it('is available on this Node (the fast path is what the benchmarks measure)', () => {
    expect(CellHasher.create()).not.toBeNull();
  });

  it('the module is generated deterministically and validates', () => {
    const a = cellHasherWasm(8);
    expect(hex(cellHasherWasm(8))).toBe(hex(a));
    const wasm = (globalThis as unknown as { WebAssembly: { validate(b: Uint8Array): boolean } }).WebAssembly;
    expect(wasm.validate(a)).toBe(true);
  });

  it('acquire() hands the shared instance to one user at a time', () => {
    const a = CellHasher.acquire();
    expect(a).not.toBeNull();
    expect(CellHasher.acquire()).toBeNull();
    a!.release();
    const b = CellHasher.acquire();
    expect(b).toBe(a);
    b!.release();
  });

  it('a Merkle proof with a wrong stored hash: rejected, the bag stays unhashed, asking again fails the same way', () => {
    // Cell 0: Merkle proof of cell 1 with a wrong stored hash; then 100 unrelated cells so that hashAll batches.
    const cells: number[][] = [[0x09, 70, 3, ...Array<number>(32).fill(7), 0, 0, 1], [0x00, 2, 0x05]];
    for (let i = 0; i < 100; i++) cells.push([0x00, 2, i]);
    const body = cells.flat();
    const bytes = Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x01, 0x02, cells.length, 1, 0, body.length >> 8, body.length & 255, 0, ...body]);
    const boc = Boc.parse(bytes);
    expect(() => boc.hashAll()).toThrow(/stored hash of child 0 does not match/);
    expect(() => boc.hash(0)).toThrow(DecodeError);
    // The shared instance was released despite the error, and the well-formed cells still hash (one at a time).
    expect(hex(boc.hash(2))).toBe(hex(Boc.parse(bytes).hash(2)));
    const h = CellHasher.acquire();
    expect(h).not.toBeNull();
    h!.release();
  });

  it('a chain deeper than the TVM allows: the depth error names the cell, nothing is marked hashed', () => {
    // 1,026 cells, each referencing the next: the root has depth 1,025.
    const n = 1026;
    const size = 2;
    const body: number[] = [];
    for (let i = 0; i < n; i++) {
      if (i < n - 1) body.push(0x01, 0x00, (i + 1) >> 8, (i + 1) & 255);
      else body.push(0x00, 0x00);
    }
    const bytes = Buffer.from([0xb5, 0xee, 0x9c, 0x72, size, 0x02, n >> 8, n & 255, 0, 1, 0, 0, body.length >> 8, body.length & 255, 0, 0, ...body]);
    const boc = Boc.parse(bytes);
    expect(() => boc.hashAll()).toThrow(/cell 0 has depth 1025, above the maximum 1024/);
    // A cell below the limit still hashes, on demand.
    expect(boc.depth(1)).toBe(1024);
  });
});

describeFixtures('CellHasher: bags of every size in a row share one instance (memory grows and is reused)', () => {
  it('fixture blocks largest first, then smallest, then the largest again: every hash equals the scalar path', () => {
    const files = readdirSync(path.join(fixturesDir, 'blocks')).filter((f) => f.endsWith('.boc'));
    const sized = files.map((f) => ({ f, bytes: readFixture(`blocks/${f}`) })).sort((a, b) => b.bytes.length - a.bytes.length);
    const sequence = [...sized, ...sized.slice().reverse(), sized[0]!];
    for (const { f, bytes } of sequence) {
      const fast = Boc.parse(bytes);
      fast.hashAll();
      const slow = scalarBoc(bytes);
      for (let c = 0; c < fast.count; c++) {
        for (let level = 0; level <= 3; level++) {
          if (hex(fast.hashAt(c, level)) !== hex(slow.hashAt(c, level)) || fast.depthAt(c, level) !== slow.depthAt(c, level)) {
            throw new Error(`${f}: cell ${c} level ${level} differs`);
          }
        }
      }
    }
  });
});
