import { NonRetryableError } from '../runtime/errors.js';
import { STATE_RECORD_COLUMNS } from '../store/tables/account-states.js';
import { CONTENT_COLUMNS } from '../store/tables/message-contents.js';
import { MESSAGE_FIELD_COLUMNS, type MessageRow } from '../store/tables/messages.js';
import type { TransactionRow } from '../store/tables/transactions.js';

/**
 * The `doc` column of `transaction_documents` (0009_transaction_documents.sql), read by two services: the decode stage
 * writes it, the gateway reads it. Everything a transaction's v3 record needs, as one JSON text.
 *
 * Version 2, positional: `[2, tx, messages, contents, states, description]`, where
 *   tx:          the `transactions` row's values in the order of {@link DOCUMENT_TX_FIELDS};
 *   messages:    one array per `messages` row of the transaction (in first, then out in order), {@link DOCUMENT_MESSAGE_FIELDS};
 *   contents:    one array per `message_contents` row of those messages' bodies and init states, {@link DOCUMENT_CONTENT_FIELDS};
 *   states:      one array per `account_states` row of the states before and after that the block holds, {@link DOCUMENT_STATE_FIELDS};
 *   description: the row's `description`, the JSON object itself (not a string holding it).
 * Why positions: the field names were over a quarter of a version-1 document (bench/RESULTS.md, ingest), and
 * every character is paid by the decode stage (stringify, TabSeparated escaping), ClickHouse (parse, RocksDB write and
 * compaction) and the gateway (parse): bench/RESULTS.md, ingest.
 *
 * Version 1 (written before; the layout 0009's comments describe) is the JSON object of the same rows: the `transactions` columns with `messages`,
 * `contents` and `states` arrays of row objects, `description` an object or (older still) its JSON text. Readers take
 * both, so an upgrade never rewrites a stored document.
 */
export const TRANSACTION_DOCUMENT_VERSION = 2;

/**
 * The positions of a version-2 document. They name the columns of the rows a document is made of (the table modules
 * in shared/store/tables); the lists are this contract's, fixed for version 2: a column a migration adds joins a
 * document only with a new version (transaction-document.test.ts fails until one is decided on).
 */
export const DOCUMENT_TX_FIELDS = [
  'account',
  'lt',
  'hash',
  'now',
  'mc_block_seqno',
  'block_workchain',
  'block_shard',
  'block_seqno',
  'trace_id',
  'prev_trans_hash',
  'prev_trans_lt',
  'orig_status',
  'end_status',
  'total_fees',
  'total_fees_extra_currencies',
  'account_state_hash_before',
  'account_state_hash_after',
] as const satisfies ReadonlyArray<keyof TransactionRow>;

export const DOCUMENT_MESSAGE_FIELDS = ['direction', 'msg_hash', ...MESSAGE_FIELD_COLUMNS] as const satisfies ReadonlyArray<keyof MessageRow>;

/** A body or init state: every `message_contents` column. */
export const DOCUMENT_CONTENT_FIELDS = CONTENT_COLUMNS;

/** A state: the columns of an AccountState record, as the gateway reads them from `account_states`. */
export const DOCUMENT_STATE_FIELDS = STATE_RECORD_COLUMNS;

type Fields<F extends readonly string[]> = { readonly [K in F[number]]: unknown };

/** What a document is made of: rows with (at least) the fields above, `description` as its JSON text. */
export interface DocumentParts {
  tx: Fields<typeof DOCUMENT_TX_FIELDS> & { readonly description: string };
  messages: ReadonlyArray<Fields<typeof DOCUMENT_MESSAGE_FIELDS>>;
  contents: ReadonlyArray<Fields<typeof DOCUMENT_CONTENT_FIELDS>>;
  states: ReadonlyArray<Fields<typeof DOCUMENT_STATE_FIELDS>>;
}

/** A document read back: row objects keyed by column name, `tx.description` parsed or (version 1, older) text. */
export interface DocumentRows {
  tx: Record<string, unknown>;
  messages: Array<Record<string, unknown>>;
  contents: Array<Record<string, unknown>>;
  states: Array<Record<string, unknown>>;
}

/** The version-2 text of a transaction's parts. `tx.description` must be JSON text: it is spliced in as it is. */
export function encodeTransactionDocument(parts: DocumentParts): string {
  const json = JSON.stringify([
    TRANSACTION_DOCUMENT_VERSION,
    pick(parts.tx, DOCUMENT_TX_FIELDS),
    parts.messages.map((m) => pick(m, DOCUMENT_MESSAGE_FIELDS)),
    parts.contents.map((c) => pick(c, DOCUMENT_CONTENT_FIELDS)),
    parts.states.map((s) => pick(s, DOCUMENT_STATE_FIELDS)),
  ]);
  return `${json.slice(0, -1)},${parts.tx.description}]`;
}

/** A stored document (either version) → its rows. Throws a non-retryable error for text that is not one. */
export function decodeTransactionDocument(text: string): DocumentRows {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new NonRetryableError('TRANSACTION_DOCUMENT', `transaction document is not JSON: ${(e as Error).message}`);
  }
  if (Array.isArray(v)) {
    if (v[0] !== TRANSACTION_DOCUMENT_VERSION || v.length !== 6 || !Array.isArray(v[1]) || ![v[2], v[3], v[4]].every(Array.isArray)) {
      throw new NonRetryableError('TRANSACTION_DOCUMENT', `transaction document of version ${JSON.stringify(v[0])} or shape this reader does not know`);
    }
    const tx = unpick(v[1] as unknown[], DOCUMENT_TX_FIELDS);
    tx.description = v[5];
    return {
      tx,
      messages: (v[2] as unknown[][]).map((m) => unpick(m, DOCUMENT_MESSAGE_FIELDS)),
      contents: (v[3] as unknown[][]).map((c) => unpick(c, DOCUMENT_CONTENT_FIELDS)),
      states: (v[4] as unknown[][]).map((s) => unpick(s, DOCUMENT_STATE_FIELDS)),
    };
  }
  if (typeof v === 'object' && v !== null) {
    const { messages, contents, states, ...tx } = v as Record<string, unknown>;
    if (Array.isArray(messages) && Array.isArray(contents) && Array.isArray(states)) return { tx, messages, contents, states };
  }
  throw new NonRetryableError('TRANSACTION_DOCUMENT', 'transaction document is neither version 2 nor version 1');
}

/** A row's values in the order of `fields` (the positional form of this contract and of trace.ts's rows). */
export function pick(row: Readonly<Record<string, unknown>>, fields: readonly string[]): unknown[] {
  const out: unknown[] = new Array(fields.length);
  for (let i = 0; i < fields.length; i++) out[i] = row[fields[i]!];
  return out;
}

/** The row object of positional `values` (see {@link pick}). */
export function unpick(values: readonly unknown[], fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < fields.length; i++) out[fields[i]!] = values[i];
  return out;
}
