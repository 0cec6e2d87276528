-- Account states: the history by state hash, and the newest state per account.

-- Every full AccountState the decoder recovered (a block's state update holds each touched account before
-- its first and after its last transaction). Keyed by the state hash, which transactions reference as
-- account_state_hash_before/after. The Account cell contains its address, so a hash names one account.
CREATE TABLE IF NOT EXISTS account_states
(
    hash FixedString(44),
    account String,
    -- The lt of the transaction that produced this state (prev_trans_lt for a "before" state).
    last_trans_lt UInt64,
    balance UInt128,
    extra_currencies Map(UInt32, UInt256),
    status LowCardinality(String),
    frozen_hash Nullable(FixedString(44)),
    data_hash Nullable(FixedString(44)),
    code_hash Nullable(FixedString(44)),
    -- Block state updates prune code and data, so these come only from sources that have the full state
    -- (a liteserver account query); a row with them beats one without for the same hash.
    data_boc Nullable(String) CODEC(ZSTD(3)),
    code_boc Nullable(String) CODEC(ZSTD(3)),
    version UInt8 MATERIALIZED toUInt8(data_boc IS NOT NULL OR code_boc IS NOT NULL)
)
ENGINE = ReplacingMergeTree(version)
ORDER BY hash
SETTINGS default_compression_codec = 'ZSTD(1)';

-- One row per account after merges: the state after its newest transaction (version last_trans_lt, so an
-- old block replayed late never overwrites a newer state). Serves accountStates, walletStates,
-- addressInformation, walletInformation and addressBook by primary key, topAccountsByBalance by projection.
CREATE TABLE IF NOT EXISTS latest_account_states
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

    -- Richest first, read in reverse order with LIMIT. Unmerged parts can still hold an account's older
    -- balance here; readers confirm candidates against the FINAL row (see queries/README.md).
    PROJECTION by_balance (SELECT balance, account, last_trans_lt ORDER BY balance)
)
ENGINE = ReplacingMergeTree(last_trans_lt)
ORDER BY account
SETTINGS default_compression_codec = 'ZSTD(1)', deduplicate_merge_projection_mode = 'rebuild';
