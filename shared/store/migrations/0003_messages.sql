-- Messages: one row per (transaction, direction, message). A message between two indexed accounts appears
-- twice: as `out` of the transaction that created it and as `in` of the one that received it.
--
-- Sorted by the owning transaction first, so fetching the messages of a page of transactions (every
-- transaction response does) reads the same few granules as the transactions themselves.
--
-- Columns used as projection keys are NOT NULL with a sentinel, because `x IS NULL` is rewritten to the
-- `x.null` subcolumn and then no longer matches a key (ClickHouse 26): source = '' / destination = ''
-- for the external side, created_lt = 0 / created_at = 0 for external-in messages. Readers map them back
-- with nullIf(). opcode stays Nullable (only ever compared for equality), hence allow_nullable_key.

CREATE TABLE IF NOT EXISTS messages
(
    tx_account String,
    tx_lt UInt64 CODEC(Delta, ZSTD(1)),
    tx_hash FixedString(44),
    direction Enum8('in' = 1, 'out' = 2),
    msg_hash FixedString(44),
    -- TEP-467 normalized hash of an external-in message, when it differs from msg_hash.
    hash_norm Nullable(FixedString(44)),
    source String,
    destination String,
    value Nullable(UInt128),
    -- NULL in the API exactly when value is NULL (non-internal messages).
    value_extra_currencies Map(UInt32, UInt256),
    fwd_fee Nullable(UInt128),
    ihr_fee Nullable(UInt128),
    import_fee Nullable(UInt64),
    extra_flags Nullable(UInt128),
    created_lt UInt64,
    created_at UInt32,
    opcode Nullable(Int32),
    ihr_disabled Nullable(Bool),
    bounce Nullable(Bool),
    bounced Nullable(Bool),
    -- Bodies and init states live once per hash in message_contents.
    body_hash FixedString(44),
    init_state_hash Nullable(FixedString(44)),

    -- Lookup paths, each carrying the owning transaction's key (tx_account, tx_lt) and the direction:
    --  by_hash       msg_hash (+direction): transactionsByMessage, adjacentTransactions, /messages?msg_hash
    --  by_body_hash  body_hash
    --  by_source     source, newest first by created_lt ('' = external-in)
    --  by_destination destination, newest first ('' = external-out)
    --  by_opcode     opcode, newest first
    --  by_created_lt created_lt windows; created_at windows map to created_lt through blocks (a message's
    --                created_at is its creating block's gen_utime, its created_lt lies in that block's lt span)
    PROJECTION by_hash (SELECT msg_hash, direction, tx_account, tx_lt ORDER BY (msg_hash, direction)),
    PROJECTION by_body_hash (SELECT body_hash, direction, tx_account, tx_lt ORDER BY body_hash),
    PROJECTION by_source (SELECT source, created_lt, direction, tx_account, tx_lt ORDER BY (source, created_lt)),
    PROJECTION by_destination (SELECT destination, created_lt, direction, tx_account, tx_lt ORDER BY (destination, created_lt)),
    PROJECTION by_opcode (SELECT opcode, created_lt, direction, tx_account, tx_lt ORDER BY (opcode, created_lt)),
    PROJECTION by_created_lt (SELECT created_lt, created_at, direction, tx_account, tx_lt ORDER BY created_lt)
)
ENGINE = ReplacingMergeTree
ORDER BY (tx_account, tx_lt, direction, msg_hash)
SETTINGS default_compression_codec = 'ZSTD(1)', deduplicate_merge_projection_mode = 'rebuild', allow_nullable_key = 1;

-- Message bodies and init states by cell hash, deduplicated: empty bodies, common comments and contract
-- code are stored once however many messages carry them. `boc` is standard base64 as the API returns it;
-- `decoded` is the JSON of message_content.decoded (e.g. a text comment), NULL when not decodable.
CREATE TABLE IF NOT EXISTS message_contents
(
    hash FixedString(44),
    boc String CODEC(ZSTD(3)),
    decoded Nullable(String) CODEC(ZSTD(3))
)
ENGINE = ReplacingMergeTree
ORDER BY hash
SETTINGS default_compression_codec = 'ZSTD(1)';

-- normalized hash -> raw hash, only for the external-in messages where they differ (a few percent of
-- messages): a projection on hash_norm would carry a row and a transaction key for every message.
CREATE TABLE IF NOT EXISTS message_hash_norms
(
    hash_norm FixedString(44),
    msg_hash FixedString(44)
)
ENGINE = ReplacingMergeTree
ORDER BY (hash_norm, msg_hash)
SETTINGS default_compression_codec = 'ZSTD(1)';
