import type { Slice } from '../boc/slice.js';
import { loadAddr, refSlice } from './cell.js';
import { loadDedustAsset } from './Dedust.js';

/**
 * DeDust v2 liquidity provision: TON to the native vault `deposit_liquidity#d55e4686 query_id:uint64 amount:Coins
 * pool_params:(pool_type:bit asset0:Asset asset1:Asset) ^[min_lp_amount:Coins asset0_target_balance:Coins
 * asset1_target_balance:Coins ...]`, or a jetton vault's forward payload `deposit_liquidity#40e108d6
 * pool_params min_lp_amount:Coins asset0_target_balance:Coins asset1_target_balance:Coins ...`; vault → factory
 * `#f04ec526`, factory → deposit contract `#9b3aa3fa` (deploy) / `#54240fe5` (top up), deposit contract → pool
 * `deposit_liquidity_all#b56b9598 query_id:uint64 proof:^Cell owner_addr:MsgAddress min_lp_amount:Coins
 * ^[asset0:Asset asset0_amount:Coins asset1:Asset asset1_amount:Coins] ...`, the pool's refusal `#e1a36cd4`,
 * the contract's self-destruction `#aae79256` and a vault's excess return `#6b0b787f`. Assets: null = TON.
 */
export const DEDUST_DEPOSIT_TON_TO_VAULT = 0xd55e4686;
export const DEDUST_DEPOSIT_JETTON_PAYLOAD = 0x40e108d6;
export const DEDUST_ASK_LIQUIDITY_FACTORY = 0xf04ec526;
export const DEDUST_DEPLOY_DEPOSIT_CONTRACT = 0x9b3aa3fa;
export const DEDUST_TOP_UP_DEPOSIT_CONTRACT = 0x54240fe5;
export const DEDUST_DEPOSIT_TO_POOL = 0xb56b9598;
export const DEDUST_DEPOSIT_REJECTED = 0xe1a36cd4;
export const DEDUST_DESTROY_DEPOSIT_CONTRACT = 0xaae79256;
export const DEDUST_RETURN_EXCESS_FROM_VAULT = 0x6b0b787f;

export interface DedustPoolTargets {
  asset0: string | null;
  asset1: string | null;
  target0: bigint;
  target1: bigint;
}

export function loadDedustDepositTonToVault(s: Slice): { amount: bigint } & DedustPoolTargets {
  if (s.loadUint(32) !== DEDUST_DEPOSIT_TON_TO_VAULT) throw new Error('not a DeDust TON deposit');
  s.loadUintBig(64);
  const amount = s.loadCoins();
  s.loadBit();
  const asset0 = loadDedustAsset(s);
  const asset1 = loadDedustAsset(s);
  const p = refSlice(s, s.loadRef());
  p.loadCoins();
  return { amount, asset0, asset1, target0: p.loadCoins(), target1: p.loadCoins() };
}

export function loadDedustDepositJettonPayload(s: Slice): DedustPoolTargets {
  if (s.loadUint(32) !== DEDUST_DEPOSIT_JETTON_PAYLOAD) throw new Error('not a DeDust deposit payload');
  s.loadBit();
  const asset0 = loadDedustAsset(s);
  const asset1 = loadDedustAsset(s);
  s.loadCoins();
  return { asset0, asset1, target0: s.loadCoins(), target1: s.loadCoins() };
}

export function loadDedustDepositToPool(s: Slice): { owner: string | null; asset0: string | null; amount0: bigint; asset1: string | null; amount1: bigint } {
  s.loadUint(32);
  s.loadUintBig(64);
  s.loadRef();
  const owner = loadAddr(s);
  s.loadCoins();
  const f = refSlice(s, s.loadRef());
  const asset0 = loadDedustAsset(f);
  const amount0 = f.loadCoins();
  const asset1 = loadDedustAsset(f);
  return { owner, asset0, amount0, asset1, amount1: f.loadCoins() };
}
