import type { Slice } from '../boc/slice.js';
import { type CurrencyCollection, loadCurrencyCollection } from './CurrencyCollection.js';
import { type MsgAddress, loadMsgAddress, loadMsgAddressExt, loadMsgAddressInt } from './MsgAddress.js';

/**
 * `int_msg_info$0`, `ext_in_msg_info$10`, `ext_out_msg_info$11` (block.tlb, CommonMsgInfo). `extra_flags` is the
 * field formerly called `ihr_fee` (same VarUInteger 16 encoding).
 */
export type CommonMsgInfo =
  | {
      type: 'internal';
      ihrDisabled: boolean;
      bounce: boolean;
      bounced: boolean;
      src: MsgAddress;
      dest: MsgAddress;
      value: CurrencyCollection;
      extraFlags: bigint;
      fwdFee: bigint;
      createdLt: bigint;
      createdAt: number;
    }
  | { type: 'external-in'; src: MsgAddress; dest: MsgAddress; importFee: bigint; destBitsFrom: number; destBitsTo: number }
  | { type: 'external-out'; src: MsgAddress; dest: MsgAddress; createdLt: bigint; createdAt: number };

export function loadCommonMsgInfo(s: Slice): CommonMsgInfo {
  if (!s.loadBit()) {
    const ihrDisabled = s.loadBit();
    const bounce = s.loadBit();
    const bounced = s.loadBit();
    // Relaxed messages (in OutList actions) may carry addr_none as source; messages in blocks may not.
    const src = loadMsgAddress(s);
    const dest = loadMsgAddressInt(s);
    const value = loadCurrencyCollection(s);
    const extraFlags = s.loadCoins();
    const fwdFee = s.loadCoins();
    return {
      type: 'internal',
      ihrDisabled,
      bounce,
      bounced,
      src,
      dest,
      value,
      extraFlags,
      fwdFee,
      createdLt: s.loadUintBig(64),
      createdAt: s.loadUint(32),
    };
  }
  if (!s.loadBit()) {
    const src = loadMsgAddressExt(s);
    const destBitsFrom = s.pos;
    const dest = loadMsgAddressInt(s);
    const destBitsTo = s.pos;
    return { type: 'external-in', src, dest, importFee: s.loadCoins(), destBitsFrom, destBitsTo };
  }
  const src = loadMsgAddress(s);
  const dest = loadMsgAddressExt(s);
  return { type: 'external-out', src, dest, createdLt: s.loadUintBig(64), createdAt: s.loadUint(32) };
}
