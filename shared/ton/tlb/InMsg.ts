import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type MsgEnvelope, loadMsgEnvelope } from './MsgEnvelope.js';
import type { TlbBuilder } from './builder.js';

/** InMsg constructors (block.tlb `msg_import_*`, `msg_discard_*`). */
export type InMsgType =
  | 'msg_import_ext'
  | 'msg_import_ihr'
  | 'msg_import_imm'
  | 'msg_import_fin'
  | 'msg_import_tr'
  | 'msg_discard_fin'
  | 'msg_discard_tr'
  | 'msg_import_deferred_fin'
  | 'msg_import_deferred_tr';

export interface InMsg {
  type: InMsgType;
  /** The Message cell (directly, or through the envelope). */
  msg: number;
  envelope: MsgEnvelope | null;
  /** Transaction cell that imported the message, when the constructor has one. */
  transaction: number | null;
  /** fwd_fee, ihr_fee or transit_fee, whichever the constructor carries. */
  fee: bigint | null;
}

export function loadInMsg(s: Slice): InMsg {
  const t3 = s.loadUint(3);
  const env = (): MsgEnvelope => loadMsgEnvelope(new Slice(s.boc, s.loadRef()));
  switch (t3) {
    case 0b000: {
      const msg = s.loadRef();
      return { type: 'msg_import_ext', msg, envelope: null, transaction: s.loadRef(), fee: null };
    }
    case 0b010: {
      const msg = s.loadRef();
      const transaction = s.loadRef();
      const fee = s.loadCoins();
      s.loadRef();
      return { type: 'msg_import_ihr', msg, envelope: null, transaction, fee };
    }
    case 0b011:
    case 0b100: {
      const envelope = env();
      const transaction = s.loadRef();
      const fee = s.loadCoins();
      return { type: t3 === 0b011 ? 'msg_import_imm' : 'msg_import_fin', msg: envelope.msg, envelope, transaction, fee };
    }
    case 0b101: {
      const envelope = env();
      s.loadRef();
      return { type: 'msg_import_tr', msg: envelope.msg, envelope, transaction: null, fee: s.loadCoins() };
    }
    case 0b110:
    case 0b111: {
      const envelope = env();
      s.skip(64);
      const fee = s.loadCoins();
      if (t3 === 0b111) s.loadRef();
      return { type: t3 === 0b110 ? 'msg_discard_fin' : 'msg_discard_tr', msg: envelope.msg, envelope, transaction: null, fee };
    }
    case 0b001: {
      const t2 = s.loadUint(2);
      if (t2 === 0b00) {
        const envelope = env();
        const transaction = s.loadRef();
        return { type: 'msg_import_deferred_fin', msg: envelope.msg, envelope, transaction, fee: s.loadCoins() };
      }
      if (t2 === 0b01) {
        const envelope = env();
        s.loadRef();
        return { type: 'msg_import_deferred_tr', msg: envelope.msg, envelope, transaction: null, fee: null };
      }
      throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'InMsg', `tag $001${t2.toString(2).padStart(2, '0')}`);
    }
    default:
      throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'InMsg', `tag $${t3.toString(2).padStart(3, '0')}`);
  }
}

/** The InMsg constructors a collator without IHR or transit writes for messages it imports. */
export type InMsgInput<C> =
  | { type: 'msg_import_ext'; msg: C; transaction: C }
  | { type: 'msg_import_fin' | 'msg_import_imm'; envelope: C; transaction: C; fwdFee: bigint };

export function storeInMsg<C>(m: InMsgInput<C>, b: TlbBuilder<C>): void {
  if (m.type === 'msg_import_ext') {
    b.storeUint(0b000, 3);
    b.storeRef(m.msg);
    b.storeRef(m.transaction);
    return;
  }
  b.storeUint(m.type === 'msg_import_fin' ? 0b100 : 0b011, 3);
  b.storeRef(m.envelope);
  b.storeRef(m.transaction);
  b.storeCoins(m.fwdFee);
}
