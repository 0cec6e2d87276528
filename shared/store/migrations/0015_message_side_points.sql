-- Message hash and direction → the transaction of that side, as a key → value table, for
-- transactionsByMessage?msg_hash= (services/gateway/repo/transactions.ts, readTxKeysByMessage).
--
-- Why: `message_sides` (0010) is a MergeTree read over every active part, 1.3-1.5 ms per statement for a few hashes on
-- the 1,000,000 transactions of `bench api`, and the records of its rows take a second statement. Here a side is one
-- RocksDB lookup (0.9-1.0 ms for the same hashes), and with the point tables on, a direct join hands each side its
-- `transaction_documents` row in the same statement: 1.5 ms for what took 2.4-2.5 ms in two (bench/RESULTS.md, api).
--
-- A key `hash|in` or `hash|out` names one transaction only for messages whose hash cannot repeat on a side: an
-- internal message is sent by one transaction and received by at most one, an external-out message is sent by one. An
-- external-in message may be accepted in several transactions, and its normalized hash may be shared (api-v3.md §1.7),
-- so those stay in `message_sides` alone. External messages carry no value (TL-B `ext_in_msg_info$10`,
-- `ext_out_msg_info$11`; `int_msg_info$0` always has one), which is how the view tells them apart.
--
-- The table is complete for the messages it holds, whatever the writer's options: materialized views fill it from
-- every insert into `messages`, an old writer's included, and the insert below copies the messages stored before, once.
-- So when a hash has a row here, every side of it is here, and the gateway needs `message_sides` only for hashes
-- without one (external-in, normalized, or unknown). A replayed block or a crash part-way re-running this file writes
-- the same value to the same key. As for 0010-0012, migrations run with the indexer stopped (README, Kubernetes).
CREATE TABLE IF NOT EXISTS message_side_points
(
    -- `msg_hash|in` or `msg_hash|out`.
    key String,
    -- `tx_account|tx_lt`: the transaction's key in `transaction_documents`.
    tx String
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY key
-- As 0008: rows go through the memtable, which costs the many medium-sized inserts of the decode stage less CPU.
SETTINGS optimize_for_bulk_insert = 0;

CREATE MATERIALIZED VIEW IF NOT EXISTS message_side_points_from_messages TO message_side_points AS
SELECT concat(msg_hash, '|', toString(direction)) AS key, concat(tx_account, '|', toString(tx_lt)) AS tx FROM messages
WHERE value IS NOT NULL OR direction = 'out';

INSERT INTO message_side_points
SELECT concat(msg_hash, '|', toString(direction)) AS key, concat(tx_account, '|', toString(tx_lt)) AS tx FROM messages
WHERE value IS NOT NULL OR direction = 'out';
