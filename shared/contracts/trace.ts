import { HEADER_SCHEMA_VERSION, type IncomingMessage, type OutgoingMessage } from '../bus/bus.js';
import { NonRetryableError } from '../runtime/errors.js';
import type { Trace } from '../ton/traces.js';

/**
 * The traces topic's wire format, version 1: one message per completed trace, with its transactions, published by
 * the trace stage in masterchain order once the trace's rows are stored. At-least-once like every topic: a replay
 * after a crash publishes a trace again, identically (key: its trace_id).
 *
 * value: JSON {@link TraceJson}, field names and encodings as TON Center's /api/v3/traces (`trace_id`,
 * `external_hash` as b64, lts as decimal strings, mc seqnos as numbers here).
 */
export const TRACE_SCHEMA_VERSION = '1';

export interface TraceJson {
  trace_id: string;
  external_hash: string | null;
  external_hash_norm: string | null;
  mc_seqno_start: number;
  mc_seqno_end: number;
  start_lt: string;
  start_utime: number;
  end_lt: string;
  end_utime: number;
  trace_state: 'complete' | 'pending' | 'broken';
  messages: number;
  pending_messages: number;
  /** The trace's transactions in assembly order (lt, workchain, account within a masterchain block). */
  transactions: Array<{ hash: string; account: string; lt: string; now: number; mc_seqno: number }>;
}

export function traceJson(t: Trace): TraceJson {
  return {
    trace_id: t.traceId,
    external_hash: t.externalHash,
    external_hash_norm: t.externalHashNorm,
    mc_seqno_start: t.mcSeqnoStart,
    mc_seqno_end: t.mcSeqnoEnd,
    start_lt: t.startLt.toString(),
    start_utime: t.startUtime,
    end_lt: t.endLt.toString(),
    end_utime: t.endUtime,
    trace_state: t.state,
    messages: t.messages,
    pending_messages: t.pendingMessages,
    transactions: t.txs.map((x) => ({ hash: x.hash, account: x.account, lt: x.lt.toString(), now: x.now, mc_seqno: x.mcSeqno })),
  };
}

export function encodeTrace(t: Trace): OutgoingMessage {
  return { key: t.traceId, value: Buffer.from(JSON.stringify(traceJson(t))), headers: { [HEADER_SCHEMA_VERSION]: TRACE_SCHEMA_VERSION } };
}

export function decodeTrace(msg: Pick<IncomingMessage, 'headers' | 'value'>): TraceJson {
  const version = msg.headers[HEADER_SCHEMA_VERSION];
  if (version !== TRACE_SCHEMA_VERSION) throw new NonRetryableError('TRACE_SCHEMA', `trace message has schema version ${version ?? 'none'}, expected ${TRACE_SCHEMA_VERSION}`);
  let j: unknown;
  try {
    j = JSON.parse(msg.value.toString('utf8'));
  } catch {
    throw new NonRetryableError('TRACE_VALUE', 'trace message value is not JSON');
  }
  const t = j as Partial<TraceJson> | null;
  if (t === null || typeof t !== 'object' || typeof t.trace_id !== 'string' || !Array.isArray(t.transactions)) {
    throw new NonRetryableError('TRACE_VALUE', 'trace message lacks trace_id or transactions');
  }
  // Every transaction's key is read back from the store: one the store cannot take (an lt that is no 64-bit
  // number) would fail the statement of every trace read along with it.
  for (const x of t.transactions as unknown[]) {
    const tx = x as Partial<TraceJson['transactions'][number]> | null;
    if (tx === null || typeof tx !== 'object' || typeof tx.account !== 'string' || typeof tx.hash !== 'string' || typeof tx.lt !== 'string' || !UINT64.test(tx.lt) || BigInt(tx.lt) >= 2n ** 64n) {
      throw new NonRetryableError('TRACE_VALUE', `trace ${t.trace_id} has a transaction without account, hash or a 64-bit lt`);
    }
  }
  return t as TraceJson;
}

const UINT64 = /^(0|[1-9][0-9]{0,19})$/;
