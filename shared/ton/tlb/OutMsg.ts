import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type MsgEnvelope, loadMsgEnvelope } from './MsgEnvelope.js';
import type { TlbBuilder } from './builder.js';

/** OutMsg constructors (block.tlb `msg_export_*`). */
export type OutMsgType =
  | 'msg_export_ext'
  | 'msg_export_imm'
  | 'msg_export_new'
  | 'msg_export_tr'
  | 'msg_export_deq'
  | 'msg_export_deq_short'
  | 'msg_export_tr_req'
  | 'msg_export_deq_imm'
  | 'msg_export_new_defer'
  | 'msg_export_deferred_tr';

export interface OutMsg {
  type: OutMsgType;
  /** The Message cell, or null for `msg_export_deq_short` (which only names the envelope hash). */
  msg: number | null;
  envelope: MsgEnvelope | null;
  transaction: number | null;
}

export function loadOutMsg(s: Slice): OutMsg {
  const env = (): MsgEnvelope => loadMsgEnvelope(new Slice(s.boc, s.loadRef()));
  const t3 = s.loadUint(3);
  switch (t3) {
    case 0b000: {
      const msg = s.loadRef();
      return { type: 'msg_export_ext', msg, envelope: null, transaction: s.loadRef() };
    }
    case 0b010: {
      const envelope = env();
      const transaction = s.loadRef();
      s.loadRef();
      return { type: 'msg_export_imm', msg: envelope.msg, envelope, transaction };
    }
    case 0b001: {
      const envelope = env();
      return { type: 'msg_export_new', msg: envelope.msg, envelope, transaction: s.loadRef() };
    }
    case 0b011: {
      const envelope = env();
      s.loadRef();
      return { type: 'msg_export_tr', msg: envelope.msg, envelope, transaction: null };
    }
    case 0b111: {
      const envelope = env();
      s.loadRef();
      return { type: 'msg_export_tr_req', msg: envelope.msg, envelope, transaction: null };
    }
    case 0b100: {
      const envelope = env();
      s.loadRef();
      return { type: 'msg_export_deq_imm', msg: envelope.msg, envelope, transaction: null };
    }
    case 0b110: {
      if (!s.loadBit()) {
        const envelope = env();
        s.skip(63);
        return { type: 'msg_export_deq', msg: envelope.msg, envelope, transaction: null };
      }
      s.skip(256 + 32 + 64 + 64);
      return { type: 'msg_export_deq_short', msg: null, envelope: null, transaction: null };
    }
    case 0b101: {
      const t2 = s.loadUint(2);
      if (t2 === 0b00) {
        const envelope = env();
        return { type: 'msg_export_new_defer', msg: envelope.msg, envelope, transaction: s.loadRef() };
      }
      if (t2 === 0b01) {
        const envelope = env();
        s.loadRef();
        return { type: 'msg_export_deferred_tr', msg: envelope.msg, envelope, transaction: null };
      }
      throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'OutMsg', `tag $101${t2.toString(2).padStart(2, '0')}`);
    }
    default:
      throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'OutMsg', `tag $${t3.toString(2).padStart(3, '0')}`);
  }
}

/** The OutMsg constructors a collator without IHR or transit writes. */
export type OutMsgInput<C> =
  | { type: 'msg_export_ext'; msg: C; transaction: C }
  | { type: 'msg_export_new'; envelope: C; transaction: C }
  | { type: 'msg_export_deq_short'; envelopeHash: Uint8Array; nextWorkchain: number; nextAddrPfx: bigint; importBlockLt: bigint };

export function storeOutMsg<C>(m: OutMsgInput<C>, b: TlbBuilder<C>): void {
  switch (m.type) {
    case 'msg_export_ext':
      b.storeUint(0b000, 3);
      b.storeRef(m.msg);
      b.storeRef(m.transaction);
      return;
    case 'msg_export_new':
      b.storeUint(0b001, 3);
      b.storeRef(m.envelope);
      b.storeRef(m.transaction);
      return;
    case 'msg_export_deq_short':
      b.storeUint(0b1101, 4);
      b.storeBytes(m.envelopeHash);
      b.storeInt(m.nextWorkchain, 32);
      b.storeUint(m.nextAddrPfx, 64);
      b.storeUint(m.importBlockLt, 64);
  }
}
