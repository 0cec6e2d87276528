import { Address, type Cell, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { JETTON_TRANSFER, loadJettonTransfer } from './JettonTransfer.js';
import { loadTransferComment } from './TextComment.js';
import { bodySlice } from './cell.js';

/**
 * Comments read from message bodies built with @ton/core from their TL-B (`text_comment#00000000 text:Snake`,
 * `encrypted_comment#2167da4b`, TEP-74 `transfer#0f8a7ea5 ... forward_payload:(Either Cell ^Cell)`). A snake string is
 * whole bytes per cell, continued through one reference; TON Center's reader (pytoniq `load_snake_bytes`) rejects
 * a chain with a cell of unaligned bits or more than one reference, so such a comment is no comment at all.
 */
const slice = (c: Cell) => bodySlice(c.toBoc().toString('base64'));
const text = (s: string) => Buffer.from(s, 'utf8');
const OWNER = Address.parse('0:' + '11'.repeat(32));
const RESPONSE = Address.parse('0:' + '22'.repeat(32));

function jettonTransfer(payload: Cell): Cell {
  return beginCell()
    .storeUint(JETTON_TRANSFER, 32)
    .storeUint(7, 64)
    .storeCoins(1000n)
    .storeAddress(OWNER)
    .storeAddress(RESPONSE)
    .storeMaybeRef(null)
    .storeCoins(5n)
    .storeBit(1)
    .storeRef(payload)
    .endCell();
}

describe('jetton transfer comments', () => {
  it('reads a snake comment continued through its reference', () => {
    const payload = beginCell().storeUint(0, 32).storeBuffer(text('hello ')).storeRef(beginCell().storeBuffer(text('world'))).endCell();
    const t = loadJettonTransfer(slice(jettonTransfer(payload)));
    expect(Buffer.from(t.comment!).toString('utf8')).toBe('hello world');
    expect(t.encryptedComment).toBe(false);
  });

  it('reads an encrypted comment as bytes, flagged encrypted', () => {
    const payload = beginCell().storeUint(0x2167da4b, 32).storeBuffer(Buffer.from([1, 2, 3, 250])).endCell();
    const t = loadJettonTransfer(slice(jettonTransfer(payload)));
    expect([...t.comment!]).toEqual([1, 2, 3, 250]);
    expect(t.encryptedComment).toBe(true);
  });

  it('has no comment when the text cell has two references, but keeps the payload', () => {
    const payload = beginCell()
      .storeUint(0, 32)
      .storeBuffer(text('abc'))
      .storeRef(beginCell().storeBuffer(text('d')))
      .storeRef(beginCell().storeBuffer(text('e')))
      .endCell();
    const t = loadJettonTransfer(slice(jettonTransfer(payload)));
    expect(t.comment).toBeNull();
    expect(t.forwardPayload).not.toBeNull();
  });

  it('has no comment when the text is not whole bytes', () => {
    const payload = beginCell().storeUint(0, 32).storeBuffer(text('ab')).storeUint(1, 4).endCell();
    expect(loadJettonTransfer(slice(jettonTransfer(payload))).comment).toBeNull();
  });

  it('has no comment when a continuation cell is not whole bytes', () => {
    const payload = beginCell().storeUint(0, 32).storeBuffer(text('ab')).storeRef(beginCell().storeBuffer(text('c')).storeUint(1, 3)).endCell();
    expect(loadJettonTransfer(slice(jettonTransfer(payload))).comment).toBeNull();
  });

  it('an empty text comment is the empty string', () => {
    const t = loadJettonTransfer(slice(jettonTransfer(beginCell().storeUint(0, 32).endCell())));
    expect(t.comment).not.toBeNull();
    expect(t.comment!.length).toBe(0);
  });
});

describe('TON transfer comments', () => {
  it('reads a snake comment continued through its reference', () => {
    const body = beginCell().storeUint(0, 32).storeBuffer(text('gm ')).storeRef(beginCell().storeBuffer(text('ton'))).endCell();
    expect(Buffer.from(loadTransferComment(slice(body)).comment!).toString('utf8')).toBe('gm ton');
  });

  it('has no comment when a continuation cell is not whole bytes or has two references', () => {
    const unaligned = beginCell().storeUint(0, 32).storeBuffer(text('gm')).storeRef(beginCell().storeBuffer(text('x')).storeBit(1)).endCell();
    expect(loadTransferComment(slice(unaligned)).comment).toBeNull();
    const forked = beginCell()
      .storeUint(0, 32)
      .storeBuffer(text('gm'))
      .storeRef(beginCell().storeBuffer(text('x')).storeRef(beginCell()).storeRef(beginCell()))
      .endCell();
    expect(loadTransferComment(slice(forked)).comment).toBeNull();
  });

  it('an empty text is no comment, an encrypted one is flagged', () => {
    expect(loadTransferComment(slice(beginCell().storeUint(0, 32).endCell())).comment).toBeNull();
    const enc = loadTransferComment(slice(beginCell().storeUint(0x2167da4b, 32).storeBuffer(Buffer.from([9, 8])).endCell()));
    expect(enc.encrypted).toBe(true);
    expect([...enc.comment!]).toEqual([9, 8]);
  });
});
