-- Content-addressed cells of account states (shared/ton/cells/cells.ts): what full states are rebuilt from.
--
-- Why: a block's state update is a Merkle update that prunes every cell the block did not change, so the
-- `account_states` row of a state it names rarely has `code_boc`, and often no `data_boc`. Each cell that does
-- arrive whole is kept here once, by the hash it has in the real state; a code or data cell is rebuilt from its
-- hash (`code_hash`, `data_hash`) whenever all of its cells have been seen in some block.
--
-- What the decode stage writes (services/indexer/rows.ts): the whole cells of each touched account's Account
-- subtree on both sides of a block's state update. Not the ShardAccounts dictionary nodes above them: those change
-- every block and no reader needs them.
--
-- A key → value table as 0009: a row is written once per hash and never changes (the same hash is the same cell),
-- so a replayed block overwrites a key with identical bytes.
CREATE TABLE IF NOT EXISTS cells
(
    -- Level-0 cell hash, lower-case hex.
    hash String,
    -- The cell record, base64: `d1 d2 data child_hash[32]×refs` (shared/ton/cells/cells.ts CellRecord).
    record String
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY hash
SETTINGS optimize_for_bulk_insert = 0;
