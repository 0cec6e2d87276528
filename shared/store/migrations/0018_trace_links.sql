-- What the trace stage writes besides `traces` (0017):
--
-- trace_transactions: each transaction's trace, written once when the transaction is assembled (in trace order, so
-- a trace's transactions read together; by_tx answers "which trace is this transaction in").
--
-- trace_edges: messages between transactions of a trace. A row is written when the sending transaction is assembled
-- (right_tx empty: in flight) and again, with the receiving transaction, when it is delivered; `version` is the
-- masterchain seqno of the write, so the newest row is the edge's state. An edge created and delivered in the same
-- masterchain block gets only its final row. The in-flight edges are what lets a restarted trace stage go on where
-- it stopped (reloaded as of trace_progress, like `traces`).
--
-- trace_progress: the last masterchain block whose assembly the trace stage stored completely (its rows are
-- written last, after the block's traces).
CREATE TABLE IF NOT EXISTS trace_transactions
(
    trace_id FixedString(44),
    tx_hash FixedString(44),
    tx_account String,
    tx_lt UInt64,
    tx_now UInt32,
    mc_seqno UInt32,
    version UInt32,
    PROJECTION by_tx (SELECT tx_hash, trace_id ORDER BY tx_hash)
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (trace_id, tx_lt, tx_hash)
SETTINGS default_compression_codec = 'ZSTD(1)', deduplicate_merge_projection_mode = 'rebuild';

CREATE TABLE IF NOT EXISTS trace_edges
(
    msg_hash FixedString(44),
    trace_id FixedString(44),
    left_tx FixedString(44),
    -- '' while the message is in flight.
    right_tx String,
    mc_seqno_created UInt32,
    version UInt32
)
ENGINE = ReplacingMergeTree(version)
ORDER BY msg_hash
SETTINGS default_compression_codec = 'ZSTD(1)';

CREATE TABLE IF NOT EXISTS trace_progress
(
    stage LowCardinality(String),
    mc_seqno UInt32
)
ENGINE = ReplacingMergeTree(mc_seqno)
ORDER BY stage;
