-- Where the follower resumes, per source (a liteserver network, a block directory, the devnet). In Kafka mode the
-- follower saves after the broker acknowledged a group; in embedded mode the decode stage saves once the group's
-- last block is stored. The newest row (highest updated_ms) wins.
CREATE TABLE IF NOT EXISTS follower_checkpoints
(
    source     String,
    checkpoint String,
    updated_ms UInt64
)
ENGINE = ReplacingMergeTree(updated_ms)
ORDER BY source;
