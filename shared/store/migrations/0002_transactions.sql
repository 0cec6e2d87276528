-- Transactions: one row per transaction, the TransactionDescr flattened into nullable phase columns.
--
-- Natural key (account, lt): an account never has two transactions at one lt. It is also the hottest access
-- path (an account's history, newest first), so it is the sorting key: one account's rows sit together and
-- its pages read a granule or two.
--
-- A phase is present exactly when its first column is not NULL: storage_ph <-> storage_fees_collected,
-- credit_ph <-> credit, compute_ph <-> compute_skipped, action <-> action_success, bounce <-> bounce_type,
-- split_info <-> split_cur_shard_pfx_len. Inside a present phase a NULL column is an omitted field.
-- Amounts in Grams are UInt128 (Grams is VarUInteger 16: a UInt64 column would make one absurd value a
-- poison batch); ZSTD keeps the zero high halves at about a byte.

CREATE TABLE IF NOT EXISTS transactions
(
    account String,
    lt UInt64 CODEC(Delta, ZSTD(1)),
    hash FixedString(44),
    now UInt32 CODEC(Delta, ZSTD(1)),
    -- NULL while the committing masterchain block is unknown (see blocks.mc_block_seqno).
    mc_block_seqno Nullable(UInt32) CODEC(Delta, ZSTD(1)),
    block_workchain Int32,
    block_shard UInt64,
    block_seqno UInt32 CODEC(Delta, ZSTD(1)),
    -- Filled by the trace stage, which re-inserts the row with it; see `version`.
    trace_id Nullable(FixedString(44)),
    prev_trans_hash FixedString(44),
    prev_trans_lt UInt64 CODEC(Delta, ZSTD(1)),
    orig_status LowCardinality(String),
    end_status LowCardinality(String),
    total_fees UInt128,
    total_fees_extra_currencies Map(UInt32, UInt256),
    account_state_hash_before FixedString(44),
    account_state_hash_after FixedString(44),

    descr_type LowCardinality(String),
    aborted Nullable(Bool),
    destroyed Nullable(Bool),
    credit_first Nullable(Bool),
    is_tock Nullable(Bool),
    installed Nullable(Bool),

    storage_fees_collected Nullable(UInt128),
    storage_fees_due Nullable(UInt128),
    storage_status_change LowCardinality(Nullable(String)),

    credit_due_fees_collected Nullable(UInt128),
    credit Nullable(UInt128),
    credit_extra_currencies Map(UInt32, UInt256),

    compute_skipped Nullable(Bool),
    compute_skip_reason LowCardinality(Nullable(String)),
    compute_success Nullable(Bool),
    compute_msg_state_used Nullable(Bool),
    compute_account_activated Nullable(Bool),
    compute_gas_fees Nullable(UInt128),
    compute_gas_used Nullable(UInt64),
    compute_gas_limit Nullable(UInt64),
    compute_gas_credit Nullable(UInt32),
    compute_mode Nullable(Int8),
    compute_exit_code Nullable(Int32),
    compute_exit_arg Nullable(Int32),
    compute_vm_steps Nullable(UInt32),
    compute_vm_init_state_hash Nullable(FixedString(44)),
    compute_vm_final_state_hash Nullable(FixedString(44)),

    action_success Nullable(Bool),
    action_valid Nullable(Bool),
    action_no_funds Nullable(Bool),
    action_status_change LowCardinality(Nullable(String)),
    action_total_fwd_fees Nullable(UInt128),
    action_total_action_fees Nullable(UInt128),
    action_result_code Nullable(Int32),
    action_result_arg Nullable(Int32),
    action_tot_actions Nullable(UInt16),
    action_spec_actions Nullable(UInt16),
    action_skipped_actions Nullable(UInt16),
    action_msgs_created Nullable(UInt16),
    action_list_hash Nullable(FixedString(44)),
    action_tot_msg_size_cells Nullable(UInt64),
    action_tot_msg_size_bits Nullable(UInt64),

    bounce_type LowCardinality(Nullable(String)),
    bounce_msg_size_cells Nullable(UInt64),
    bounce_msg_size_bits Nullable(UInt64),
    bounce_req_fwd_fees Nullable(UInt128),
    bounce_msg_fees Nullable(UInt128),
    bounce_fwd_fees Nullable(UInt128),

    split_cur_shard_pfx_len Nullable(UInt8),
    split_acc_split_depth Nullable(UInt8),
    split_this_addr Nullable(String),
    split_sibling_addr Nullable(String),

    -- ReplacingMergeTree version: a row that carries a trace_id beats the decode stage's row without one,
    -- whatever order a replay delivers them in. Materialized, so no writer can get it wrong.
    version UInt8 MATERIALIZED toUInt8(trace_id IS NOT NULL),

    -- Inside one account's run of the sorting key, now and mc_block_seqno grow with lt: min/max per granule
    -- narrows "account + utime window" / "account + mc block" reads, FINAL included.
    INDEX idx_now now TYPE minmax GRANULARITY 1,
    INDEX idx_mc_block_seqno mc_block_seqno TYPE minmax GRANULARITY 1,

    -- Lookup paths (read without FINAL, then fetch rows by (account, lt) with FINAL):
    --  * by_hash: /transactions?hash, adjacentTransactions.
    --  * by_lt: lt and lt windows, and through the blocks table every filter that maps to an lt window:
    --    a block (its [start_lt, end_lt]), a masterchain seqno (its blocks' lt span), a utime window (the lt
    --    span of the blocks generated in it: a transaction's `now` is its block's gen_utime). The carried
    --    columns let the lookup apply those filters exactly, and ORDER BY lt reads newest-first in order.
    PROJECTION by_hash (SELECT hash, account, lt ORDER BY hash),
    PROJECTION by_lt (SELECT lt, account, now, mc_block_seqno, block_workchain, block_shard, block_seqno ORDER BY lt)
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (account, lt)
SETTINGS default_compression_codec = 'ZSTD(1)', deduplicate_merge_projection_mode = 'rebuild';
