import { DEDUST_SWAP_NOTIFICATION, loadDedustAsset } from '../bodies/Dedust.js';
import { bodySlice } from '../bodies/cell.js';
import type { Slice } from '../boc/slice.js';
import { normaliseCodeHash } from './repository.js';

/**
 * DeDust v2 pools (`dedustPool`: the pool's two assets, which the DeDust swap matcher follows along a multi-step
 * route). TON Center's detector (ton-index-worker tondb-scanner `DedustPoolDetector`) takes an account whose code
 * hash is one of three, runs its `get_assets` get-method (two `Asset` slices: `native$0000` or `jetton$0001
 * workchain_id:int8 address:uint256`; any other kind and the account is no pool), and keeps the pool only if the
 * DeDust factory's `get_pool_address` for that pair gives back the account's address.
 *
 * DeDust's contracts are not published, so the pool's storage layout is unknown and its get-methods cannot be read
 * off its data. What is read instead is what the pool itself states in the trace: each swap it makes emits the log
 * `swap#9c610de3 asset_in:Asset asset_out:Asset ...` (bodies/Dedust.ts), whose two assets are the pool's two. The
 * code hash is checked as TON Center checks it; the factory's check is not made (it needs the factory's state and
 * the TVM). A pool with no swap log in the trace (a deposit or withdrawal only, or a swap that failed before the
 * pool's log) gets no facts. The order of the two assets is the log's (in, out), not `get_assets`' order: the
 * classifier only ever asks a pool for the asset other than the one that entered it.
 */
const POOL_CODE_HASHES = new Set([
  '1275095b6da3911292406f4f4386f9e780099b854c6dee9ee2895ddce70927c1',
  '778f0d3fe6482c50888970df5e787f40f3a4ab282170c035a5920877058c99d3',
  'c0f9d14fbc8e14f0d72cba2214165eee35836ab174130912baf9dbfa43ead562',
]);

/** Whether an account of this code hash (any encoding normaliseCodeHash reads) is a DeDust pool by its code. */
export function isDedustPoolCode(codeHash: string | null): boolean {
  if (codeHash === null) return false;
  const hex = normaliseCodeHash(codeHash);
  return hex !== null && POOL_CODE_HASHES.has(hex);
}

/** `native$0000` → null (TON), `jetton$0001` → the master; any other kind is no pool asset (undefined). */
function loadAsset(s: Slice): string | null | undefined {
  const kind = s.preloadUint(4);
  return kind === 0 || kind === 1 ? loadDedustAsset(s) : undefined;
}

/**
 * A pool's two assets from the logs it emitted in the trace (their bodies, base64 BoC), or null when none is a
 * swap log with two pool assets. Logs that disagree on the pair give null as well: one pool has one pair.
 */
export function dedustPoolAssets(logs: readonly string[]): (string | null)[] | null {
  let pair: (string | null)[] | null = null;
  for (const boc of logs) {
    try {
      const s = bodySlice(boc);
      if (s.remainingBits < 32 || s.loadUint(32) !== DEDUST_SWAP_NOTIFICATION) continue;
      const a = loadAsset(s);
      const b = loadAsset(s);
      if (a === undefined || b === undefined || a === b) continue;
      if (pair === null) pair = [a, b];
      else if (!(pair.includes(a) && pair.includes(b))) return null;
    } catch {
      // Not a log in the swap layout.
    }
  }
  return pair;
}
