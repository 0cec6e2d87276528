import { Address, Cell, Dictionary, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { cellHash } from '../boc/built.js';
import { bodySlice } from './cell.js';
import {
  loadMultisigApprove,
  loadMultisigApproveRejected,
  loadMultisigExecute,
  loadMultisigInitOrder,
  loadMultisigInitOrderAsTonCenter,
  loadMultisigNewOrder,
  loadMultisigOrderActions,
  loadMultisigOrderData,
  loadMultisigSigners,
} from './Multisig.js';

/*
 * The multisig v2 readers against bodies written field by field from multisig-contract-v2's `contracts/multisig.tlb`
 * (and order.func's storage) with @ton/core's builder: each field read back is the one written.
 */

const slice = (c: Cell) => bodySlice(c.toBoc().toString('base64'));
const raw = (a: Address): string => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const A = Address.parseRaw('0:' + '11'.repeat(32));
const B = Address.parseRaw('0:' + '22'.repeat(32));
const C = Address.parseRaw('-1:' + '33'.repeat(32));
const MULTISIG = Address.parseRaw('0:' + '44'.repeat(32));

function signersDict(list: Address[]): Cell {
  const d = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
  list.forEach((a, i) => d.set(i, a));
  return beginCell().storeDictDirect(d).endCell();
}

/** An Order (`Hashmap 8 Action`, each action by reference): a send_message and an update_multisig_param. */
function order(): { cell: Cell; message: Cell; newSigners: Cell } {
  const message = beginCell().storeUint(0x18, 6).storeAddress(A).storeCoins(5n).storeUint(0, 107).endCell();
  const newSigners = signersDict([B, C]);
  const d = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell());
  d.set(0, beginCell().storeUint(0xf1381e5b, 32).storeUint(3, 8).storeRef(message).endCell());
  d.set(7, beginCell().storeUint(0x1d0cfbd3, 32).storeUint(2, 8).storeRef(newSigners).storeBit(0).endCell());
  return { cell: beginCell().storeDictDirect(d).endCell(), message, newSigners };
}

describe('multisig v2 message bodies (multisig.tlb)', () => {
  it('new_order: query id, order seqno (256 bits), signer flag, index, expiration (48 bits), the order', () => {
    const o = order().cell;
    const seqno = (1n << 255n) + 12345n;
    const s = slice(beginCell().storeUint(0xf718510f, 32).storeUint(777n, 64).storeUint(seqno, 256).storeBit(1).storeUint(2, 8).storeUint(0xffff_ffff_ffffn, 48).storeRef(o).endCell());
    const m = loadMultisigNewOrder(s);
    expect(m).toMatchObject({ queryId: 777n, orderSeqno: seqno, isSigner: true, index: 2, expirationDate: 0xffff_ffff_ffff });
    expect(Buffer.from(cellHash(s.boc, m.order)).equals(o.hash())).toBe(true);
  });

  it('init: threshold, the signers, expiration, the order and the creator approval with and without an index', () => {
    const o = order().cell;
    const signers = signersDict([A, B, C]);
    const withIndex = slice(beginCell().storeUint(0x9c73fba2, 32).storeUint(9n, 64).storeUint(2, 8).storeRef(signers).storeUint(1_800_000_000, 48).storeRef(o).storeBit(1).storeUint(1, 8).endCell());
    const i = loadMultisigInitOrder(withIndex);
    expect(i).toMatchObject({ queryId: 9n, threshold: 2, expirationDate: 1_800_000_000, approveOnInit: true, signerIndex: 1 });
    expect(Buffer.from(cellHash(withIndex.boc, i.signers)).equals(signers.hash())).toBe(true);
    expect(Buffer.from(cellHash(withIndex.boc, i.order)).equals(o.hash())).toBe(true);
    const byProposer = loadMultisigInitOrder(slice(beginCell().storeUint(0x9c73fba2, 32).storeUint(9n, 64).storeUint(2, 8).storeRef(signers).storeUint(1_800_000_000, 48).storeRef(o).storeBit(0).endCell()));
    expect(byProposer).toMatchObject({ approveOnInit: false, signerIndex: -1 });
  });

  it("init as TON Center's reader takes it (signers by pytoniq's load_dict: a presence bit where the multisig stores a bare reference)", () => {
    const o = order().cell;
    const signers = signersDict([A, B, C]);
    const init = (tail: (b: ReturnType<typeof beginCell>) => void, expiration = 1_800_000_000) => {
      const b = beginCell().storeUint(0x9c73fba2, 32).storeUint(9n, 64).storeUint(2, 8).storeRef(signers).storeUint(expiration, 48).storeRef(o);
      tail(b);
      return slice(b.endCell());
    };
    // Created by signer 1 (approve_on_init = 1, index 1): the presence bit is the expiration's top bit (0), so no
    // reference is taken for the signers, and the "order" is the first reference: the signers dictionary; the
    // approval bit read is the top bit of the index byte.
    const bySigner = init((b) => b.storeBit(1).storeUint(1, 8));
    const t = loadMultisigInitOrderAsTonCenter(bySigner);
    expect(Buffer.from(cellHash(bySigner.boc, t.order)).equals(signers.hash())).toBe(true);
    expect(t).toMatchObject({ approveOnInit: false, signerIndex: -1 });
    // A proposer's order (no index) and a signer index of 128 or more leave too few bits: the reader throws.
    expect(() => loadMultisigInitOrderAsTonCenter(init((b) => b.storeBit(0)))).toThrow();
    expect(() => loadMultisigInitOrderAsTonCenter(init((b) => b.storeBit(1).storeUint(200, 8)))).toThrow();
    // An expiration with its 48th bit set would make the bit a presence bit: then the signers are taken as the
    // dictionary and the order is the order.
    const far = init((b) => b.storeBit(1).storeUint(1, 8), 2 ** 47 + 5);
    const f = loadMultisigInitOrderAsTonCenter(far);
    expect(Buffer.from(cellHash(far.boc, f.order)).equals(o.hash())).toBe(true);
  });

  it('approve, approve_rejected and execute', () => {
    expect(loadMultisigApprove(slice(beginCell().storeUint(0xa762230f, 32).storeUint(5n, 64).storeUint(3, 8).endCell()))).toEqual({ queryId: 5n, signerIndex: 3 });
    expect(loadMultisigApproveRejected(slice(beginCell().storeUint(0xafaf283e, 32).storeUint(5n, 64).storeUint(107, 32).endCell()))).toEqual({ queryId: 5n, exitCode: 107 });
    const o = order().cell;
    const signersHash = signersDict([A, B]).hash();
    const s = slice(beginCell().storeUint(0x75097f5d, 32).storeUint(11n, 64).storeUint(4n, 256).storeUint(1_800_000_001, 48).storeUint(2, 8).storeBuffer(signersHash).storeRef(o).endCell());
    const e = loadMultisigExecute(s);
    expect(e).toMatchObject({ queryId: 11n, orderSeqno: 4n, expirationDate: 1_800_000_001, approvalsNum: 2 });
    expect(Buffer.from(e.signersHash).equals(signersHash)).toBe(true);
    expect(Buffer.from(cellHash(s.boc, e.order)).equals(o.hash())).toBe(true);
  });

  it('refuses another opcode', () => {
    const body = beginCell().storeUint(0x12345678, 32).storeUint(0, 64).storeUint(0, 8).endCell();
    expect(() => loadMultisigApprove(slice(body))).toThrow();
    expect(() => loadMultisigExecute(slice(body))).toThrow();
  });

  it('an order: its actions in index order, by reference', () => {
    const { cell, message, newSigners } = order();
    const s = slice(cell);
    const actions = loadMultisigOrderActions(s);
    expect(actions.map((a) => [a.index, a.type])).toEqual([
      [0, 'send_message'],
      [7, 'update_multisig_param'],
    ]);
    const send = actions[0]!;
    if (send.type !== 'send_message') throw new Error('unreachable');
    expect(send.mode).toBe(3);
    expect(Buffer.from(cellHash(s.boc, send.message)).equals(message.hash())).toBe(true);
    const upd = actions[1]!;
    if (upd.type !== 'update_multisig_param') throw new Error('unreachable');
    expect(upd.threshold).toBe(2);
    expect(loadMultisigSigners(slice(newSigners)).map((x) => x.address)).toEqual([raw(B), raw(C)]);
  });

  it('order storage (order.func load_data): initialised, bits only, and before init', () => {
    const signers = signersDict([A, B, C]);
    const data = beginCell()
      .storeAddress(MULTISIG)
      .storeUint(3n, 256)
      .storeUint(2, 8)
      .storeBit(1)
      .storeRef(signers)
      .storeUint(0b101n, 256)
      .storeUint(2, 8)
      .storeUint(1_800_000_000, 48)
      .storeRef(order().cell)
      .endCell();
    expect(loadMultisigOrderData(slice(data))).toEqual({
      multisig: raw(MULTISIG),
      orderSeqno: 3n,
      threshold: 2,
      sentForExecution: true,
      approvalsMask: 5n,
      approvalsNum: 2,
      expirationDate: 1_800_000_000,
      signers: [raw(A), raw(B), raw(C)],
    });
    // The root's bits without its references (what a reader has when the tree below was never stored whole).
    const bitsOnly = beginCell().storeBits(data.bits).endCell();
    expect(loadMultisigOrderData(slice(bitsOnly))?.signers).toBeNull();
    expect(loadMultisigOrderData(slice(beginCell().storeAddress(MULTISIG).storeUint(3n, 256).endCell()))).toBeNull();
  });
});
