import type { Slice } from '../boc/slice.js';
import { rawAddress } from '../records/format.js';
import { loadAddr, refSlice } from './cell.js';

/**
 * swap.coffee messages (swap.coffee TL-B): `Asset` is `native$00`, `jetton$01 chain:uint8 hash:uint256` or
 * `extra$10 id:uint32` (not an address: unsupported); `create_vault#c0ffee06 query_id:uint64 asset:Asset`,
 * `deploy#c0ffee22`, the MEV protector's `hold_funds#6bc79e7e`, `service_fee#c0ffeea0` and
 * `mev_protect_failed_swap#ee51ce51 query_id:uint64 recipient:MsgAddressInt` (TON, or a jetton forward payload); staking:
 * `deposit#f9471134` (pool → NFT collection, and its log), `claim_rewards#b30c7310 query_id:uint64
 * jetton_wallet:MsgAddressInt jetton_amount:Coins receiver:MsgAddressInt ...`, and the withdrawal chain `#cb03bfaf`:
 * step 2 `query_id:uint64 nft_id:uint64 owner:MsgAddress points:Coins ^[...]`, step 3 `query_id:uint64
 * jetton_wallet:MsgAddress jetton_amount:Coins owner:MsgAddress`.
 */
export const COFFEE_CREATE_VAULT = 0xc0ffee06;
export const COFFEE_DEPLOY = 0xc0ffee22;
export const COFFEE_MEV_HOLD_FUNDS = 0x6bc79e7e;
export const COFFEE_SERVICE_FEE = 0xc0ffeea0;
export const COFFEE_MEV_FAILED_SWAP = 0xee51ce51;
export const COFFEE_STAKING_DEPOSIT = 0xf9471134;
export const COFFEE_STAKING_CLAIM_REWARDS = 0xb30c7310;
export const COFFEE_STAKING_WITHDRAW = 0xcb03bfaf;

/** A swap.coffee asset: null for TON, the jetton master otherwise. */
export function loadCoffeeAsset(s: Slice): string | null {
  const tag = s.loadUint(2);
  if (tag === 0) return null;
  if (tag === 1) {
    const chain = s.loadUint(8);
    return rawAddress(chain, s.loadBytes(32));
  }
  throw new Error(`unsupported swap.coffee asset tag ${tag}`);
}

export function loadCoffeeMevFailedSwap(s: Slice): { queryId: bigint; recipient: string | null } {
  if (s.loadUint(32) !== COFFEE_MEV_FAILED_SWAP) throw new Error('not a swap.coffee mev_protect_failed_swap');
  return { queryId: s.loadUintBig(64), recipient: loadAddr(s) };
}

export function loadCoffeeCreateVault(s: Slice): { asset: string | null } {
  s.loadUint(32);
  s.loadUintBig(64);
  return { asset: loadCoffeeAsset(s) };
}

export function loadCoffeeClaimRewards(s: Slice): { jettonWallet: string | null; amount: bigint; receiver: string | null } {
  s.loadUint(32);
  s.loadUintBig(64);
  return { jettonWallet: loadAddr(s), amount: s.loadCoins(), receiver: loadAddr(s) };
}

export function loadCoffeeWithdraw2(s: Slice): { nftId: bigint; owner: string | null; points: bigint } {
  s.loadUint(32);
  s.loadUintBig(64);
  const nftId = s.loadUintBig(64);
  const owner = loadAddr(s);
  const points = s.loadCoins();
  refSlice(s, s.loadRef());
  return { nftId, owner, points };
}

export function loadCoffeeWithdraw3(s: Slice): { jettonWallet: string | null; amount: bigint } {
  s.loadUint(32);
  s.loadUintBig(64);
  const jettonWallet = loadAddr(s);
  const amount = s.loadCoins();
  loadAddr(s);
  return { jettonWallet, amount };
}

/**
 * swap.coffee swaps: `swap_native#c0ffee00 query_id:uint64 amount:Coins ...` (TON in), a jetton in with payload
 * `swap_jetton#c0ffee10`, pool hops `swap_internal#c0ffee20`, each logging `swap_successful_event#c0ffee30
 * query_id:uint64 input:Asset input_amount:Coins output_amount:Coins ...`, then `payout_internal#c0ffee21
 * query_id:uint64 recipient:MsgAddress amount:Coins ...` → the vault's `payout#c0ffee32` (TON), a jetton transfer,
 * or a `notification#c0ffee36`.
 */
export const COFFEE_SWAP_NATIVE = 0xc0ffee00;
export const COFFEE_SWAP_INTERNAL = 0xc0ffee20;
export const COFFEE_SWAP_SUCCESSFUL_EVENT = 0xc0ffee30;
export const COFFEE_PAYOUT_INTERNAL = 0xc0ffee21;
export const COFFEE_PAYOUT = 0xc0ffee32;
export const COFFEE_NOTIFICATION = 0xc0ffee36;

export function loadCoffeeSwapNativeAmount(s: Slice): bigint {
  s.loadUint(32);
  s.loadUintBig(64);
  return s.loadCoins();
}

export function loadCoffeeSwapEvent(s: Slice): { input: string | null; inputAmount: bigint; outputAmount: bigint } {
  s.loadUint(32);
  s.loadUintBig(64);
  return { input: loadCoffeeAsset(s), inputAmount: s.loadCoins(), outputAmount: s.loadCoins() };
}

export function loadCoffeePayoutInternal(s: Slice): { recipient: string | null; amount: bigint } {
  s.loadUint(32);
  s.loadUintBig(64);
  return { recipient: loadAddr(s), amount: s.loadCoins() };
}

/**
 * swap.coffee liquidity: `create_liquidity_depository_request#c0ffee27 query_id:uint64 amount:Coins ^params
 * ^[first:Asset second:Asset amm:uint3 ...] sender:MsgAddress ...` (vault → depository), `deposit_liquidity_internal
 * #c0ffee29`, `deposit_liquidity_successful_event#c0ffee33 query_id:uint64 amount1:Coins amount2:Coins
 * lp_amount:Coins ...`, `liquidity_withdrawal_event#c0ffee35 query_id:uint64 amount1:Coins amount2:Coins ...`,
 * and `deposit_liquidity_native#c0ffee04` (TON in).
 */
export const COFFEE_DEPOSIT_LIQUIDITY_NATIVE = 0xc0ffee04;
export const COFFEE_CREATE_DEPOSITORY_REQUEST = 0xc0ffee27;
export const COFFEE_DEPOSIT_LIQUIDITY_INTERNAL = 0xc0ffee29;
export const COFFEE_DEPOSIT_SUCCESSFUL_EVENT = 0xc0ffee33;
export const COFFEE_WITHDRAWAL_EVENT = 0xc0ffee35;

export function loadCoffeeDepositoryRequest(s: Slice): { amount: bigint; first: string | null; second: string | null; sender: string | null } {
  s.loadUint(32);
  s.loadUintBig(64);
  const amount = s.loadCoins();
  s.loadRef();
  const p = refSlice(s, s.loadRef());
  const first = loadCoffeeAsset(p);
  const second = loadCoffeeAsset(p);
  return { amount, first, second, sender: loadAddr(s) };
}

/** The three Coins after op and query_id (deposit success: amount1 amount2 lp_amount; withdrawal: the same). */
export function loadCoffeeLiquidityEvent(s: Slice): { amount1: bigint; amount2: bigint; lpAmount: bigint } {
  s.loadUint(32);
  s.loadUintBig(64);
  return { amount1: s.loadCoins(), amount2: s.loadCoins(), lpAmount: s.loadCoins() };
}

/**
 * swap.coffee pool creation: `create_pool_native#c0ffee02 query_id:uint64 amount:Coins params:PoolParams
 * creation_params:PoolCreationParams`, the jetton payload `create_pool_jetton#c0ffee11 params creation_params`,
 * vault → creator `create_pool_creator_request#c0ffee23`; `PoolParams` = `first:Asset second:Asset amm:uint3
 * amm_settings:(Maybe ^Cell)`, `PoolCreationParams` starts with `recipient:MsgAddressInt`.
 */
export const COFFEE_CREATE_POOL_NATIVE = 0xc0ffee02;
export const COFFEE_CREATE_POOL_JETTON = 0xc0ffee11;
export const COFFEE_CREATE_POOL_EXTRA = 0xc0ffee03;
export const COFFEE_CREATE_POOL_CREATOR_REQUEST = 0xc0ffee23;

export interface CoffeePoolCreation {
  amount: bigint | null;
  first: string | null;
  second: string | null;
  recipient: string | null;
}

/** A create_pool_native body or a create_pool_jetton payload. */
export function loadCoffeeCreatePool(s: Slice): CoffeePoolCreation {
  const op = s.loadUint(32);
  let amount: bigint | null = null;
  if (op === COFFEE_CREATE_POOL_NATIVE) {
    s.loadUintBig(64);
    amount = s.loadCoins();
  } else if (op !== COFFEE_CREATE_POOL_JETTON) throw new Error('not a swap.coffee pool creation');
  const first = loadCoffeeAsset(s);
  const second = loadCoffeeAsset(s);
  s.loadUint(3);
  s.loadMaybeRef();
  return { amount, first, second, recipient: loadAddr(s) };
}

/**
 * The second step of creating a swap.coffee pool: creator → vault `create_pool_request#c0ffee25 query_id:uint64
 * amount1:Coins amount2:Coins tx_initiator:MsgAddressInt ^PoolCreationParams ^proof`, then the pool's deploy
 * `#c0ffee22`, its LP mint and `deposit_liquidity_successful_event#c0ffee33`.
 */
export const COFFEE_CREATE_POOL_REQUEST = 0xc0ffee25;

export function loadCoffeeCreatePoolRequest(s: Slice): { amount1: bigint; amount2: bigint; initiator: string | null } {
  s.loadUint(32);
  s.loadUintBig(64);
  return { amount1: s.loadCoins(), amount2: s.loadCoins(), initiator: loadAddr(s) };
}
