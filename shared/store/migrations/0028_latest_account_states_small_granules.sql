-- `latest_account_states` (0004) rewritten with granules of at most 64 KiB, for its point reads: getAddressInformation,
-- runGetMethod, accountStates and walletStates read one account by primary key, and a granule is the least a
-- MergeTree read decompresses. With 0004's settings a granule is up to 8,192 rows or 10 MiB, and each row carries
-- the account's code and data BoCs, so one account cost a whole granule of BoCs. `index_granularity_bytes` is
-- read-only on an existing table, hence a copy with the new setting swapped in by EXCHANGE (atomic; the name, the
-- columns and the projection stay as they were, so no reader or writer changes). The measured effect is in
-- bench/RESULTS.md ("bench tvm").
--
-- Every statement may run again after a crash (migrate.ts re-runs the whole file):
-- - the first DROP removes a partial copy, or, after the EXCHANGE, the old table, whose rows are all in the new one;
-- - a re-run after the EXCHANGE copies the new table into a fresh copy and swaps again: the same rows, the same setting.
-- Rows a writer of an older version inserted while the copy ran land in the old table; the second INSERT takes them
-- over after the swap. Both copies take each account's newest row only (FINAL); the OPTIMIZE then merges the two
-- copies into one part, since a point read costs a granule in every part (measured: two parts, each with the new
-- granules, cost as much as before the change).
DROP TABLE IF EXISTS latest_account_states_0028;

CREATE TABLE latest_account_states_0028
(
    account String,
    account_state_hash FixedString(44),
    last_trans_lt UInt64,
    last_trans_hash FixedString(44),
    last_trans_now UInt32,
    balance UInt128,
    extra_currencies Map(UInt32, UInt256),
    status LowCardinality(String),
    frozen_hash Nullable(FixedString(44)),
    data_hash Nullable(FixedString(44)),
    code_hash Nullable(FixedString(44)),
    data_boc Nullable(String) CODEC(ZSTD(3)),
    code_boc Nullable(String) CODEC(ZSTD(3)),

    PROJECTION by_balance (SELECT balance, account, last_trans_lt ORDER BY balance)
)
ENGINE = ReplacingMergeTree(last_trans_lt)
ORDER BY account
SETTINGS default_compression_codec = 'ZSTD(1)', deduplicate_merge_projection_mode = 'rebuild',
         index_granularity_bytes = 65536;

INSERT INTO latest_account_states_0028 SELECT * FROM latest_account_states FINAL;

EXCHANGE TABLES latest_account_states AND latest_account_states_0028;

INSERT INTO latest_account_states SELECT * FROM latest_account_states_0028 FINAL;

DROP TABLE latest_account_states_0028;

OPTIMIZE TABLE latest_account_states FINAL;
