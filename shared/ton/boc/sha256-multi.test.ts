import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeFixtures, fixturesDir, readFixture } from '../../../test/helpers/fixtures.js';
import { DecodeError } from '../errors.js';
import { Boc } from './reader.js';
import { CellHasher } from './cell-hasher.js';
import { MAX_BLOCKS, Sha256Lanes, sha256MultiWasm } from './sha256-multi.js';

/** Deterministic bytes (xorshift32), so a failure reproduces. */
function random(seed: number): (n: number) => Buffer {
  let x = seed >>> 0 || 1;
  return (n) => {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) {
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      b[i] = x & 255;
    }
    return b;
  };
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('multi-buffer SHA-256 (WebAssembly SIMD)', () => {
  it('is available on this Node (the fast path is what the benchmarks measure)', () => {
    expect(Sha256Lanes.create()).not.toBeNull();
  });

  it('the module is generated deterministically and validates', () => {
    const a = sha256MultiWasm(5);
    expect(hex(sha256MultiWasm(5))).toBe(hex(a));
    // tsconfig's lib has no WebAssembly declarations.
    const wasm = (globalThis as unknown as { WebAssembly: { validate(b: Uint8Array): boolean } }).WebAssembly;
    expect(wasm.validate(a)).toBe(true);
  });

  it('equals node:crypto on random messages of every length 0..300, in batches of mixed lengths', () => {
    const lanes = Sha256Lanes.create()!;
    const next = random(0x5eed);
    const messages: Buffer[] = [];
    // Several messages per length, so every queue (one per block count) fills and is flushed mid-batch, and
    // the last group of each queue is partly empty.
    for (let round = 0; round < 5; round++) for (let len = 0; len <= 300; len++) messages.push(next(len));
    const got: string[] = new Array<string>(messages.length);
    lanes.done = (tag, at) => {
      got[tag] = hex(lanes.mem.subarray(at, at + 32));
    };
    messages.forEach((m, tag) => {
      const at = lanes.push(m.length, tag);
      lanes.mem.set(m, at);
    });
    lanes.flush();
    const bad = messages.filter((m, i) => got[i] !== createHash('sha256').update(m).digest('hex')).map((m) => m.length);
    expect(bad).toEqual([]);
    expect(300 + 9).toBeLessThanOrEqual(64 * MAX_BLOCKS);
  });

  it('acquire() hands the shared instance to one user at a time', () => {
    const a = Sha256Lanes.acquire();
    expect(a).not.toBeNull();
    expect(Sha256Lanes.acquire()).toBeNull();
    a!.release();
    const b = Sha256Lanes.acquire();
    expect(b).toBe(a);
    b!.release();
  });
});

/** Every cell of `batched` has the hash and depth, at every level, that the scalar SHA-256 gives for `bytes`. */
function expectScalarHashes(file: string, bytes: Uint8Array, batched: Boc): void {
  // With both shared instances held, hashAll falls back to the scalar SHA-256 (as without WebAssembly SIMD).
  const held = Sha256Lanes.acquire();
  const heldHasher = CellHasher.acquire();
  const scalar = Boc.parse(bytes);
  try {
    scalar.hashAll();
  } finally {
    held?.release();
    heldHasher?.release();
  }
  for (let c = 0; c < batched.count; c++) {
    for (let level = 0; level <= 3; level++) {
      if (hex(batched.hashAt(c, level)) !== hex(scalar.hashAt(c, level)) || batched.depthAt(c, level) !== scalar.depthAt(c, level)) {
        throw new Error(`${file}: cell ${c} level ${level} differs`);
      }
    }
  }
}

describeFixtures('Boc.hashAll in SIMD lanes equals the scalar hashes', () => {
  const files = readdirSync(path.join(fixturesDir, 'blocks'))
    .filter((f) => f.endsWith('.boc'))
    .sort();

  it.each(files)('%s: every cell, every level: hash and depth', (file) => {
    const bytes = readFixture(`blocks/${file}`);
    const batched = Boc.parse(bytes);
    batched.hashAll();
    expectScalarHashes(file, bytes, batched);
  });
});

describeFixtures('Boc.hashSubtrees equals the scalar hashes', () => {
  const files = readdirSync(path.join(fixturesDir, 'blocks'))
    .filter((f) => f.endsWith('.boc'))
    .sort();

  it.each(files)('%s: subtrees of the root\'s children, then the rest: hash and depth at every level', (file) => {
    const bytes = readFixture(`blocks/${file}`);
    const batched = Boc.parse(bytes);
    // The state update (under Merkle cells, with pruned branches) and the rest, then the whole bag again: each
    // call must skip what an earlier one hashed.
    const root = batched.root;
    const children = Array.from({ length: batched.refCount(root) }, (_, r) => batched.ref(root, r));
    batched.hashSubtrees(children.slice(-1));
    batched.hashSubtrees(children);
    batched.hashSubtrees([root]);
    expectScalarHashes(file, bytes, batched);
  });
});

describe('Boc.hashAll in SIMD lanes: invalid bags', () => {
  it('a Merkle proof whose stored hash is not its child hash is rejected in a bag large enough to batch', () => {
    // Cell 0: Merkle proof of cell 1 with a wrong stored hash; then 100 unrelated cells so hashAll batches.
    const cells: number[][] = [[0x09, 70, 3, ...Array<number>(32).fill(7), 0, 0, 1], [0x00, 2, 0x05]];
    for (let i = 0; i < 100; i++) cells.push([0x00, 2, i]);
    const body = cells.flat();
    const bytes = Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x01, 0x02, cells.length, 1, 0, body.length >> 8, body.length & 255, 0, ...body]);
    const boc = Boc.parse(bytes);
    expect(() => boc.hashAll()).toThrow(DecodeError);
    // The shared instance was released despite the error.
    const lanes = Sha256Lanes.acquire();
    expect(lanes).not.toBeNull();
    lanes!.release();
  });
});
