import type { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import type { TlbBuilder } from './builder.js';

/**
 * `msg_envelope#4` and `msg_envelope_v2#5` (block.tlb, MsgEnvelope). Only the message reference and the
 * remaining forwarding fee are kept; intermediate addresses are skipped.
 */
export interface MsgEnvelope {
  fwdFeeRemaining: bigint;
  msg: number;
  emittedLt: bigint | null;
}

export function loadMsgEnvelope(s: Slice): MsgEnvelope {
  const tag = s.loadUint(4);
  if (tag !== 4 && tag !== 5) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'MsgEnvelope', `tag #${tag.toString(16)}`);
  skipIntermediateAddress(s);
  skipIntermediateAddress(s);
  const fwdFeeRemaining = s.loadCoins();
  const msg = s.loadRef();
  let emittedLt: bigint | null = null;
  if (tag === 5) {
    if (s.loadBit()) emittedLt = s.loadUintBig(64);
    // metadata:(Maybe MsgMetadata), msg_metadata#0 depth:uint32 initiator_addr:MsgAddressInt initiator_lt:uint64
  }
  return { fwdFeeRemaining, msg, emittedLt };
}

/** `interm_addr_regular$0 use_dest_bits:(#<= 96)`, `interm_addr_simple$10`, `interm_addr_ext$11`. */
function skipIntermediateAddress(s: Slice): void {
  if (!s.loadBit()) {
    s.skip(7);
    return;
  }
  if (!s.loadBit()) s.skip(8 + 64);
  else s.skip(32 + 64);
}

/** What `msg_envelope#4` needs to be written: the intermediate addresses as `interm_addr_regular` bit counts. */
export interface MsgEnvelopeInput<C> {
  /** `use_dest_bits` of `cur_addr` (0: still at the source). */
  curUseDestBits: number;
  /** `use_dest_bits` of `next_addr` (96: the next hop is the destination). */
  nextUseDestBits: number;
  fwdFeeRemaining: bigint;
  msg: C;
}

export function storeMsgEnvelope<C>(e: MsgEnvelopeInput<C>, b: TlbBuilder<C>): void {
  if (e.curUseDestBits > 96 || e.nextUseDestBits > 96) throw new RangeError('IntermediateAddress: use_dest_bits > 96');
  b.storeUint(4, 4);
  b.storeUint(e.curUseDestBits, 8); // interm_addr_regular$0 use_dest_bits:(#<= 96)
  b.storeUint(e.nextUseDestBits, 8);
  b.storeCoins(e.fwdFeeRemaining);
  b.storeRef(e.msg);
}
