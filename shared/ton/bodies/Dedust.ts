import type { Slice } from '../boc/slice.js';
import { rawAddress } from '../records/format.js';
import { loadAddr, refSlice } from './cell.js';

/**
 * DeDust v2 messages (dedust.io docs, `dedust_v2` TL-B): `swap#ea06185d` (TON in via the native vault),
 * the jetton payload `swap#e3a0d482`, vault → pool `swap_external#61ee542d`, pool → pool `swap_peer#72aca8aa`,
 * pool → vault `payout_from_pool#ad4eb6f5`, vault → user `payout#474f86cf`, and the pool's log
 * `swap#9c610de3 asset_in:Asset asset_out:Asset amount_in:Coins amount_out:Coins ^[sender_addr ref_addr
 * reserve0:Coins reserve1:Coins]`. `Asset`: `native$0000`, `jetton$0001 workchain_id:int8 address:uint256`.
 */
export const DEDUST_SWAP = 0xea06185d;
export const DEDUST_SWAP_PAYLOAD = 0xe3a0d482;
export const DEDUST_SWAP_EXTERNAL = 0x61ee542d;
export const DEDUST_SWAP_PEER = 0x72aca8aa;
export const DEDUST_PAYOUT_FROM_POOL = 0xad4eb6f5;
export const DEDUST_PAYOUT = 0x474f86cf;
export const DEDUST_SWAP_NOTIFICATION = 0x9c610de3;

/** A DeDust asset: null for TON, else the jetton master (raw). */
export function loadDedustAsset(s: Slice): string | null {
  const kind = s.loadUint(4);
  if (kind === 0) return null;
  const wc = s.loadInt(8);
  return rawAddress(wc, s.loadBytes(32));
}

export interface DedustSwapNotification {
  assetIn: string | null;
  assetOut: string | null;
  amountIn: bigint;
  amountOut: bigint;
}

export function loadDedustSwapNotification(s: Slice): DedustSwapNotification {
  s.loadUint(32);
  return { assetIn: loadDedustAsset(s), assetOut: loadDedustAsset(s), amountIn: s.loadCoins(), amountOut: s.loadCoins() };
}

/** `payout_from_pool#ad4eb6f5 query_id:uint64 proof:^Cell amount:Coins ...`: the amount paid out. */
export function loadDedustPayoutAmount(s: Slice): bigint {
  s.loadUint(32);
  s.loadUintBig(64);
  s.loadRef();
  return s.loadCoins();
}

/** Pools of a `SwapStep` chain: `step#_ pool_addr:MsgAddressInt params:SwapStepParams` (`kind:bit limit:Coins next:(Maybe ^SwapStep)`). */
export function loadDedustSteps(s: Slice): string[] {
  const pools: string[] = [];
  let cur: Slice | null = s.clone();
  for (let guard = 0; cur !== null && guard < 64; guard++) {
    pools.push(loadAddr(cur) ?? '');
    cur.loadBit();
    cur.loadCoins();
    const n = cur.loadMaybeRef();
    cur = n < 0 ? null : refSlice(cur, n);
  }
  return pools;
}
