import { Address, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { STONFI_V2_ADD_LIQUIDITY, STONFI_V2_BURN_NOTIFICATION_EXT, STONFI_V2_CB_ADD_LIQUIDITY, STONFI_V2_CB_REFUND_ME, STONFI_V2_PROVIDE_LP, STONFI_V2_REFUND_ME, loadStonfiV2ProvideLp } from './StonfiV2Liquidity.js';
import { bodySlice } from './cell.js';

/**
 * The STON.fi v2 liquidity bodies, built with @ton/core from the TL-B in ston-fi/dex-core-v2 `contracts/common/op.fc`
 * (the same layouts are in tongo's `abi/schemas/ston-fi.xml`), read back field by field.
 */
const raw = (a: Address): string => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const USER = Address.parseRaw('0:' + 'a1'.repeat(32));
const WALLET = Address.parseRaw('0:' + 'b2'.repeat(32));
const REFUND = Address.parseRaw('0:' + 'c3'.repeat(32));
const EXCESS = Address.parseRaw('-1:' + 'd4'.repeat(32));
const TO = Address.parseRaw('0:' + 'e5'.repeat(32));

/** CRC32 (IEEE) of the op.fc TL-B text, masked to 31 bits as op.fc does: the opcode STON.fi's contracts compile. */
function tlbOpcode(tlb: string): number {
  let c = ~0;
  for (const byte of Buffer.from(tlb, 'utf8')) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (~c >>> 0) & 0x7fffffff;
}

describe('STON.fi v2 liquidity opcodes', () => {
  it('are the masked CRC32 of the TL-B in dex-core-v2 op.fc', () => {
    expect(tlbOpcode('provide_lp query_id:uint64 from_user:MsgAddress left_amount:Coins right_amount:Coins dex_payload:^[transferred_op:uint32 token_wallet1:MsgAddress refund_address:MsgAddress excesses_address:MsgAddress tx_deadline:uint64 provide_lp_body:^[min_lp_out:Coins to_address:MsgAddress both_positive:uint1 fwd_amount:Coins custom_payload:(Maybe ^Cell)]] = InternalMsgBody')).toBe(STONFI_V2_PROVIDE_LP);
    expect(tlbOpcode('add_liquidity query_id:uint64 new_amount0:Coins new_amount1:Coins min_lp_out:Coins fwd_amount:Coins both_positive:uint1 to_user:MsgAddress custom_payload_cs:(Maybe ^Cell) additional_fields:^[refund_address:MsgAddress excess_address:MsgAddress] = InternalMsgBody')).toBe(STONFI_V2_ADD_LIQUIDITY);
    expect(tlbOpcode('cb_add_liquidity query_id:uint64 tot_am0:Coins tot_am1:Coins user_address:MsgAddress min_lp_out:Coins fwd_amount:Coins custom_payload_cs:(Maybe ^Cell) additional_fields:^[to_user_address:MsgAddress refund_address:MsgAddress excess_address:MsgAddress] = InternalMsgBody')).toBe(STONFI_V2_CB_ADD_LIQUIDITY);
    expect(tlbOpcode('burn_notification_ext query_id:uint64 jetton_amount:Coins from_address:MsgAddress response_address:MsgAddress maybe_custom_payload:(Maybe ^Cell) = InternalMsgBody')).toBe(STONFI_V2_BURN_NOTIFICATION_EXT);
    expect(tlbOpcode('refund_me query_id:uint64 left_maybe_payload:(Maybe ^Cell) right_maybe_payload:(Maybe ^Cell) = InternalMsgBody')).toBe(STONFI_V2_REFUND_ME);
    expect(tlbOpcode('cb_refund_me query_id:uint64 tot_am0:Coins tot_am1:Coins user_address:MsgAddress left_maybe_payload:(Maybe ^Cell) right_maybe_payload:(Maybe ^Cell) = InternalMsgBody')).toBe(STONFI_V2_CB_REFUND_ME);
  });
});

describe('loadStonfiV2ProvideLp', () => {
  const body = (op: number) =>
    beginCell()
      .storeUint(op, 32)
      .storeUint(987654321987n, 64)
      .storeAddress(USER)
      .storeCoins(0n)
      .storeCoins(123_456_789_000n)
      .storeRef(
        beginCell()
          .storeUint(0x7362d09c, 32)
          .storeAddress(WALLET)
          .storeAddress(REFUND)
          .storeAddress(EXCESS)
          .storeUint(1_700_000_000n, 64)
          .storeRef(beginCell().storeCoins(5_000n).storeAddress(TO).storeUint(1, 1).storeCoins(10_000_000n).storeMaybeRef(null)),
      )
      .endCell()
      .toBoc()
      .toString('base64');

  it('reads every field of the router → pool message', () => {
    expect(loadStonfiV2ProvideLp(bodySlice(body(0x37c096df)))).toEqual({
      queryId: 987654321987n,
      fromUser: raw(USER),
      leftAmount: 0n,
      rightAmount: 123_456_789_000n,
      transferredOp: 0x7362d09c,
      tokenWallet1: raw(WALLET),
      refundAddress: raw(REFUND),
      excessesAddress: raw(EXCESS),
      txDeadline: 1_700_000_000n,
      minLpOut: 5_000n,
      toAddress: raw(TO),
      bothPositive: true,
      fwdAmount: 10_000_000n,
    });
  });

  it('refuses another opcode', () => {
    expect(() => loadStonfiV2ProvideLp(bodySlice(body(0x6664de2a)))).toThrow();
  });
});
