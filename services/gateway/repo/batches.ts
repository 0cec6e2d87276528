import { readCellRecords } from '../../../shared/store/tables/cells.js';
import { readLatestStates } from './accounts.js';
import { readCodeHashes } from './address-book.js';
import { type BatcherOptions, KeyBatcher } from './batcher.js';
import { readBlocksBySeqno } from './blocks.js';
import type { Batches, DbCore } from './db.js';
import {
  readAccountPages,
  readTxKeysByHash,
  readTxKeysByMessage,
  readTxReads,
} from './transactions.js';

export interface BatchesOptions {
  /** Statements of each kind running at once (BatcherOptions.inFlight). */
  inFlight: number;
}

/**
 * Keys per statement. A cap bounds how long one batch holds the store while the next fills up behind it; within it,
 * bigger batches cost less per key (bench/RESULTS.md, design measurements). Account states are one narrow table: TON Center's own cap of 1,000
 * addresses per request. An account page brings up to 1,000 records, and one that the newest lts kept per account
 * cannot answer is a UNION ALL branch of its own: 25 pages.
 */
const MAX_KEYS = { states: 1000, transactions: 250, hashes: 250, seqnos: 250, pages: 25, cells: 1000 } as const;

/** The batchers of {@link Batches}: each a KeyBatcher over its reader. */
export function createBatches(db: DbCore, opts: BatchesOptions): Batches {
  const o = (maxKeys: number): BatcherOptions => ({ maxKeys, inFlight: opts.inFlight });
  return {
    latestStates: new KeyBatcher((keys, req) => readLatestStates(db, req, keys), o(MAX_KEYS.states)),
    codeHashes: new KeyBatcher((keys, req) => readCodeHashes(db, req, keys), o(MAX_KEYS.states)),
    txRecords: new KeyBatcher((keys, req) => readTxReads(db, req, keys), o(MAX_KEYS.transactions)),
    txKeysByHash: new KeyBatcher((keys, req) => readTxKeysByHash(db, req, keys), o(MAX_KEYS.hashes)),
    txKeysByMessage: new KeyBatcher((keys, req) => readTxKeysByMessage(db, req, keys), o(MAX_KEYS.hashes)),
    accountPages: new KeyBatcher((keys, req) => readAccountPages(db, req, keys), o(MAX_KEYS.pages)),
    blocksBySeqno: new KeyBatcher((keys, req) => readBlocksBySeqno(db, req, keys), o(MAX_KEYS.seqnos)),
    cells: new KeyBatcher((keys, req) => readCellRecords(db.store, keys, { timeoutMs: req.timeoutMs }), o(MAX_KEYS.cells)),
  };
}
