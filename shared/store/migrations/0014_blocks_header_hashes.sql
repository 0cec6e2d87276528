-- Two hashes of each block that the v2 block operations print (api-v2.md §3.1, §3.2) and the v3 record does not:
-- the root hash of the shard state after the block (`state_update:^(MERKLE_UPDATE ShardState)`'s new_hash,
-- block.tlb), which is a masterchain block's `state_root_hash` in getMasterchainInfo, and the root and file hashes
-- of its previous blocks as its BlkPrevInfo references them (ExtBlkRef), parallel to `prev_blocks`. Before this the
-- gateway printed an empty state_root_hash, and previous blocks' hashes only when it stored those blocks.
--
-- Blocks stored before keep '' and []: the gateway then falls back as before (no reindex needed). Writers of the
-- version before send rows without these columns and get the same defaults.
ALTER TABLE blocks ADD COLUMN IF NOT EXISTS state_root_hash String DEFAULT '';

ALTER TABLE blocks ADD COLUMN IF NOT EXISTS prev_block_hashes Array(Tuple(root_hash String, file_hash String)) DEFAULT [];
