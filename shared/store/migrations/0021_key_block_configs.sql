-- The config of each key block: its McBlockExtra `config:key_block?ConfigParams` parameter dictionary
-- (`Hashmap 32 ^Cell`, block.tlb) as a bag of cells. The config changes only in key blocks, so the config in force at
-- any masterchain block is that of the key block its header names (`prev_key_block_seqno`, or itself when it is one):
-- API v2 getConfigParam / getConfigAll read it from here (api-v2.md; TON Center asks a liteserver for the
-- masterchain state). A key block is a few per day; its config is some 80 KB.
CREATE TABLE IF NOT EXISTS key_block_configs
(
    mc_seqno UInt32,
    config_boc String CODEC(ZSTD(3))
)
ENGINE = ReplacingMergeTree
ORDER BY mc_seqno
SETTINGS default_compression_codec = 'ZSTD(1)';
