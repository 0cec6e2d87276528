import type { Slice } from '../boc/slice.js';
import { loadAddr, refSlice } from './cell.js';

/**
 * STON.fi v1 router → pool `swap#25938561 query_id:uint64 to_address:MsgAddress sender_address:MsgAddress
 * jetton_amount:Coins min_out:Coins has_ref:Bit ^[from_real_user:MsgAddress ref_address:has_ref?MsgAddress]`,
 * and the pool's answer `pay_to#f93bb43f query_id:uint64 owner:MsgAddress exit_code:uint32
 * ^[amount0_out:Coins token0_address:MsgAddress amount1_out:Coins token1_address:MsgAddress]`.
 */
export const STONFI_SWAP = 0x25938561;
export const STONFI_PAYMENT_REQUEST = 0xf93bb43f;

export interface StonfiSwap {
  queryId: bigint;
  fromUser: string | null;
  tokenWallet: string | null;
  amount: bigint;
  minOut: bigint;
  fromRealUser: string | null;
  refAddress: string | null;
}

export function loadStonfiSwap(s: Slice): StonfiSwap {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const fromUser = loadAddr(s);
  const tokenWallet = loadAddr(s);
  const amount = s.loadCoins();
  const minOut = s.loadCoins();
  const hasRef = s.loadBit();
  const r = refSlice(s, s.loadRef());
  const fromRealUser = loadAddr(r);
  return { queryId, fromUser, tokenWallet, amount, minOut, fromRealUser, refAddress: hasRef ? loadAddr(r) : null };
}

export interface StonfiPaymentRequest {
  queryId: bigint;
  owner: string | null;
  exitCode: number;
  amount0Out: bigint;
  token0Out: string | null;
  amount1Out: bigint;
  token1Out: string | null;
}

export function loadStonfiPaymentRequest(s: Slice): StonfiPaymentRequest {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const owner = loadAddr(s);
  const exitCode = s.loadUint(32);
  const r = refSlice(s, s.loadRef());
  return { queryId, owner, exitCode, amount0Out: r.loadCoins(), token0Out: loadAddr(r), amount1Out: r.loadCoins(), token1Out: loadAddr(r) };
}
