-- Blocks and the masterchain -> shard block links.
--
-- Conventions shared by every migration (see shared/store/queries/README.md):
--  * Hashes are stored as the API prints them: 44-char standard base64 (FixedString(44)). ZSTD brings random
--    base64 within ~5% of raw 32 bytes, and no reader has to convert anything.
--  * Addresses are raw `wc:HEX` upper case (String), as every API record carries them.
--  * Shard ids are UInt64 (decimal in JSON); readers print them with `hex()` minus leading zeros.
--  * Every table an at-least-once writer fills is a ReplacingMergeTree on its natural key: a replayed batch
--    produces rows with the same sorting key, which FINAL (and merges) collapse.
--  * A projection on a ReplacingMergeTree needs `deduplicate_merge_projection_mode`: ClickHouse refuses to
--    create one under the default `throw`. `rebuild` recomputes the projection after a merge dropped
--    duplicates, so projection lookups never keep seeing replayed rows once parts merged.
--  * FINAL reads ignore projections: lookups by a non-key column go through a narrow projection (no FINAL;
--    duplicates only repeat keys) and then read full rows with FINAL by the primary key.
--  * Every table sets `default_compression_codec = 'ZSTD(1)'`: projection parts do not inherit the column
--    codecs of their table and would otherwise be LZ4, which leaves base64 hashes and addresses uncompressed
--    (+30% on the hash projections, measured). Columns name a codec only when it differs (Delta for values that
--    grow along the sorting key, ZSTD(3) for BOCs). Verified on ClickHouse 26.7 (chdb); servers must be as recent.

CREATE TABLE IF NOT EXISTS blocks
(
    workchain Int32,
    shard UInt64,
    seqno UInt32 CODEC(Delta, ZSTD(1)),
    root_hash FixedString(44),
    file_hash FixedString(44),
    -- The masterchain block that committed this block (its own seqno for a masterchain block); NULL while
    -- unknown (a shard block replayed from files without its masterchain block).
    -- masterchain_block_ref of the API is (-1, 8000000000000000, mc_block_seqno).
    mc_block_seqno Nullable(UInt32) CODEC(Delta, ZSTD(1)),
    global_id Int32,
    version UInt32,
    after_merge Bool,
    before_split Bool,
    after_split Bool,
    want_merge Bool,
    want_split Bool,
    key_block Bool,
    vert_seqno_incr Bool,
    flags UInt8,
    gen_utime UInt32 CODEC(Delta, ZSTD(1)),
    start_lt UInt64 CODEC(Delta, ZSTD(1)),
    end_lt UInt64 CODEC(Delta, ZSTD(1)),
    validator_list_hash_short UInt32,
    gen_catchain_seqno UInt32 CODEC(Delta, ZSTD(1)),
    min_ref_mc_seqno UInt32 CODEC(Delta, ZSTD(1)),
    prev_key_block_seqno UInt32 CODEC(Delta, ZSTD(1)),
    vert_seqno UInt32,
    master_ref_seqno Nullable(UInt32),
    rand_seed FixedString(44),
    created_by FixedString(44),
    tx_count UInt32,
    prev_blocks Array(Tuple(workchain Int32, shard UInt64, seqno UInt32)),

    -- Within one (workchain, shard) run of the sorting key seqno, gen_utime, start/end lt and mc_block_seqno
    -- all grow together, so per-granule min/max prune well. Skip indexes also apply under FINAL
    -- (use_skip_indexes_if_final, on by default since 25.x).
    INDEX idx_mc_block_seqno mc_block_seqno TYPE minmax GRANULARITY 1,
    INDEX idx_gen_utime gen_utime TYPE minmax GRANULARITY 1,
    INDEX idx_start_lt start_lt TYPE minmax GRANULARITY 1,
    INDEX idx_end_lt end_lt TYPE minmax GRANULARITY 1,

    -- Hash lookups: random values defeat min/max, so each gets a narrow projection back to the primary key.
    PROJECTION by_root_hash (SELECT root_hash, workchain, shard, seqno ORDER BY root_hash),
    PROJECTION by_file_hash (SELECT file_hash, workchain, shard, seqno ORDER BY file_hash)
)
ENGINE = ReplacingMergeTree
ORDER BY (workchain, shard, seqno)
SETTINGS default_compression_codec = 'ZSTD(1)', deduplicate_merge_projection_mode = 'rebuild';

-- The top shard blocks a masterchain block commits (McBlockExtra shard_hashes): masterchainBlockShardState.
-- (masterchainBlockShards — every block with a given mc_block_seqno — reads blocks.idx_mc_block_seqno.)
CREATE TABLE IF NOT EXISTS shard_state
(
    mc_seqno UInt32 CODEC(Delta, ZSTD(1)),
    workchain Int32,
    shard UInt64,
    seqno UInt32
)
ENGINE = ReplacingMergeTree
ORDER BY (mc_seqno, workchain, shard, seqno)
SETTINGS default_compression_codec = 'ZSTD(1)';
