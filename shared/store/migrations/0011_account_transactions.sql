-- An account's transactions in lt order, as a narrow table with small granules, for the page of one account's
-- history (transactions?account=, services/gateway/repo/transactions.ts accountPage).
--
-- Why: `transactions` holds that order already, but each read of an account's newest page decompressed an 8,192-row
-- granule of its `account`, `lt` and `now` columns in every part. That was one statement per request, and chdb runs
-- statements with bound parameters one at a time. Here a page reads a 256-row granule of three columns that compress
-- to a few bytes per row. On the 300,000 transactions of a `bench api` store, one page took 2.4 ms instead of 5.2 ms.
-- The pages of concurrent requests are read in one statement, 0.85 ms per page for 10 pages, against 3.1 ms from
-- `transactions`.
--
-- A materialized view fills it from every insert into `transactions`, an old writer's during the upgrade included.
-- The insert below copies the transactions stored before, once. Rows written twice (a crash part-way re-runs the file,
-- a replay, the trace stage's new version of a row) are the same key: ReplacingMergeTree keeps one, and the gateway
-- reads past the rest.
CREATE TABLE IF NOT EXISTS account_transactions
(
    account String,
    lt UInt64 CODEC(Delta, ZSTD(1)),
    now UInt32 CODEC(Delta, ZSTD(1))
)
ENGINE = ReplacingMergeTree
ORDER BY (account, lt)
SETTINGS index_granularity = 256, default_compression_codec = 'ZSTD(1)';

CREATE MATERIALIZED VIEW IF NOT EXISTS account_transactions_from_transactions TO account_transactions AS
SELECT account, lt, now FROM transactions;

INSERT INTO account_transactions SELECT account, lt, now FROM transactions;
