-- Transaction records: each transaction's complete v3 record (api-v3.md §0.4: description, in_msg and out_msgs
-- with their contents and init states, account states before/after as far as the block's state update holds
-- them) as JSON, written by the decode stage beside the flattened `transactions` row.
--
-- Why a second copy: a point read of a transaction from the flattened tables costs ClickHouse a granule of each
-- of ~90 `transactions` columns plus the `messages` rows, their contents and the account states (five statements,
-- 20-60 ms in embedded mode, bench/RESULTS.md "api"); one narrow row here is one statement. The flattened tables
-- stay the source of every filter; this table only answers "the records of these (account, lt) keys".
--
-- Small granules: a read fetches a handful of rows by key, and a granule of 8192 records of ~3 KB would be
-- decompressed whole for each.
--
-- Rows written before this migration have no record: readers fall back to the flattened tables for keys missing
-- here, so an upgrade needs no reindex.
CREATE TABLE IF NOT EXISTS transaction_records
(
    account String,
    lt UInt64 CODEC(Delta, ZSTD(1)),
    -- Filled by the trace stage, which re-inserts the row with it (the record's own trace_id is left out).
    trace_id Nullable(FixedString(44)),
    record String CODEC(ZSTD(1)),
    -- States the record knows only by hash that another block's state update may hold: the state before the
    -- account's first transaction in its block, after its last. Readers look these up in `account_states`;
    -- every other hash-only state lies between two transactions of one block and is stored nowhere.
    resolve_states Array(FixedString(44)),
    version UInt8 MATERIALIZED toUInt8(trace_id IS NOT NULL)
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (account, lt)
SETTINGS index_granularity = 64;
