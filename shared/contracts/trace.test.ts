import { describe, expect, it } from 'vitest';
import { HEADER_SCHEMA_VERSION } from '../bus/bus.js';
import { errorCode } from '../runtime/errors.js';
import type { Trace } from '../ton/traces.js';
import {
  type CarriedRows,
  TRACE_MESSAGE_FIELDS,
  TRACE_TX_FIELDS,
  carriedMessages,
  carriedRows,
  carriedTransaction,
  decodeTrace,
  encodeTrace,
  traceRows,
} from './trace.js';
import { DOCUMENT_CONTENT_FIELDS, DOCUMENT_MESSAGE_FIELDS, DOCUMENT_STATE_FIELDS, DOCUMENT_TX_FIELDS, decodeTransactionDocument, encodeTransactionDocument } from './transaction-document.js';

/** Rows whose every field holds a distinct value, so a field read from another's position cannot go unnoticed. */
function row<F extends readonly string[]>(fields: F, tag: string): { [K in F[number]]: string } {
  return Object.fromEntries(fields.map((f) => [f, `${tag}.${f}`])) as { [K in F[number]]: string };
}

/** A stored transaction document (version 2) of a transaction with an inbound and an outbound message. */
function document(tag: string): string {
  const description = { type: 'ord', aborted: true, credit_first: false, compute_ph: { skipped: false, success: false, exit_code: 33, gas_used: '409' }, action: { success: false } };
  return encodeTransactionDocument({
    tx: { ...row(DOCUMENT_TX_FIELDS, `${tag}.tx`), description: JSON.stringify(description) },
    messages: [
      { ...row(DOCUMENT_MESSAGE_FIELDS, `${tag}.in`), direction: 'in', body_hash: `${tag}.body.in`, init_state_hash: `${tag}.init` },
      { ...row(DOCUMENT_MESSAGE_FIELDS, `${tag}.out`), direction: 'out', body_hash: `${tag}.body.out`, opcode: -5 },
    ],
    contents: [
      { ...row(DOCUMENT_CONTENT_FIELDS, `${tag}.c0`), hash: `${tag}.body.in`, boc: 'te6ccgEBAQEAAgAAAA==' },
      { ...row(DOCUMENT_CONTENT_FIELDS, `${tag}.c1`), hash: `${tag}.init`, boc: 'te6ccgEBAQEAAwAAAQ==' },
      { ...row(DOCUMENT_CONTENT_FIELDS, `${tag}.c2`), hash: `${tag}.body.out`, boc: 'te6ccgEBAQEAAwAAAg==' },
    ],
    states: [row(DOCUMENT_STATE_FIELDS, `${tag}.s0`)],
  });
}

const trace = (hashes: string[]): Trace => ({
  traceId: 'T',
  externalHash: null,
  externalHashNorm: null,
  mcSeqnoStart: 1,
  mcSeqnoEnd: 2,
  startLt: 10n,
  startUtime: 100,
  endLt: 20n,
  endUtime: 200,
  state: 'complete',
  transactions: hashes.length,
  messages: hashes.length,
  pendingMessages: 0,
  txs: hashes.map((hash, i) => ({ hash, account: `0:${i}`, lt: BigInt(10 + i), now: 100 + i, mcSeqno: 1 })),
});

describe('trace message contract: the carried rows', () => {
  it('carries each column the classifier reads at its own position, the bodies once, no init state and no state', () => {
    const doc = decodeTransactionDocument(document('a'));
    const c = carriedRows(doc);
    expect(carriedTransaction(c.tx)).toEqual(Object.fromEntries(TRACE_TX_FIELDS.map((f) => [f, `a.tx.${f}`])));
    // The description: what the classifier reads of it, nothing else.
    expect(c.tx[1]).toEqual({ type: 'ord', aborted: true, compute_ph: { skipped: false, exit_code: 33 } });
    const msgs = carriedMessages(c.tx, { tx_hash: 'h' });
    expect(msgs).toEqual(doc.messages.map((m) => ({ ...Object.fromEntries(TRACE_MESSAGE_FIELDS.map((f) => [f, m[f]])), tx_hash: 'h' })));
    expect(msgs[1]!.opcode).toBe(-5);
    expect(c.bodies).toEqual([
      ['a.body.in', 'te6ccgEBAQEAAgAAAA=='],
      ['a.body.out', 'te6ccgEBAQEAAwAAAg=='],
    ]);
  });

  it('round-trips through the message, one entry per transaction, null where not carried', () => {
    const rows = new Map<string, CarriedRows>([
      ['h0', carriedRows(decodeTransactionDocument(document('a')))],
      ['h2', carriedRows(decodeTransactionDocument(document('b')))],
    ]);
    const t = trace(['h0', 'h1', 'h2']);
    const r = traceRows(t.txs.map((x) => x.hash), (h) => rows.get(h));
    const decoded = decodeTrace({ ...encodeTrace(t, r), headers: { [HEADER_SCHEMA_VERSION]: '1' } });
    expect(decoded.rows?.txs).toEqual([rows.get('h0')!.tx, null, rows.get('h2')!.tx]);
    expect(decoded.rows?.bodies.map(([h]) => h)).toEqual(['a.body.in', 'a.body.out', 'b.body.in', 'b.body.out']);
    // None carried: no `rows` at all, the message as before them.
    const bare = encodeTrace(t, traceRows(['h1'], (h) => rows.get(h)));
    expect(JSON.parse(bare.value.toString())).not.toHaveProperty('rows');
  });

  it('carries nothing for a trace whose rows are over the cap', () => {
    const a = carriedRows(decodeTransactionDocument(document('a')));
    const b = carriedRows(decodeTransactionDocument(document('b')));
    const of = (h: string): CarriedRows | undefined => (h === 'a' ? a : h === 'b' ? b : undefined);
    expect(traceRows(['a', 'b'], of, a.bytes + b.bytes)).toBeDefined();
    expect(traceRows(['a', 'b'], of, a.bytes + b.bytes - 1)).toBeUndefined();
  });

  it('rejects rows that are not one well-formed entry per transaction as a poison message', () => {
    const t = trace(['h0']);
    const good = carriedRows(decodeTransactionDocument(document('a'))).tx;
    const bad = [
      { txs: [], bodies: [] },
      { txs: [good, null], bodies: [] },
      { txs: [[good[0], good[1]]], bodies: [] },
      { txs: [[good[0].slice(1), good[1], good[2]]], bodies: [] },
      { txs: [[good[0], good[1], [['in']]]], bodies: [] },
      { txs: [good], bodies: [['only-a-hash']] },
      'rows',
    ];
    for (const rows of bad) {
      const value = Buffer.from(JSON.stringify({ ...JSON.parse(encodeTrace(t).value.toString()), rows }));
      let error: unknown;
      try {
        decodeTrace({ value, headers: { [HEADER_SCHEMA_VERSION]: '1' } });
      } catch (e) {
        error = e;
      }
      expect(errorCode(error), JSON.stringify(rows)).toBe('TRACE_VALUE');
    }
  });
});
