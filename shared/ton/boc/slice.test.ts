import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { Boc } from './reader.js';
import { Slice } from './slice.js';

/** A cell of `bits` pseudo-random bits as a one-cell BOC, with @ton/core's reading of the same cell. */
function randomCell(seed: number, bits = 1000) {
  let x = seed >>> 0;
  const b = beginCell();
  for (let i = 0; i < bits; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    b.storeBit(x >>> 31);
  }
  const cell = b.endCell();
  return { cell, boc: Boc.parse(cell.toBoc({ idx: false, crc32: false })) };
}

describe('Slice reads at every bit offset, against @ton/core', () => {
  it('loadBytes: aligned views and unaligned copies, for lengths 1..40', () => {
    for (const seed of [1, 2]) {
      const { cell, boc } = randomCell(seed);
      for (let off = 0; off <= 200; off++) {
        for (let n = 1; n <= 40; n++) {
          const ours = new Slice(boc, boc.root);
          ours.skip(off);
          const theirs = cell.beginParse();
          theirs.skip(off);
          expect(Buffer.from(ours.loadBytes(n)).equals(theirs.loadBuffer(n)), `offset ${off}, ${n} bytes`).toBe(true);
          expect(ours.pos).toBe(off + 8 * n);
        }
      }
    }
  });

  it('loadBytes up to the very end of the bag, aligned and not', () => {
    for (const bits of [1000, 1003, 1017]) {
      const { cell, boc } = randomCell(3, bits);
      for (let n = 1; n <= 124; n++) {
        const off = bits - 8 * n;
        const ours = new Slice(boc, boc.root);
        ours.skip(off);
        const theirs = cell.beginParse();
        theirs.skip(off);
        expect(Buffer.from(ours.loadBytes(n)).equals(theirs.loadBuffer(n)), `${bits} bits, last ${n} bytes`).toBe(true);
      }
    }
  });

  it('loadInt and loadUint of widths 1..32', () => {
    const { cell, boc } = randomCell(4);
    for (let off = 0; off < 64; off += 3) {
      for (let n = 1; n <= 32; n++) {
        const ours = new Slice(boc, boc.root);
        ours.skip(off);
        const theirs = cell.beginParse();
        theirs.skip(off);
        expect(ours.loadInt(n), `int${n} at ${off}`).toBe(theirs.loadInt(n));
        const u = new Slice(boc, boc.root);
        u.skip(off);
        const tu = cell.beginParse();
        tu.skip(off);
        expect(u.loadUint(n), `uint${n} at ${off}`).toBe(tu.loadUint(n));
      }
    }
  });
});
