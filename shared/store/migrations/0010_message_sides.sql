-- Message hash → the transactions that sent or received the message, as a narrow table with small granules, for
-- transactionsByMessage?msg_hash= (services/gateway/repo/transactions.ts, readTxKeysByMessage).
--
-- Why: that lookup went through the `messages` by_hash projection and `message_hash_norms`. Hashes are random, so
-- every hash of a batch lands in a granule of its own, and a granule of 8,192 rows had to be decompressed for each
-- one. On the 300,000 transactions of a `bench api` store, the two statements took 23 ms for 25 hashes; this table,
-- with 256-row granules, takes 4.3 ms. That lookup was most of what transactionsByMessage cost under load.
--
-- `lookup_hash` is what a client may send as `msg_hash`: the message hash, and for an external-in message whose
-- TEP-467 normalized hash differs from it, that normalized hash too (api-v3.md §1.7). The rows of the normalized hash
-- are exactly the `message_hash_norms` pairs, joined with their message rows.
--
-- Materialized views fill it from every insert into `messages`, so no writer has to know about it, an old writer
-- still running during the upgrade included. The inserts below copy the messages stored before, once; a crash
-- part-way re-runs the file, and the rows it wrote twice are the same key, which ReplacingMergeTree keeps once and
-- the gateway reads once (it drops repeated rows itself).
CREATE TABLE IF NOT EXISTS message_sides
(
    lookup_hash FixedString(44),
    direction Enum8('in' = 1, 'out' = 2),
    tx_account String,
    tx_lt UInt64
)
ENGINE = ReplacingMergeTree
ORDER BY (lookup_hash, direction, tx_account, tx_lt)
-- Per row: a 44-byte random hash, which does not compress, and a transaction key, which compresses well inside a
-- granule. 256 rows per granule: 128 was no faster for 25 hashes, and 8,192 (the default) was the problem.
SETTINGS index_granularity = 256, default_compression_codec = 'ZSTD(1)';

CREATE MATERIALIZED VIEW IF NOT EXISTS message_sides_by_hash TO message_sides AS
SELECT msg_hash AS lookup_hash, direction, tx_account, tx_lt FROM messages;

CREATE MATERIALIZED VIEW IF NOT EXISTS message_sides_by_norm TO message_sides AS
SELECT assumeNotNull(hash_norm) AS lookup_hash, direction, tx_account, tx_lt FROM messages
WHERE hash_norm IS NOT NULL AND direction = 'in';

INSERT INTO message_sides SELECT msg_hash, direction, tx_account, tx_lt FROM messages;

INSERT INTO message_sides SELECT assumeNotNull(hash_norm), direction, tx_account, tx_lt FROM messages
WHERE hash_norm IS NOT NULL AND direction = 'in';
