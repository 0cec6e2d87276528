-- Point-read tables for the gateway's transaction records: key → value stores (ClickHouse's EmbeddedRocksDB
-- engine) beside the MergeTree tables, written by the decode stage with the same batch (services/indexer/rows.ts)
-- when TONFLOW_STORE_POINT_READS is set; empty otherwise, and then the gateway does not read them.
--
-- Why: a MergeTree point read decompresses a granule (8,192 rows) of every column it returns, for every key, and
-- pays a fixed cost per column per statement. An uncached transaction page read `transactions` and `messages` by
-- primary key plus the `by_hash` projection for a hash: on the 1,000,000 transactions of `bench api`, 50 keys took
-- 140 ms (records), 190 ms (their messages) and 75 ms (hash → key) as single statements; from tables like these,
-- 6-15 ms. What that does to the endpoints, and what writing them costs: bench/RESULTS.md, api and ingest.
-- MergeTree stays the store of record and serves every filter, sort and range; these tables answer only "the
-- record of this key".
--
-- Upgrade without a reindex: transactions stored before this migration are simply absent here, and the gateway
-- reads a key it does not find from `transactions` / `messages` as before (services/gateway/repo/transactions.ts).
-- A replayed block writes the same value again (the engine keeps the last write per key). A later stage that
-- changes a stored transaction (trace_id) must write its row here too.

-- One row per transaction, keyed `account|lt` (the gateway's record key): the `transactions` columns and its
-- message sides.
CREATE TABLE IF NOT EXISTS transaction_points
(
    key String,
    account String,
    lt UInt64,
    hash FixedString(44),
    now UInt32,
    mc_block_seqno Nullable(UInt32),
    block_workchain Int32,
    block_shard UInt64,
    block_seqno UInt32,
    trace_id Nullable(FixedString(44)),
    prev_trans_hash FixedString(44),
    prev_trans_lt UInt64,
    orig_status LowCardinality(String),
    end_status LowCardinality(String),
    total_fees UInt128,
    total_fees_extra_currencies Map(UInt32, UInt256),
    account_state_hash_before FixedString(44),
    account_state_hash_after FixedString(44),
    description String,
    -- JSON array of the transaction's `messages` rows (in first, then out in order) without tx_account, tx_lt and
    -- tx_hash, as the decode stage builds them (64-bit numbers as strings): parsed by the gateway, never filtered on.
    messages String
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY key
-- Rows go through the memtable: the default (bulk: an SST file per insert) costs the decode stage's many
-- medium-sized inserts a quarter more CPU.
SETTINGS optimize_for_bulk_insert = 0;

-- Transaction hash → its key (transactions?hash=).
CREATE TABLE IF NOT EXISTS transaction_hash_points
(
    hash FixedString(44),
    account String,
    lt UInt64
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY hash
SETTINGS optimize_for_bulk_insert = 0;
