-- Each block's transactions, by block: what the trace stage reads for a masterchain block and the shard blocks it
-- commits (the masterchain-block message lists them). `transactions` is ordered by (account, lt), where finding a
-- block's transactions reads every part; here they are one range of the key.
--
-- A materialized view fills it from every insert into `transactions` (the decode stage's, and a trace stage's
-- re-insert, which is the same key); the insert below copies the transactions stored before, once.
CREATE TABLE IF NOT EXISTS block_transactions
(
    block_workchain Int32,
    block_shard UInt64,
    block_seqno UInt32,
    account String,
    lt UInt64,
    hash FixedString(44),
    now UInt32
)
ENGINE = ReplacingMergeTree
ORDER BY (block_workchain, block_shard, block_seqno, account, lt)
SETTINGS index_granularity = 1024, default_compression_codec = 'ZSTD(1)';

CREATE MATERIALIZED VIEW IF NOT EXISTS block_transactions_from_transactions TO block_transactions AS
SELECT block_workchain, block_shard, block_seqno, account, lt, hash, now FROM transactions;

INSERT INTO block_transactions SELECT block_workchain, block_shard, block_seqno, account, lt, hash, now FROM transactions;
