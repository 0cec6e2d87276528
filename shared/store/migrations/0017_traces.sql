-- Traces (the trace stage, services/traces/): one row per trace per masterchain block that changed it, as TON
-- Center's trace assembler defines them (indexing-semantics.md §1): trace_id is the root transaction's hash,
-- external_hash the root's in-message hash, external_hash_norm its TEP-467 normalized hash when that differs.
-- state: complete once no message of the trace is in flight, broken when a message arrived whose sending trace was
-- not known (or counted below zero), pending while messages are in flight.
--
-- `version` is the masterchain seqno whose assembly wrote the row: ReplacingMergeTree keeps the newest, and the
-- trace stage reloads its in-flight traces as of its last stored masterchain block (trace_progress) by taking, per
-- trace, the newest row whose version is not above it; rows of a masterchain block whose write a crash cut short
-- are ignored then and written again, identically, by the replay.
CREATE TABLE IF NOT EXISTS traces
(
    trace_id FixedString(44),
    external_hash Nullable(FixedString(44)),
    external_hash_norm Nullable(FixedString(44)),
    mc_seqno_start UInt32,
    mc_seqno_end UInt32,
    start_lt UInt64,
    start_utime UInt32,
    end_lt UInt64,
    end_utime UInt32,
    state Enum8('complete' = 1, 'pending' = 2, 'broken' = 3),
    transactions UInt32,
    messages UInt32,
    -- Below zero only in a broken trace (TON Center counts so too).
    pending_messages Int32,
    version UInt32
)
ENGINE = ReplacingMergeTree(version)
ORDER BY trace_id
SETTINGS default_compression_codec = 'ZSTD(1)';
