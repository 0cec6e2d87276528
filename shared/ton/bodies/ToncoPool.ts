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
