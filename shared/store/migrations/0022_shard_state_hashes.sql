-- The root and file hash of each shard tip a masterchain block commits, as its ShardDescr names them (block.tlb
-- `shard_descr`): API v2 `shards` prints full block ids, and a tip's own row in `blocks` may be absent (a store
-- that holds the masterchain block but not the shard block). Rows written before keep '' (the gateway then takes
-- the hashes from `blocks` when it holds the tip).
ALTER TABLE shard_state ADD COLUMN IF NOT EXISTS root_hash String DEFAULT '';

ALTER TABLE shard_state ADD COLUMN IF NOT EXISTS file_hash String DEFAULT '';
