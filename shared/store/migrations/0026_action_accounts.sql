-- /api/v3/actions reads (api-v3.md §3.1) on keys, besides `actions`' own (trace_id, action_id) and by_action_id.
--
-- action_accounts: the per-account feed, as TON Center's companion table of the same name (actions.md "Common
-- envelope"): one row per (account, action) for every account of an action, ordered as the endpoint lists them
-- (trace_end_lt, trace_id, action end_lt, action_id), so `?account=` is a key range read in order and cut by LIMIT.
--
-- action_listing: every action in the endpoint's order without an id filter (trace_end_lt, trace_id, end_lt,
-- action_id), read in order and cut by LIMIT; by_trace_end_utime orders it by the utime columns for a utime window.
-- An index table, not a projection of `actions`: this ClickHouse does not pick a projection for an ORDER BY ... LIMIT
-- that no condition narrows.
--
-- Both carry the type and ancestor types: the type filters and the supported_action_types rule apply before the
-- page is cut, without reading `actions`. Materialized views fill them from every insert into `actions`, the inserts
-- below copy the actions stored before (a replay or a re-run writes the same key again: ReplacingMergeTree keeps one).
CREATE TABLE IF NOT EXISTS action_accounts
(
    account String,
    trace_end_lt UInt64,
    trace_id FixedString(44),
    action_end_lt UInt64,
    action_id FixedString(44),
    trace_end_utime UInt32,
    action_end_utime UInt32,
    type LowCardinality(String),
    ancestor_type Array(LowCardinality(String))
)
ENGINE = ReplacingMergeTree
ORDER BY (account, trace_end_lt, trace_id, action_end_lt, action_id)
SETTINGS default_compression_codec = 'ZSTD(1)';

CREATE MATERIALIZED VIEW IF NOT EXISTS action_accounts_mv TO action_accounts AS
SELECT arrayJoin(accounts) AS account, trace_end_lt, trace_id, end_lt AS action_end_lt, action_id, trace_end_utime,
       end_utime AS action_end_utime, type, ancestor_type
FROM actions;

INSERT INTO action_accounts
SELECT arrayJoin(accounts) AS account, trace_end_lt, trace_id, end_lt AS action_end_lt, action_id, trace_end_utime,
       end_utime AS action_end_utime, type, ancestor_type
FROM actions;

CREATE TABLE IF NOT EXISTS action_listing
(
    trace_end_lt UInt64,
    trace_id FixedString(44),
    end_lt UInt64,
    action_id FixedString(44),
    trace_end_utime UInt32,
    end_utime UInt32,
    type LowCardinality(String),
    ancestor_type Array(LowCardinality(String)),
    PROJECTION by_trace_end_utime (SELECT * ORDER BY trace_end_utime, trace_id, end_utime, action_id)
)
ENGINE = ReplacingMergeTree
ORDER BY (trace_end_lt, trace_id, end_lt, action_id)
SETTINGS default_compression_codec = 'ZSTD(1)', deduplicate_merge_projection_mode = 'rebuild';

CREATE MATERIALIZED VIEW IF NOT EXISTS action_listing_mv TO action_listing AS
SELECT trace_end_lt, trace_id, end_lt, action_id, trace_end_utime, end_utime, type, ancestor_type
FROM actions;

INSERT INTO action_listing
SELECT trace_end_lt, trace_id, end_lt, action_id, trace_end_utime, end_utime, type, ancestor_type
FROM actions;
