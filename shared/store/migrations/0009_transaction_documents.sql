-- A transaction's whole v3 record in one key → value row, replacing 0008's `transaction_points`.
--
-- Why: a `transaction_points` row held the transaction and its message sides, but a record also needs the
-- messages' bodies and init states (`message_contents`) and the account states before and after
-- (`account_states`); with point reads on, those two MergeTree reads were what an uncached page still paid for
-- (bench/RESULTS.md, api). A row here carries them too, so a page's records are one key lookup.
--
-- What the decode stage writes, from the same block (services/indexer/rows.ts):
-- - `contents`: the body and init state of each message side, as `message_contents` rows. They are content-addressed,
--   so a copy here never goes stale.
-- - `states`: the account states before and after this transaction that the block holds, as `account_states` rows.
--   A block holds only the state before an account's first transaction in it and after its last. The states between
--   two transactions of one block are in no block at all: they are printed with their hash only, from this table
--   as from `account_states`.
--
-- Upgrade without a reindex: keys this table lacks are read from the MergeTree tables, as keys 0008's table lacked
-- were. That includes everything `transaction_points` held: the decode stage no longer writes it and the gateway no
-- longer reads it. It stays until a later migration drops it, so that an indexer of the version before, still running
-- during the upgrade, keeps storing.
-- A later stage that changes a stored transaction (trace_id) must write its row here too.
CREATE TABLE IF NOT EXISTS transaction_documents
(
    key String,
    -- JSON, parsed by the gateway and never filtered on (64-bit numbers as strings): the `transactions` row's columns
    -- (`description` as its JSON text), plus
    --   messages: the `messages` rows of the transaction (in first, then out in order) without tx_account, tx_lt and
    --             tx_hash;
    --   contents: the `message_contents` rows (hash, boc, decoded) of those messages' bodies and init states;
    --   states:   the `account_states` rows (hash, balance, extra_currencies, status, frozen_hash, data_hash,
    --             code_hash) of the states before and after that the block holds.
    -- One column rather than one per field: a statement pays per column it returns (SELECT of 22 columns ~1.9 ms
    -- with no row found, of 2 columns ~1.3 ms), and the gateway parses one text instead of four.
    doc String
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY key
-- As 0008: rows go through the memtable, which costs the decode stage's many medium-sized inserts less CPU.
SETTINGS optimize_for_bulk_insert = 0;
