import type { IncomingMessage } from '../../shared/bus/bus.js';
import { decodeAccountStates, isAccountStatesMessage } from '../../shared/contracts/account-states.js';
import { decodeRawBlock } from '../../shared/contracts/raw-block.js';
import { type EncodedRows, encodeRows } from '../../shared/store/tsv.js';
import { type DecodedBlock, decodeBlock } from '../../shared/ton/decode-block.js';
import { accountStatesToRows } from './rows.js';

/** How blocks map to rows beyond the block itself (the configuration's part of RowsOptions). */
export interface RowsMapOptions {
  /** Fill the point tables too (RowsOptions.points; TONFLOW_STORE_POINT_READS). */
  points?: boolean;
}

/** Decoded block → rows of the store's tables (the decode stage's mapping, `blockToRows` in production). */
export type ToRows = (decoded: DecodedBlock, mcSeqno: number | null, opts?: RowsMapOptions) => Record<string, object[]>;

/** Column name → ClickHouse type, per table: what rows are encoded against (Store.columnTypes). */
export type TableSchema = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** One table's rows of a block: row objects, or already TabSeparated (when decoded against a schema). */
export type TableChunk = object[] | EncodedRows;

/** One raw-block message, decoded and mapped to rows. */
export interface DecodedMessage {
  /** Rows per table. */
  rows: Record<string, TableChunk>;
  transactions: number;
  /** The source checkpoint the message carries (the last block of a follower group), else null. */
  checkpoint: string | null;
  /** True for an account-state message (shared/contracts/account-states.ts) rather than a block. */
  states?: boolean;
}

/**
 * Reads a raw-block message (contract v1), or an account-state message (account-states.ts) that shares its topic;
 * decodes its block with the root and file hash the follower computed,
 * and maps it to rows; with a `schema`, encodes each table's rows as TabSeparated (so a decode worker hands over
 * bytes, not objects). Pure and synchronous: the decode stage runs it in its own thread or in decode workers.
 * Throws what the contract or the decoder throws (a poison message: non-retryable).
 */
export function decodeMessage(
  msg: Pick<IncomingMessage, 'headers' | 'value'>,
  toRows: ToRows,
  schema?: TableSchema,
  opts: RowsMapOptions = {},
): DecodedMessage {
  let rows: Record<string, TableChunk>;
  let transactions = 0;
  let checkpoint: string | null = null;
  const states = isAccountStatesMessage(msg);
  if (states) {
    // A source's state snapshot (shared/contracts/account-states.ts): rows of the account state tables and cells.
    rows = accountStatesToRows(decodeAccountStates(msg).accounts) as unknown as Record<string, object[]>;
  } else {
    const raw = decodeRawBlock(msg as IncomingMessage);
    const mcSeqno = raw.block.mcSeqno;
    const decoded = decodeBlock(raw.block.data, { rootHash: raw.block.rootHash, fileHash: raw.block.fileHash, mcBlockSeqno: mcSeqno });
    rows = toRows(decoded, mcSeqno, opts);
    transactions = decoded.transactions.length;
    checkpoint = raw.checkpoint;
  }
  if (schema) {
    // A table the schema lacks, or rows that do not fit it, stay objects: the store then encodes them itself.
    for (const [table, list] of Object.entries(rows)) {
      const types = schema.get(table);
      const encoded = types && Array.isArray(list) ? encodeRows(list, types) : null;
      if (encoded) rows[table] = encoded;
    }
  }
  return { rows, transactions, checkpoint, ...(states ? { states: true } : {}) };
}

