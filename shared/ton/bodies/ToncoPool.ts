import type { Slice } from '../boc/slice.js';
import { loadAddr, refSlice } from './cell.js';

/**
 * TONCO (concentrated liquidity) pool deployment: router `ROUTERV3_CREATE_POOL#2e3034ef query_id:uint64
 * jetton_wallet0:MsgAddress jetton_wallet1:MsgAddress tick_spacing:int24 initial_price_x96:uint160
 * protocol_fee:uint16 lp_fee_base:uint16 lp_fee_current:uint16 nftv3_content:^Cell nftv3item_content:^Cell
 * ^[jetton0_minter:MsgAddress jetton1_minter:MsgAddress controller_addr:MsgAddress]` and the router → pool
 * `POOLV3_INIT#441c39ed query_id:uint64 from_admin:Bool has_admin:Bool admin_addr:MsgAddress has_controller:Bool
 * controller_addr:MsgAddress set_spacing:Bool tick_spacing:int24 set_price:Bool initial_price_x96:uint160
 * set_active:Bool pool_active:Bool ...`.
 */
export const TONCO_ROUTER_CREATE_POOL = 0x2e3034ef;
export const TONCO_POOL_INIT = 0x441c39ed;

export interface ToncoCreatePool {
  wallet0: string | null;
  wallet1: string | null;
  tickSpacing: number;
  initialPriceX96: bigint;
  protocolFee: number;
  lpFeeBase: number;
  lpFeeCurrent: number;
  minter0: string | null;
  minter1: string | null;
}

export function loadToncoCreatePool(s: Slice): ToncoCreatePool {
  s.loadUint(32);
  s.loadUintBig(64);
  const wallet0 = loadAddr(s);
  const wallet1 = loadAddr(s);
  const tickSpacing = s.loadInt(24);
  const initialPriceX96 = s.loadUintBig(160);
  const protocolFee = s.loadUint(16);
  const lpFeeBase = s.loadUint(16);
  const lpFeeCurrent = s.loadUint(16);
  s.loadRef();
  s.loadRef();
  const m = refSlice(s, s.loadRef());
  return { wallet0, wallet1, tickSpacing, initialPriceX96, protocolFee, lpFeeBase, lpFeeCurrent, minter0: loadAddr(m), minter1: loadAddr(m) };
}

/** `pool_active` of a POOLV3_INIT. */
export function loadToncoPoolInitActive(s: Slice): boolean {
  s.loadUint(32);
  s.loadUintBig(64);
  s.loadBit();
  s.loadBit();
  loadAddr(s);
  s.loadBit();
  loadAddr(s);
  s.loadBit();
  s.loadInt(24);
  s.loadBit();
  s.loadUintBig(160);
  s.loadBit();
  return s.loadBit();
}

/**
 * TONCO swaps: router → pool `POOLV3_SWAP#a7fb58f8 query_id:uint64 owner_address:MsgAddress source_wallet:MsgAddress
 * ^[amount:Coins sqrt_price_limit_x96:uint160 min_out_amount:Coins] ^[...]`, the user's jetton payload
 * `#a7fb58f8 target_router_jwallet:MsgAddress price_limit:uint160 min_out:Coins recipient:MsgAddress
 * payload:(Maybe ^Cell)` (nested for multi-hop), and pool → router `ROUTERV3_PAY_TO#a1daa96d query_id:uint64
 * receiver0:MsgAddress receiver1:MsgAddress exit_code:uint32 seqno:uint64 coinsinfo:(Maybe ^[amount0:Coins
 * jetton0:MsgAddress amount1:Coins jetton1:MsgAddress]) ...`.
 */
export const TONCO_POOL_SWAP = 0xa7fb58f8;
export const TONCO_ROUTER_PAY_TO = 0xa1daa96d;

export function loadToncoPoolSwap(s: Slice): { owner: string | null; sourceWallet: string | null; amount: bigint; minOut: bigint } {
  s.loadUint(32);
  s.loadUintBig(64);
  const owner = loadAddr(s);
  const sourceWallet = loadAddr(s);
  const p = refSlice(s, s.loadRef());
  const amount = p.loadCoins();
  p.loadUintBig(160);
  const minOut = p.loadCoins();
  s.loadRef();
  return { owner, sourceWallet, amount, minOut };
}

export interface ToncoPayTo {
  receiver0: string | null;
  receiver1: string | null;
  exitCode: number;
  amount0: bigint | null;
  jetton0: string | null;
  amount1: bigint | null;
  jetton1: string | null;
}

export function loadToncoPayTo(s: Slice): ToncoPayTo {
  s.loadUint(32);
  s.loadUintBig(64);
  const receiver0 = loadAddr(s);
  const receiver1 = loadAddr(s);
  const exitCode = s.loadUint(32);
  s.loadUintBig(64);
  const c = s.loadMaybeRef();
  if (c < 0) return { receiver0, receiver1, exitCode, amount0: null, jetton0: null, amount1: null, jetton1: null };
  const r = refSlice(s, c);
  return { receiver0, receiver1, exitCode, amount0: r.loadCoins(), jetton0: loadAddr(r), amount1: r.loadCoins(), jetton1: loadAddr(r) };
}

/**
 * Target router wallets and minimum outputs of a swap payload, outermost first. The outermost payload must parse
 * (else this throws); a nested hop that does not parse ends the list there, keeping the hops read before it, as
 * TON Center's recursive reader does.
 */
export function toncoSwapTargets(s: Slice): [string | null, bigint][] {
  const out: [string | null, bigint][] = [];
  let cur: Slice | null = s;
  for (let depth = 0; cur !== null && depth < 16; depth++) {
    let level: { target: string | null; minOut: bigint; payload: number };
    try {
      level = readSwapPayloadLevel(cur);
    } catch (e) {
      if (depth === 0) throw e;
      break;
    }
    if (level.target !== null) out.push([level.target, level.minOut]);
    cur = null;
    if (level.payload >= 0) {
      const inner = refSlice(s, level.payload);
      if (inner.remainingBits >= 32 && inner.preloadUint(32) === TONCO_POOL_SWAP) cur = inner;
    }
  }
  return out;
}

/** One `POOLV3_SWAP` payload level: `op target:MsgAddress price_limit:uint160 min_out:Coins recipient:MsgAddress payload:(Maybe ^Cell)`. */
function readSwapPayloadLevel(cur: Slice): { target: string | null; minOut: bigint; payload: number } {
  cur.loadUint(32);
  const target = loadAddr(cur);
  cur.loadUintBig(160);
  const minOut = cur.loadCoins();
  loadAddr(cur);
  return { target, minOut, payload: cur.loadMaybeRef() };
}

/**
 * TONCO liquidity removal: pool `POOLV3_START_BURN#530b5f2c query_id:uint64 burned_index:uint64
 * liquidity_to_burn:uint128 tick_lower:int24 tick_upper:int24`, position NFT `POSITIONNFTV3_POSITION_BURN#46ca335a
 * query_id:uint64 nft_owner:MsgAddress ...`, pool `POOLV3_BURN#d73ac09d query_id:uint64 recipient:MsgAddress
 * burned_index:uint64 ...`, then the router's pay_to.
 */
export const TONCO_POOL_START_BURN = 0x530b5f2c;
export const TONCO_POSITION_BURN = 0x46ca335a;
export const TONCO_POOL_BURN = 0xd73ac09d;

export function loadToncoStartBurn(s: Slice): { burnedIndex: bigint; liquidity: bigint; tickLower: number; tickUpper: number } {
  s.loadUint(32);
  s.loadUintBig(64);
  return { burnedIndex: s.loadUintBig(64), liquidity: s.loadUintBig(128), tickLower: s.loadInt(24), tickUpper: s.loadInt(24) };
}

export function loadToncoPositionBurnOwner(s: Slice): string | null {
  s.loadUint(32);
  s.loadUintBig(64);
  return loadAddr(s);
}

export function loadToncoPoolBurnIndex(s: Slice): bigint {
  s.loadUint(32);
  s.loadUintBig(64);
  loadAddr(s);
  return s.loadUintBig(64);
}

/**
 * TONCO liquidity provision: user → router jetton (or pTON) transfer whose payload is `POOLV3_FUND_ACCOUNT#4468de77
 * other_jetton_wallet:MsgAddress amount0:Coins amount1:Coins ...`; pool → account `POOLV3_FUND_ACCOUNT`, account →
 * pool `ACCOUNTV3_ADD_LIQUIDITY#3ebe5431 query_id:uint64 new_amount0:Coins new_amount1:Coins new_enough0:Coins
 * new_enough1:Coins liquidity:uint128 tick_lower:int24 tick_upper:int24`, pool `POOLV3_MINT_AND_REFUND#81702ef8`,
 * and the position NFT's `POSITIONNFTV3_POSITION_INIT#d5ecca2a query_id:uint64 user_address:MsgAddress
 * liquidity:uint128 tick_lower:int24 tick_upper:int24 ^[fee_growth0:uint256 fee_growth1:uint256 nft_index:uint64 ...]`.
 */
export const TONCO_POOL_FUND_ACCOUNT = 0x4468de77;
export const TONCO_ACCOUNT_ADD_LIQUIDITY = 0x3ebe5431;
export const TONCO_POOL_MINT_AND_REFUND = 0x81702ef8;

export function loadToncoAddLiquidity(s: Slice): { newAmount0: bigint; newAmount1: bigint; newEnough0: bigint; newEnough1: bigint; tickLower: number; tickUpper: number } {
  s.loadUint(32);
  s.loadUintBig(64);
  const newAmount0 = s.loadCoins();
  const newAmount1 = s.loadCoins();
  const newEnough0 = s.loadCoins();
  const newEnough1 = s.loadCoins();
  s.loadUintBig(128);
  return { newAmount0, newAmount1, newEnough0, newEnough1, tickLower: s.loadInt(24), tickUpper: s.loadInt(24) };
}

export function loadToncoPositionInit(s: Slice): { liquidity: bigint; nftIndex: bigint } {
  s.loadUint(32);
  s.loadUintBig(64);
  loadAddr(s);
  const liquidity = s.loadUintBig(128);
  s.loadInt(24);
  s.loadInt(24);
  const f = refSlice(s, s.loadRef());
  f.loadUintBig(256);
  f.loadUintBig(256);
  return { liquidity, nftIndex: f.loadUintBig(64) };
}

/** The other jetton's router wallet named by a fund-account payload. */
export function loadToncoFundPayloadOtherWallet(s: Slice): string | null {
  s.loadUint(32);
  return loadAddr(s);
}
