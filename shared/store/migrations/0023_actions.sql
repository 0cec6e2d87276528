-- Actions (the action stage, services/actions/): the rows TON Center's classifier stores for a completed trace
-- (reference/actions.md "Storage row"), one per action, child rows included (parent_action_id set). The generic
-- columns the API filters and sorts on are columns; the type's composite columns (`ton_transfer_data`,
-- `jetton_transfer_data`, ...) travel in `details`, the JSON of the whole row (64-bit numbers as strings).
--
-- action_id is base64(sha256(message hash + type)) of the action's root (actions.md S.3): a replay of a trace
-- classifies it again identically, and the ReplacingMergeTree keeps one row per (trace_id, action_id).
CREATE TABLE IF NOT EXISTS actions
(
    trace_id FixedString(44),
    action_id FixedString(44),
    type LowCardinality(String),
    success Bool,
    start_lt UInt64,
    end_lt UInt64,
    start_utime UInt32,
    end_utime UInt32,
    mc_seqno_end Nullable(UInt32),
    trace_end_lt UInt64,
    trace_end_utime UInt32,
    trace_mc_seqno_end Nullable(UInt32),
    trace_external_hash Nullable(FixedString(44)),
    trace_external_hash_norm Nullable(FixedString(44)),
    parent_action_id Nullable(FixedString(44)),
    ancestor_type Array(LowCardinality(String)),
    tx_hashes Array(FixedString(44)),
    accounts Array(String),
    details String,

    -- Lookup path by action_id (/api/v3/actions?action_id): read the key, then the row by (trace_id, action_id).
    PROJECTION by_action_id (SELECT action_id, trace_id ORDER BY action_id),
    -- Newest-first listings and lt windows (/api/v3/actions without a key filter).
    PROJECTION by_trace_end_lt (SELECT trace_end_lt, trace_id, action_id ORDER BY trace_end_lt)
)
ENGINE = ReplacingMergeTree
ORDER BY (trace_id, action_id)
SETTINGS default_compression_codec = 'ZSTD(1)', deduplicate_merge_projection_mode = 'rebuild';
