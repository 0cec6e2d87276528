-- Code and data BoCs of account states by their cell hash, as a key → value table: what the gateway's state reads
-- (services/gateway/repo/full-states.ts) take `code_boc`/`data_boc` from.
--
-- Why: `latest_account_states` and `account_states` (0004) keep the BoCs in MergeTree columns, and a point read of
-- one row decompresses the whole granule (up to 8,192 rows) of each column it returns: for the BoC columns that is
-- megabytes for one account (bench/RESULTS.md, tvm). A MergeTree table's granularity cannot be changed once created,
-- so the gateway reads a state row without its BoCs and takes them from here, one RocksDB lookup per hash.
--
-- Content-addressed, as `cells` (0025): the key is the representation hash of the root cell (`code_hash`/`data_hash`,
-- base64 as those columns), so every value written under a key is the same code or data, and the engine keeping the
-- last write per key is harmless. A state without a BoC (most block states: the state update prunes code and data)
-- writes nothing; the gateway rebuilds those from `cells` as before.
--
-- The table is complete for the BoCs the state tables hold, whatever the writer: materialized views copy every insert
-- into either table (the decode stage and account-state messages write both, services/indexer/rows.ts), and the inserts
-- below copy the rows stored before, once. A crash part-way re-running this file writes the same values again. As for
-- 0010-0015, migrations run with the indexer stopped (README, Kubernetes).
CREATE TABLE IF NOT EXISTS state_bocs
(
    hash FixedString(44),
    boc String
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY hash
-- As 0008: rows go through the memtable, which costs the decode stage's many medium-sized inserts less CPU.
SETTINGS optimize_for_bulk_insert = 0;

-- Each row gives up to two pairs, code and data; ARRAY JOIN makes them rows and the WHERE drops the missing ones.
CREATE MATERIALIZED VIEW IF NOT EXISTS state_bocs_from_account_states TO state_bocs AS
SELECT assumeNotNull(h) AS hash, assumeNotNull(b) AS boc FROM account_states
ARRAY JOIN [code_hash, data_hash] AS h, [code_boc, data_boc] AS b
WHERE h IS NOT NULL AND b IS NOT NULL;

CREATE MATERIALIZED VIEW IF NOT EXISTS state_bocs_from_latest_account_states TO state_bocs AS
SELECT assumeNotNull(h) AS hash, assumeNotNull(b) AS boc FROM latest_account_states
ARRAY JOIN [code_hash, data_hash] AS h, [code_boc, data_boc] AS b
WHERE h IS NOT NULL AND b IS NOT NULL;

INSERT INTO state_bocs
SELECT assumeNotNull(h) AS hash, assumeNotNull(b) AS boc FROM account_states
ARRAY JOIN [code_hash, data_hash] AS h, [code_boc, data_boc] AS b
WHERE h IS NOT NULL AND b IS NOT NULL;

INSERT INTO state_bocs
SELECT assumeNotNull(h) AS hash, assumeNotNull(b) AS boc FROM latest_account_states
ARRAY JOIN [code_hash, data_hash] AS h, [code_boc, data_boc] AS b
WHERE h IS NOT NULL AND b IS NOT NULL;
