import { actionAccounts } from './action-accounts.js';
import { actionListing } from './action-listing.js';
import { actions } from './actions.js';
import { accountRecentTransactions } from './account-recent-transactions.js';
import { accountStates } from './account-states.js';
import { accountTransactions } from './account-transactions.js';
import { blockTransactions } from './block-transactions.js';
import { blocks } from './blocks.js';
import { cells } from './cells.js';
import { followerCheckpoints } from './follower-checkpoints.js';
import { latestAccountStates } from './latest-account-states.js';
import { messageContents } from './message-contents.js';
import { messageHashNorms } from './message-hash-norms.js';
import { messageSidePoints } from './message-side-points.js';
import { messageSides } from './message-sides.js';
import { messages } from './messages.js';
import { keyBlockConfigs } from './key-block-configs.js';
import { shardState } from './shard-state.js';
import { traceEdges } from './trace-edges.js';
import { traceEnds } from './trace-ends.js';
import { traceProgress } from './trace-progress.js';
import { traceTransactions } from './trace-transactions.js';
import { traces } from './traces.js';
import { transactionBocs } from './transaction-bocs.js';
import { transactionDocuments } from './transaction-documents.js';
import { transactionHashPoints } from './transaction-hash-points.js';
import { transactionPoints } from './transaction-points.js';
import { transactions } from './transactions.js';

/**
 * The store's schema: one module per table of shared/store/migrations (row type, columns, and the column lists readers
 * use), listed here. `schema_migrations` belongs to migrate.ts, which creates it before any migration runs; the
 * materialized views are DDL only (they write into tables listed here).
 */
export const TABLES = [
  blocks,
  shardState,
  transactions,
  messages,
  messageContents,
  messageHashNorms,
  accountStates,
  latestAccountStates,
  followerCheckpoints,
  transactionPoints,
  transactionHashPoints,
  transactionDocuments,
  messageSides,
  accountTransactions,
  accountRecentTransactions,
  messageSidePoints,
  transactionBocs,
  keyBlockConfigs,
  traces,
  traceTransactions,
  traceEdges,
  traceProgress,
  blockTransactions,
  cells,
  actions,
  actionAccounts,
  actionListing,
  traceEnds,
] as const;

/**
 * The order the decode stage writes a batch's tables in: contents and states before the rows that point at them,
 * blocks last, so a reader that finds a block finds everything the block carries. The point tables follow the rows they
 * copy: a key the gateway finds in `transactions` before its point row exists is read from the tables instead.
 */
export const WRITE_ORDER = [
  // First: a reader that finds a state's hashes finds the cells it is rebuilt from (0025_cells.sql).
  cells.name,
  messageContents.name,
  messageHashNorms.name,
  accountStates.name,
  messages.name,
  transactions.name,
  transactionBocs.name,
  transactionDocuments.name,
  transactionHashPoints.name,
  latestAccountStates.name,
  shardState.name,
  keyBlockConfigs.name,
  blocks.name,
] as const;

/**
 * The key → value tables the decode stage writes (EmbeddedRocksDB: 0008_transaction_points.sql,
 * 0009_transaction_documents.sql, 0025_cells.sql): one row per key at once, no parts, merges, versions or FINAL.
 */
export const POINT_TABLES: ReadonlySet<string> = new Set([transactionDocuments.name, transactionHashPoints.name, cells.name]);
