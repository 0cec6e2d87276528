import type { Slice } from '../boc/slice.js';
import { loadAddr, loadEitherSlice, refSlice } from './cell.js';

/**
 * STON.fi v2 router → pool `swap#6664de2a query_id:uint64 from_user:MsgAddress left_amount:Coins
 * right_amount:Coins ^[transferred_op:uint32 token_wallet1:MsgAddress refund_address:MsgAddress
 * excesses_address:MsgAddress tx_deadline:uint64 ^[min_out:Coins receiver:MsgAddress fwd_gas:Coins
 * custom_payload:(Maybe ^Cell) refund_fwd_gas:Coins refund_payload:(Maybe ^Cell) ref_fee:uint16
 * ref_address:MsgAddress]]`; the pool's answer `pay_to#657b54f5 query_id:uint64 to_address:MsgAddress
 * excesses_address:MsgAddress original_caller:MsgAddress exit_code:uint32 custom_payload:(Maybe ^Cell)
 * ^[fwd_ton_amount:Coins amount0_out:Coins token0_address:MsgAddress amount1_out:Coins token1_address:MsgAddress]`.
 * A multi-hop swap nests the next hop's swap (`0x6664de2a` or cross-swap `0x69cf1a5b`) in custom_payload.
 */
export const STONFI_V2_SWAP = 0x6664de2a;
export const STONFI_V2_CROSS_SWAP = 0x69cf1a5b;
export const STONFI_V2_PAY_TO = 0x657b54f5;
export const STONFI_V2_PAY_VAULT = 0x63381632;
export const STONFI_V2_DEPOSIT_REF_FEE = 0x0490f09b;
/** The pay_to exit code of a completed swap. */
export const STONFI_SWAP_OK = 0xc64370e5;

export interface StonfiV2Swap {
  queryId: bigint;
  fromUser: string | null;
  leftAmount: bigint;
  rightAmount: bigint;
  tokenWallet1: string | null;
  minOut: bigint;
  receiver: string | null;
  customPayload: Slice | null;
}

export function loadStonfiV2Swap(s: Slice): StonfiV2Swap {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const fromUser = loadAddr(s);
  const leftAmount = s.loadCoins();
  const rightAmount = s.loadCoins();
  const d = refSlice(s, s.loadRef());
  d.loadUint(32);
  const tokenWallet1 = loadAddr(d);
  loadAddr(d);
  loadAddr(d);
  d.loadUintBig(64);
  const b = refSlice(d, d.loadRef());
  const minOut = b.loadCoins();
  const receiver = loadAddr(b);
  b.loadCoins();
  const c = b.loadMaybeRef();
  return { queryId, fromUser, leftAmount, rightAmount, tokenWallet1, minOut, receiver, customPayload: c < 0 ? null : refSlice(b, c) };
}

/** Pool jetton wallets of every hop: the first hop's token_wallet1, then each nested hop's. */
export function stonfiV2PoolAccounts(swap: StonfiV2Swap): string[] {
  const out = [swap.tokenWallet1 ?? ''];
  let cur = swap.customPayload;
  for (let guard = 0; cur !== null && guard < 64; guard++) {
    const op = cur.loadUint(32);
    if (op !== STONFI_V2_SWAP && op !== STONFI_V2_CROSS_SWAP) break;
    out.push(loadAddr(cur) ?? '');
    if (cur.remainingRefs === 0) break;
    const cross = refSlice(cur, cur.loadRef());
    cross.loadCoins();
    cross.loadCoins();
    if (cross.remainingRefs === 0) break;
    const c = cross.loadMaybeRef();
    cur = c < 0 ? null : refSlice(cross, c);
  }
  return out;
}

export interface StonfiV2PayTo {
  queryId: bigint;
  toAddress: string | null;
  exitCode: number;
  amount0Out: bigint;
  token0: string | null;
  amount1Out: bigint;
  token1: string | null;
}

export function loadStonfiV2PayTo(s: Slice): StonfiV2PayTo {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const toAddress = loadAddr(s);
  loadAddr(s);
  loadAddr(s);
  const exitCode = s.loadUint(32);
  s.loadMaybeRef();
  const a = refSlice(s, s.loadRef());
  a.loadCoins();
  return { queryId, toAddress, exitCode, amount0Out: a.loadCoins(), token0: loadAddr(a), amount1Out: a.loadCoins(), token1: loadAddr(a) };
}

/**
 * pTON v2 `ton_transfer#01f3835d query_id:uint64 ton_amount:Coins refund_address:MsgAddress
 * forward_payload:(Either Cell ^Cell)`: TON entering or leaving a STON.fi v2 pool as pTON.
 */
export const PTON_TON_TRANSFER = 0x01f3835d;

export interface PTonTransfer {
  queryId: bigint;
  tonAmount: bigint;
  refund: string | null;
  forwardPayload: Slice | null;
}

export function loadPTonTransfer(s: Slice): PTonTransfer {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const tonAmount = s.loadCoins();
  const refund = loadAddr(s);
  let forwardPayload: Slice | null = null;
  const c = s.remainingBits > 0 ? s.loadMaybeRef() : -1;
  if (c >= 0) forwardPayload = refSlice(s, c);
  else if (s.remainingRefs > 0) forwardPayload = s.clone();
  return { queryId, tonAmount, refund, forwardPayload };
}

/** The target pool wallet a STON.fi v2 swap names in a jetton notification's forward payload. */
export function stonfiV2NotifyTarget(s: Slice): string | null {
  s.loadUint(32);
  s.loadUintBig(64);
  s.loadCoins();
  loadAddr(s);
  const p = loadEitherSlice(s);
  if (p === null || p.remainingBits < 32) return null;
  return p.loadUint(32) === STONFI_V2_SWAP ? loadAddr(p) : null;
}
