import { HEADER_SCHEMA_VERSION, type IncomingMessage, type OutgoingMessage } from '../bus/bus.js';
import { NonRetryableError } from '../runtime/errors.js';
import type { MessageRow } from '../store/tables/messages.js';
import type { TransactionRow } from '../store/tables/transactions.js';
import type { WireTransactionDescr } from '../ton/records/wire.js';
import type { Trace } from '../ton/traces.js';
import { type DocumentRows, pick, unpick } from './transaction-document.js';

/**
 * The traces topic's wire format, version 1: one message per completed trace, with its transactions, published by
 * the trace stage in masterchain order once the trace's rows are stored. At-least-once like every topic: a replay
 * after a crash publishes a trace again, identically (key: its trace_id).
 *
 * value: JSON {@link TraceJson}, field names and encodings as TON Center's /api/v3/traces (`trace_id`,
 * `external_hash` as b64, lts as decimal strings, mc seqnos as numbers here).
 *
 * `rows` (optional, added within version 1: a reader that does not know it ignores it, a message without it is
 * read as before): the rows of the trace's transactions that the action classifier reads, so that its stage need not
 * read them back from the store ({@link TraceRowsJson}). Absent, or null for a transaction, where the trace stage
 * did not have them (the decode stage wrote no transaction documents) or the trace's rows are over
 * {@link TRACE_ROWS_MAX_BYTES}: the reader then reads those transactions from the store.
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
  rows?: TraceRowsJson;
}

/**
 * The carried rows of a trace's transactions, positional (the field names would be most of the text, as in a
 * transaction document, transaction-document.ts). `txs[i]` belongs to `transactions[i]` (whose key, hash and `now`
 * it does not repeat), null when not carried: `[tx, description, messages]` with
 *   tx:          the `transactions` row's values in the order of {@link TRACE_TX_FIELDS};
 *   description: the parts of the row's TransactionDescr ({@link TraceDescription}) the classifier reads;
 *   messages:    one array per `messages` row of the transaction (in first, then out in order), {@link TRACE_MESSAGE_FIELDS}.
 * `bodies`: `[hash, boc]` of every message body of those messages (`message_contents`), each once per trace.
 */
export interface TraceRowsJson {
  txs: Array<CarriedTx | null>;
  bodies: Array<[hash: string, boc: string]>;
}

export type CarriedTx = [tx: unknown[], description: TraceDescription, messages: unknown[][]];

/** The columns of a carried transaction besides those `transactions[i]` has (its key, hash and `now`). */
export const TRACE_TX_FIELDS = ['mc_block_seqno', 'orig_status', 'end_status', 'total_fees'] as const satisfies ReadonlyArray<keyof TransactionRow>;

/** The columns of a carried message: what the classifier reads of a message (shared/ton/actions/trace.ts TraceMessage). */
export const TRACE_MESSAGE_FIELDS = [
  'direction',
  'msg_hash',
  'source',
  'destination',
  'value',
  'value_extra_currencies',
  'fwd_fee',
  'created_lt',
  'created_at',
  'opcode',
  'bounce',
  'bounced',
  'body_hash',
] as const satisfies ReadonlyArray<keyof MessageRow>;

type ComputePhase = NonNullable<WireTransactionDescr['compute_ph']>;

/** What the classifier reads of a transaction's description (v3 TransactionDescr, shared/ton/records/wire.ts). */
export type TraceDescription = Pick<WireTransactionDescr, 'type' | 'aborted'> & { compute_ph?: Pick<ComputePhase, 'skipped' | 'reason' | 'exit_code'> };

/**
 * Bound of the carried rows' size per trace message (estimated as the bodies' BoC text plus a fixed allowance per
 * message and transaction): a larger trace carries none, and its reader reads its rows from the store. The topic
 * takes far larger messages (topics.ts), but a broker's or a consumer's fetch limit may be set lower than that, and
 * a trace of thousands of transactions would make a message of many megabytes for rows the store has anyway.
 */
export const TRACE_ROWS_MAX_BYTES = 1024 * 1024;

/** One transaction's carried rows, with their estimated size toward {@link TRACE_ROWS_MAX_BYTES}. */
export interface CarriedRows {
  tx: CarriedTx;
  bodies: Array<[string, string]>;
  bytes: number;
}

const TX_ALLOWANCE = 160;
const MESSAGE_ALLOWANCE = 400;

/**
 * A transaction's carried rows from its transaction document (transaction-document.ts: the same rows, every column).
 * Only the message bodies travel of its contents (init states are not read by the classifier).
 */
export function carriedRows(doc: DocumentRows): CarriedRows {
  const d = doc.tx['description'];
  const full = (typeof d === 'string' ? JSON.parse(d) : d) as WireTransactionDescr;
  const description: TraceDescription = { type: full.type };
  if (full.aborted !== undefined) description.aborted = full.aborted;
  if (full.compute_ph) {
    const c = full.compute_ph;
    description.compute_ph = { skipped: c.skipped };
    if (c.reason !== undefined) description.compute_ph.reason = c.reason;
    if (c.exit_code !== undefined) description.compute_ph.exit_code = c.exit_code;
  }
  const messages = doc.messages.map((m) => pick(m, TRACE_MESSAGE_FIELDS));
  const bodyHashes = new Set(doc.messages.map((m) => m['body_hash']));
  const bodies: Array<[string, string]> = [];
  let bytes = TX_ALLOWANCE + MESSAGE_ALLOWANCE * messages.length;
  for (const c of doc.contents) {
    if (!bodyHashes.has(c['hash'])) continue;
    const boc = String(c['boc']);
    bodies.push([String(c['hash']), boc]);
    bytes += boc.length;
  }
  return { tx: [pick(doc.tx, TRACE_TX_FIELDS), description, messages], bodies, bytes };
}

/**
 * The `rows` of a trace message from its transactions' carried rows (`txHashes` in the trace's order; `of(hash)`,
 * undefined where there are none): undefined when none is carried or they are over `maxBytes` together.
 */
export function traceRows(
  txHashes: readonly string[],
  of: (txHash: string) => CarriedRows | undefined,
  maxBytes = TRACE_ROWS_MAX_BYTES,
): TraceRowsJson | undefined {
  const txs: Array<CarriedTx | null> = [];
  const bodies = new Map<string, string>();
  let bytes = 0;
  let any = false;
  for (const hash of txHashes) {
    const r = of(hash);
    if (!r) {
      txs.push(null);
      continue;
    }
    any = true;
    bytes += r.bytes;
    if (bytes > maxBytes) return undefined;
    txs.push(r.tx);
    for (const [h, boc] of r.bodies) bodies.set(h, boc);
  }
  return any ? { txs, bodies: [...bodies] } : undefined;
}

/** A carried transaction's row: its columns by name. */
export function carriedTransaction(c: CarriedTx): Pick<TransactionRow, (typeof TRACE_TX_FIELDS)[number]> {
  return unpick(c[0], TRACE_TX_FIELDS) as Pick<TransactionRow, (typeof TRACE_TX_FIELDS)[number]>;
}

/** A carried transaction's message rows: their columns by name, with `side`'s (the transaction's key and hash). */
export function carriedMessages<S extends Partial<MessageRow>>(c: CarriedTx, side: S): Array<Pick<MessageRow, (typeof TRACE_MESSAGE_FIELDS)[number]> & S> {
  return c[2].map((m) => Object.assign(unpick(m, TRACE_MESSAGE_FIELDS), side) as Pick<MessageRow, (typeof TRACE_MESSAGE_FIELDS)[number]> & S);
}

export function traceJson(t: Trace, rows?: TraceRowsJson): TraceJson {
  const json: TraceJson = {
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
  if (rows) json.rows = rows;
  return json;
}

export function encodeTrace(t: Trace, rows?: TraceRowsJson): OutgoingMessage {
  return { key: t.traceId, value: Buffer.from(JSON.stringify(traceJson(t, rows))), headers: { [HEADER_SCHEMA_VERSION]: TRACE_SCHEMA_VERSION } };
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
  if (t.rows !== undefined && !validRows(t.rows, t.transactions.length)) {
    throw new NonRetryableError('TRACE_VALUE', `trace ${t.trace_id} has rows that are not one entry per transaction`);
  }
  return t as TraceJson;
}

/** The shape of `rows` (its values are checked where they are read, as a stored row's would be). */
function validRows(rows: unknown, transactions: number): boolean {
  const r = rows as Partial<TraceRowsJson> | null;
  if (r === null || typeof r !== 'object' || !Array.isArray(r.txs) || r.txs.length !== transactions || !Array.isArray(r.bodies)) return false;
  for (const x of r.txs as unknown[]) {
    if (x === null) continue;
    if (!Array.isArray(x) || x.length !== 3 || !Array.isArray(x[0]) || x[0].length !== TRACE_TX_FIELDS.length) return false;
    if (x[1] === null || typeof x[1] !== 'object' || typeof (x[1] as { type?: unknown }).type !== 'string') return false;
    if (!Array.isArray(x[2]) || !(x[2] as unknown[]).every((m) => Array.isArray(m) && m.length === TRACE_MESSAGE_FIELDS.length)) return false;
  }
  return (r.bodies as unknown[]).every((b) => Array.isArray(b) && b.length === 2 && typeof b[0] === 'string' && typeof b[1] === 'string');
}

const UINT64 = /^(0|[1-9][0-9]{0,19})$/;
