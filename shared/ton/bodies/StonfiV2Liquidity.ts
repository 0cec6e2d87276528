import type { Slice } from '../boc/slice.js';
import { loadAddr, refSlice } from './cell.js';

/**
 * STON.fi v2 liquidity messages (ston-fi/dex-core-v2 `contracts/common/op.fc`; opcodes are the CRC32 of the TL-B
 * there, masked to 31 bits). Providing: the router → pool `provide_lp#37c096df query_id:uint64 from_user:MsgAddress
 * left_amount:Coins right_amount:Coins dex_payload:^[transferred_op:uint32 token_wallet1:MsgAddress
 * refund_address:MsgAddress excesses_address:MsgAddress tx_deadline:uint64 provide_lp_body:^[min_lp_out:Coins
 * to_address:MsgAddress both_positive:uint1 fwd_amount:Coins custom_payload:(Maybe ^Cell)]]`; the pool → LP account
 * `add_liquidity#50c6a654` (also the pool's refund of a mint it refused), the LP account → pool
 * `cb_add_liquidity#06ecd527` once both sides are in. Withdrawing: the LP wallet → pool
 * `burn_notification_ext#297437cf`, or the user → LP account `refund_me#132b9a2c` and the LP account → pool
 * `cb_refund_me#0f98e2b8`; the pool then sends one `pay_to#657b54f5` per token to the router.
 */
export const STONFI_V2_PROVIDE_LP = 0x37c096df;
export const STONFI_V2_ADD_LIQUIDITY = 0x50c6a654;
export const STONFI_V2_CB_ADD_LIQUIDITY = 0x06ecd527;
export const STONFI_V2_BURN_NOTIFICATION_EXT = 0x297437cf;
export const STONFI_V2_REFUND_ME = 0x132b9a2c;
export const STONFI_V2_CB_REFUND_ME = 0x0f98e2b8;

export interface StonfiV2ProvideLp {
  queryId: bigint;
  fromUser: string | null;
  leftAmount: bigint;
  rightAmount: bigint;
  transferredOp: number;
  tokenWallet1: string | null;
  refundAddress: string | null;
  excessesAddress: string | null;
  txDeadline: bigint;
  minLpOut: bigint;
  toAddress: string | null;
  bothPositive: boolean;
  fwdAmount: bigint;
}

export function loadStonfiV2ProvideLp(s: Slice): StonfiV2ProvideLp {
  if (s.loadUint(32) !== STONFI_V2_PROVIDE_LP) throw new Error('not a STON.fi v2 provide_lp');
  const queryId = s.loadUintBig(64);
  const fromUser = loadAddr(s);
  const leftAmount = s.loadCoins();
  const rightAmount = s.loadCoins();
  const d = refSlice(s, s.loadRef());
  const transferredOp = d.loadUint(32);
  const tokenWallet1 = loadAddr(d);
  const refundAddress = loadAddr(d);
  const excessesAddress = loadAddr(d);
  const txDeadline = d.loadUintBig(64);
  const b = refSlice(d, d.loadRef());
  const minLpOut = b.loadCoins();
  const toAddress = loadAddr(b);
  const bothPositive = b.loadBit();
  const fwdAmount = b.loadCoins();
  return { queryId, fromUser, leftAmount, rightAmount, transferredOp, tokenWallet1, refundAddress, excessesAddress, txDeadline, minLpOut, toAddress, bothPositive, fwdAmount };
}
