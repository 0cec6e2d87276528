import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_CONTENT_FIELDS,
  DOCUMENT_MESSAGE_FIELDS,
  DOCUMENT_STATE_FIELDS,
  DOCUMENT_TX_FIELDS,
  decodeTransactionDocument,
  encodeTransactionDocument,
} from './transaction-document.js';
import { accountStates } from '../store/tables/account-states.js';
import { messageContents } from '../store/tables/message-contents.js';
import { messages } from '../store/tables/messages.js';
import { transactions } from '../store/tables/transactions.js';

/** Rows whose every field holds a distinct value, so a field read from another's position cannot go unnoticed. */
function row<F extends readonly string[]>(fields: F, tag: string): { [K in F[number]]: string } {
  return Object.fromEntries(fields.map((f) => [f, `${tag}.${f}`])) as { [K in F[number]]: string };
}

describe('transaction document contract', () => {
  const description = { type: 'ord', aborted: false, compute_ph: { skipped: false, gas_used: '409', note: 'a "quoted"\ttab\\' } };
  const parts = {
    tx: { ...row(DOCUMENT_TX_FIELDS, 'tx'), mc_block_seqno: null, total_fees_extra_currencies: { '239': '5' }, description: JSON.stringify(description) },
    messages: [row(DOCUMENT_MESSAGE_FIELDS, 'm0'), { ...row(DOCUMENT_MESSAGE_FIELDS, 'm1'), opcode: -5, bounce: true }],
    contents: [{ ...row(DOCUMENT_CONTENT_FIELDS, 'c0'), decoded: JSON.stringify({ type: 'text_comment', comment: 'hi' }) }, { ...row(DOCUMENT_CONTENT_FIELDS, 'c1'), decoded: null }],
    states: [row(DOCUMENT_STATE_FIELDS, 's0')],
  };

  it('version 2 reads back every field at its name, the description as the object', () => {
    const text = encodeTransactionDocument(parts);
    expect(JSON.parse(text)[0]).toBe(2);
    const d = decodeTransactionDocument(text);
    const { description: _d, ...tx } = parts.tx;
    expect(d.tx).toEqual({ ...tx, description });
    expect(d.messages).toEqual(parts.messages);
    expect(d.contents).toEqual(parts.contents);
    expect(d.states).toEqual(parts.states);
  });

  it('version 2 positions are the tables\' columns, in table order (a new column is a new version\'s decision)', () => {
    // The wire layout, spelled out: stored documents are read by these positions.
    expect([DOCUMENT_TX_FIELDS.length, DOCUMENT_MESSAGE_FIELDS.length, DOCUMENT_CONTENT_FIELDS, DOCUMENT_STATE_FIELDS]).toEqual([
      17,
      19,
      ['hash', 'boc', 'decoded'],
      ['hash', 'balance', 'extra_currencies', 'status', 'frozen_hash', 'data_hash', 'code_hash'],
    ]);
    expect(DOCUMENT_TX_FIELDS).toEqual(transactions.written.filter((c) => c !== 'description'));
    expect(DOCUMENT_MESSAGE_FIELDS).toEqual(messages.written.filter((c) => !['tx_account', 'tx_lt', 'tx_hash'].includes(c)));
    expect(DOCUMENT_CONTENT_FIELDS).toEqual(messageContents.written);
    expect(DOCUMENT_STATE_FIELDS.every((c) => accountStates.written.includes(c))).toBe(true);
  });

  it('names no field twice in a row, so positions are a one-to-one map', () => {
    for (const fields of [DOCUMENT_TX_FIELDS, DOCUMENT_MESSAGE_FIELDS, DOCUMENT_CONTENT_FIELDS, DOCUMENT_STATE_FIELDS]) {
      expect(new Set(fields).size).toBe(fields.length);
    }
  });

  it('carries fields a row has beyond the layout nowhere, and writes a missing one as null', () => {
    const extra = { ...parts, messages: [{ ...parts.messages[0]!, tx_account: 'x', tx_lt: '1' }] };
    expect(decodeTransactionDocument(encodeTransactionDocument(extra)).messages).toEqual([parts.messages[0]]);
    const { hash_norm: _h, ...short } = parts.messages[0]!;
    const d = decodeTransactionDocument(encodeTransactionDocument({ ...parts, messages: [short as never] }));
    expect(d.messages[0]!.hash_norm).toBeNull();
  });

  it('reads version 1, the object form written before, with its description as object or as JSON text', () => {
    const { description: _d, ...tx } = parts.tx;
    for (const desc of [description, JSON.stringify(description)]) {
      const v1 = JSON.stringify({ ...tx, description: desc, messages: parts.messages, contents: parts.contents, states: parts.states });
      const d = decodeTransactionDocument(v1);
      expect(d.tx).toEqual({ ...tx, description: desc });
      expect(d.messages).toEqual(parts.messages);
      expect(d.contents).toEqual(parts.contents);
      expect(d.states).toEqual(parts.states);
    }
  });

  it('rejects what is not a document of a known version, as non-retryable', () => {
    const v2 = JSON.parse(encodeTransactionDocument(parts)) as unknown[];
    const bad = [
      '',
      '{"account":',
      'null',
      '"text"',
      JSON.stringify([3, ...v2.slice(1)]),
      JSON.stringify(v2.slice(0, 5)),
      JSON.stringify([2, {}, [], [], [], {}]),
      JSON.stringify({ account: 'a', messages: [] }),
    ];
    for (const text of bad) {
      expect(() => decodeTransactionDocument(text), text).toThrow(expect.objectContaining({ code: 'TRANSACTION_DOCUMENT', retryable: false }));
    }
  });
});
