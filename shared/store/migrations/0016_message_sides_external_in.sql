-- `message_sides` (0010) keeps, from now on, only the sides that `message_side_points` (0015) cannot hold: those of
-- external-in messages, under their hash (this view) and their normalized hash (0010's `message_sides_by_norm`, already
-- external-in only).
--
-- Why: since 0015 the gateway looks a hash up in `message_side_points` first, and reads `message_sides` only for
-- hashes it lacks, which are never those of an internal or external-out message (services/gateway/repo/
-- transactions.ts, readTxKeysByMessage). Their rows here were a second copy nobody reads: on the `bench ingest` corpus
-- 94 bytes per transaction on disk and about 2 µs of CPU per transaction at insert (bench/RESULTS.md, ingest).
--
-- External messages carry no value (TL-B `ext_in_msg_info$10`), as in 0015's view. The rows written before stay: they are
-- exact, only unread. A crash between the two statements re-runs the file; as for 0010-0012,
-- migrations run with the indexer stopped (README, Kubernetes), so no insert falls between them.
DROP VIEW IF EXISTS message_sides_by_hash;

CREATE MATERIALIZED VIEW IF NOT EXISTS message_sides_by_hash TO message_sides AS
SELECT msg_hash AS lookup_hash, direction, tx_account, tx_lt FROM messages
WHERE value IS NULL AND direction = 'in';
