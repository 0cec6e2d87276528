/**
 * Cell levels (tvm.pdf §3.1.3–3.1.6): a cell with level mask `mask` has one hash per significant level, and
 * these helpers say which. Shared by the JavaScript hashing (reader.ts, built.ts) and the WebAssembly one
 * (cell-hasher.ts, which bakes them into lookup tables).
 */

/** Maximum cell depth the TVM allows (crypto/vm/cells/CellTraits.h `max_depth`). */
export const MAX_DEPTH = 1024;

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** The level of hash number `hi` of a cell with level mask `mask`: 0, then one more than each set bit, in order. */
export function levelOf(mask: number, hi: number): number {
  let level = 0;
  for (let seen = 0; seen < hi; level++) if ((mask >> level) & 1) seen++;
  return level;
}
