import type { QueryParams } from '../../../shared/store/store.js';
import type { BlockRow } from '../../../shared/store/tables/blocks.js';
import { type Db, type Req, query } from './db.js';
import { type BlockHeaderHashes, type BlockRecord, blockFromRow, headerHashesFromRow } from './records.js';
import type { TxKey } from './transactions.js';

/**
 * Reads of the v2 account, transaction and block operations (api-v2.md §3) that the v3 repositories do not make:
 * an account's transactions back from an lt (`account_transactions`, keyed (account, lt)), a block's transactions in
 * block order, blocks by lt or utime inside one shard, a masterchain block's shard tips, messages by source, destination
 * and creation lt (the `messages` by_source projection), and the transactions' BOCs (0020_transaction_bocs.sql).
 */

const UINT32_MAX = 4294967295;
/** Replayed block rows: the one that knows its masterchain block, then the one with header hashes (as blocks.ts). */
const ONE_BLOCK = "ORDER BY (mc_block_seqno IS NULL), (state_root_hash = '') LIMIT 1 BY workchain, shard, seqno";

/**
 * The keys of an account's transactions with `to_lt < lt <= from_lt` (from the newest when `from_lt` is absent),
 * newest first: tonlib's `raw.getTransactions` walk back along `prev_trans_lt`, which visits exactly these.
 */
export async function accountTransactionKeys(
  db: Db,
  req: Req,
  account: string,
  range: { fromLt?: string; toLt: string; limit: number },
): Promise<TxKey[]> {
  const where = ['account = {account:String}', 'lt > {to_lt:UInt64}'];
  const params: QueryParams = { account, to_lt: range.toLt, limit: range.limit };
  if (range.fromLt !== undefined) {
    where.push('lt <= {from_lt:UInt64}');
    params.from_lt = range.fromLt;
  }
  const rows = await query<{ lt: string }>(
    db,
    req,
    `SELECT DISTINCT lt FROM account_transactions WHERE ${where.join(' AND ')} ORDER BY lt DESC LIMIT {limit:UInt32}`,
    params,
  );
  return rows.map((r) => ({ account, lt: String(r.lt) }));
}

/** The hash of an account's transaction at `lt`, or null when the store has none there. */
export async function transactionHashAt(db: Db, req: Req, account: string, lt: string): Promise<string | null> {
  const rows = await query<{ hash: string }>(db, req, 'SELECT hash FROM transactions WHERE account = {account:String} AND lt = {lt:UInt64} LIMIT 1', {
    account,
    lt,
  });
  return rows[0] ? String(rows[0].hash) : null;
}

export interface BlockTxKey {
  account: string;
  lt: string;
  hash: string;
}

/**
 * A block's transactions in the block's own order (ShardAccountBlocks: by account id, then lt), after
 * `(after.account, after.lt)` when given, at most `limit`: the pages of liteserver `listBlockTransactions`.
 * The lt window of the block (its row in `blocks`) bounds the `by_lt` projection read.
 */
export async function blockTransactionKeys(
  db: Db,
  req: Req,
  block: { workchain: number; shard: string; seqno: number; start_lt: string; end_lt: string },
  page: { after?: { account: string; lt: string }; limit: number },
): Promise<BlockTxKey[]> {
  const where = [
    'lt >= {start_lt:UInt64}',
    'lt <= {end_lt:UInt64}',
    'block_workchain = {workchain:Int32}',
    'block_shard = {shard:UInt64}',
    'block_seqno = {seqno:UInt32}',
  ];
  const params: QueryParams = { ...block, limit: page.limit };
  if (page.after) {
    where.push('(account, lt) > ({after_account:String}, {after_lt:UInt64})');
    params.after_account = page.after.account;
    params.after_lt = page.after.lt;
  }
  // Two steps (queries/README.md §1): the keys through the by_lt projection (no hash in it), then their hashes by
  // the primary key.
  const rows = await query<{ account: string; lt: string; hash: string }>(
    db,
    req,
    `SELECT account, lt, any(hash) AS hash FROM transactions
     WHERE (account, lt) IN (SELECT account, lt FROM transactions WHERE ${where.join(' AND ')})
     GROUP BY account, lt ORDER BY account, lt LIMIT {limit:UInt32}`,
    params,
  );
  return rows.map((r) => ({ account: String(r.account), lt: String(r.lt), hash: String(r.hash) }));
}

/**
 * The block of shard `(workchain, shard)` that holds `lt` (start_lt <= lt <= end_lt), or the newest generated at or
 * before `utime`: liteserver `lookupBlock` by lt / by utime. Null when the store has no such block.
 */
export async function blockByLtOrUtime(
  db: Db,
  req: Req,
  id: { workchain: number; shard: string },
  by: { lt: string } | { utime: number },
): Promise<{ record: BlockRecord; header: BlockHeaderHashes } | null> {
  const params: QueryParams = { workchain: id.workchain, shard: id.shard };
  let cond: string;
  let order: string;
  if ('lt' in by) {
    cond = 'start_lt <= {lt:UInt64} AND end_lt >= {lt:UInt64}';
    order = 'seqno ASC';
    params.lt = by.lt;
  } else {
    if (by.utime < 0 || by.utime > UINT32_MAX) return null;
    cond = 'gen_utime <= {utime:UInt32}';
    order = 'seqno DESC';
    params.utime = by.utime;
  }
  const rows = await query<BlockRow>(
    db,
    req,
    `SELECT * FROM blocks WHERE workchain = {workchain:Int32} AND shard = {shard:UInt64} AND seqno IN (
       SELECT seqno FROM blocks WHERE workchain = {workchain:Int32} AND shard = {shard:UInt64} AND ${cond} ORDER BY ${order} LIMIT 1)
     ${ONE_BLOCK}`,
    params,
  );
  return rows[0] ? { record: blockFromRow(rows[0]), header: headerHashesFromRow(rows[0]) } : null;
}

export interface ShardTip {
  workchain: number;
  /** Unsigned decimal. */
  shard: string;
  seqno: number;
  /** '' when the store does not hold the shard block itself (only the masterchain block naming it). */
  root_hash: string;
  file_hash: string;
}

/** The shard tips a masterchain block commits (`shard_state`), with their hashes where the store holds the blocks. */
export async function shardTips(db: Db, req: Req, mcSeqno: number): Promise<ShardTip[]> {
  if (mcSeqno < 0 || mcSeqno > UINT32_MAX) return [];
  // The ShardDescr's hashes (0022); rows written before have '' and take them from the tip's own block row.
  const rows = await query<{ workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string }>(
    db,
    req,
    `SELECT s.workchain AS workchain, s.shard AS shard, s.seqno AS seqno,
            if(s.root_hash != '', s.root_hash, b.root_hash) AS root_hash, if(s.file_hash != '', s.file_hash, b.file_hash) AS file_hash
     FROM (SELECT workchain, shard, seqno, max(root_hash) AS root_hash, max(file_hash) AS file_hash FROM shard_state
           WHERE mc_seqno = {seqno:UInt32} GROUP BY workchain, shard, seqno) AS s
     LEFT JOIN (SELECT workchain, shard, seqno, toString(any(root_hash)) AS root_hash, toString(any(file_hash)) AS file_hash FROM blocks
                WHERE (workchain, shard, seqno) IN (SELECT workchain, shard, seqno FROM shard_state WHERE mc_seqno = {seqno:UInt32})
                GROUP BY workchain, shard, seqno) AS b
       ON b.workchain = s.workchain AND b.shard = s.shard AND b.seqno = s.seqno
     ORDER BY workchain, shard
     SETTINGS join_use_nulls = 0`,
    { seqno: mcSeqno },
  );
  return rows.map((r) => ({
    workchain: Number(r.workchain),
    shard: String(r.shard),
    seqno: Number(r.seqno),
    root_hash: String(r.root_hash ?? '').trim(),
    file_hash: String(r.file_hash ?? '').trim(),
  }));
}

/**
 * The transactions on the two sides of the message `source → destination` created at `created_lt` (internal
 * messages: one outgoing side, one incoming), through the `by_source` projection.
 */
export async function messageSides(
  db: Db,
  req: Req,
  msg: { source: string; destination: string; created_lt: string },
): Promise<Array<{ account: string; lt: string; direction: 'in' | 'out' }>> {
  // The by_source projection gives the keys (it has no destination); the destination is checked on their rows.
  const rows = await query<{ tx_account: string; tx_lt: string; direction: string }>(
    db,
    req,
    `SELECT DISTINCT tx_account, tx_lt, direction FROM messages
     WHERE (tx_account, tx_lt, direction) IN (
             SELECT tx_account, tx_lt, direction FROM messages
             WHERE source = {source:String} AND created_lt >= {created_lt:UInt64} AND created_lt <= {created_lt:UInt64})
       AND source = {source:String} AND created_lt = {created_lt:UInt64} AND destination = {destination:String}
     ORDER BY tx_lt`,
    msg,
  );
  return rows.map((r) => ({ account: String(r.tx_account), lt: String(r.tx_lt), direction: r.direction === 'in' ? 'in' : 'out' }));
}

/** The BOCs of the transactions of `keys` that the store holds (0020_transaction_bocs.sql), by `account|lt`. */
export async function transactionBocs(db: Db, req: Req, keys: ReadonlyArray<{ account: string; lt: string }>): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await query<{ account: string; lt: string; boc: string }>(
    db,
    req,
    `SELECT account, lt, any(boc) AS boc FROM transaction_bocs
     WHERE (account, lt) IN arrayZip({accounts:Array(String)}, {lts:Array(UInt64)})
     GROUP BY account, lt`,
    { accounts: keys.map((k) => k.account), lts: keys.map((k) => BigInt(k.lt)) },
  );
  return new Map(rows.map((r) => [`${r.account}|${r.lt}`, String(r.boc)]));
}

/**
 * An account's state as of masterchain block `mcSeqno`: the state after its newest transaction committed by that
 * block or an earlier one (`account_states` by the transaction's `account_state_hash_after`), with that
 * transaction's id. `null` when the account had no transaction by then; `state: null` when the store does not hold
 * that state (the block's state update lacked it).
 */
export async function accountStateAt(
  db: Db,
  req: Req,
  account: string,
  mcSeqno: number,
): Promise<{ last_trans_lt: string; last_trans_hash: string; state: Record<string, unknown> | null } | null> {
  const txs = await query<{ lt: string; hash: string; after: string }>(
    db,
    req,
    `SELECT lt, hash, account_state_hash_after AS after FROM transactions
     WHERE account = {account:String} AND mc_block_seqno <= {seqno:UInt32} ORDER BY lt DESC LIMIT 1`,
    { account, seqno: mcSeqno },
  );
  const tx = txs[0];
  if (!tx) return null;
  const states = await query(db, req, 'SELECT * FROM account_states WHERE hash = {hash:String} ORDER BY version DESC LIMIT 1', { hash: String(tx.after) });
  return { last_trans_lt: String(tx.lt), last_trans_hash: String(tx.hash), state: states[0] ?? null };
}

/**
 * The config dictionary in force at masterchain block `mcSeqno`: that of the key block its header names
 * (`prev_key_block_seqno`, or the block itself when it is a key block), from `key_block_configs`. `block: false`
 * when the store lacks the masterchain block, `config: null` when it lacks that key block's config.
 */
export async function configAt(db: Db, req: Req, mcSeqno: number): Promise<{ block: boolean; keySeqno: number; config: string | null }> {
  const rows = await query<{ key: number; config_boc: string | null }>(
    db,
    req,
    `SELECT k.key AS key, c.config_boc AS config_boc
     FROM (SELECT toUInt32(if(key_block, seqno, prev_key_block_seqno)) AS key FROM blocks
           WHERE workchain = -1 AND shard = 9223372036854775808 AND seqno = {seqno:UInt32} LIMIT 1) AS k
     LEFT JOIN (SELECT mc_seqno, any(config_boc) AS config_boc FROM key_block_configs
                WHERE mc_seqno IN (SELECT toUInt32(if(key_block, seqno, prev_key_block_seqno)) FROM blocks
                                   WHERE workchain = -1 AND shard = 9223372036854775808 AND seqno = {seqno:UInt32})
                GROUP BY mc_seqno) AS c
       ON c.mc_seqno = k.key
     SETTINGS join_use_nulls = 1`,
    { seqno: mcSeqno },
  );
  const r = rows[0];
  if (!r) return { block: false, keySeqno: 0, config: null };
  return { block: true, keySeqno: Number(r.key), config: r.config_boc ?? null };
}
