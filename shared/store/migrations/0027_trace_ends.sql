-- /api/v3/traces without an id filter (api-v3.md §3.2: ordered by end_lt, or end_utime with a utime window) and
-- /api/v3/traces|actions?mc_seqno=: `traces` is ordered by trace_id, so those read every row.
--
-- trace_ends: every row of `traces` (each version of a trace) by (end_lt, trace_id), read in order and cut by LIMIT;
-- by_end_utime orders it by end_utime for a utime window, by_mc_seqno_end finds the traces that ended in a
-- masterchain block. It keeps the version, so that the listing tells a trace's newest row from the ones it
-- replaced (repo/traces.ts), and the other window column, so that an lt and a utime window together still read one
-- order. An index table, not a projection of `traces`: this ClickHouse does not pick a projection for an
-- ORDER BY ... LIMIT that no condition narrows. A materialized view fills it from every insert into `traces`, the
-- insert below copies the rows stored before (a replay writes the same key again: ReplacingMergeTree keeps one).
CREATE TABLE IF NOT EXISTS trace_ends
(
    end_lt UInt64,
    trace_id FixedString(44),
    version UInt32,
    end_utime UInt32,
    mc_seqno_end UInt32,
    PROJECTION by_end_utime (SELECT * ORDER BY end_utime, trace_id, version),
    PROJECTION by_mc_seqno_end (SELECT * ORDER BY mc_seqno_end, trace_id, version)
)
ENGINE = ReplacingMergeTree
ORDER BY (end_lt, trace_id, version)
SETTINGS default_compression_codec = 'ZSTD(1)', deduplicate_merge_projection_mode = 'rebuild';

CREATE MATERIALIZED VIEW IF NOT EXISTS trace_ends_mv TO trace_ends AS
SELECT end_lt, trace_id, version, end_utime, mc_seqno_end FROM traces;

INSERT INTO trace_ends SELECT end_lt, trace_id, version, end_utime, mc_seqno_end FROM traces;
