-- The lts of each account's 64 newest transactions, for the newest pages of one account's history
-- (transactions?account=, services/gateway/repo/transactions.ts readAccountPages): the page a wallet asks for.
--
-- Why: 0011 reads such a page as a UNION ALL branch of its own, and ClickHouse spends about 1 ms on every branch
-- (planning it and opening its reads) however few rows it reads: the 14 pages of a batch took 13-15 ms on the
-- 300,000 transactions of a `bench api` store. Here the batch's accounts are one `IN` list: 1.4 ms for 6 accounts,
-- 2 ms for 14. A page deeper than 64 rows, an oldest-first page, or one the kept rows cannot answer exactly (see below)
-- still reads `account_transactions`.
--
-- A row holds a groupArraySorted(64) state of bitNot(lt): ascending bitNot(lt) is descending lt. Only lts: decoding
-- states of (lt, now) took a third longer, and the page's records carry `now`. Rows of one
-- account in different parts are merged by AggregatingMergeTree in the background and by the gateway until then.
-- Rows written twice (a replay, a crash part-way re-running a file) put their lt into the state twice, so a state
-- may hold fewer than 64 distinct lts: the gateway counts distinct lts, and only trusts those at or above the lowest
-- lt kept by each full state, below which that state may have dropped rows.
--
-- Small granules and compressed blocks (as 0013 gives `message_sides`): a state is up to 64 × 8 bytes, and a read
-- decompresses the blocks of the granules it touches and decodes every state in them.
-- A materialized view fills it from every insert into `transactions` that starts after the view exists, an old
-- writer's included; the insert below aggregates the transactions stored before, once (ClickHouse spills that GROUP BY
-- to disk when it outgrows memory). An insert already running when the view is created and ending after that copy
-- began would be in neither, as for 0010 and 0011: migrations run with the indexer stopped (README, Kubernetes).
CREATE TABLE IF NOT EXISTS account_recent_transactions
(
    account String,
    newest AggregateFunction(groupArraySorted(64), UInt64)
)
ENGINE = AggregatingMergeTree
ORDER BY account
SETTINGS index_granularity = 16, min_compress_block_size = 4096, max_compress_block_size = 16384, default_compression_codec = 'ZSTD(1)';

CREATE MATERIALIZED VIEW IF NOT EXISTS account_recent_transactions_from_transactions TO account_recent_transactions AS
SELECT account, groupArraySortedState(64)(bitNot(lt)) AS newest FROM transactions GROUP BY account;

INSERT INTO account_recent_transactions
SELECT account, groupArraySortedState(64)(bitNot(lt)) AS newest FROM transactions GROUP BY account;
