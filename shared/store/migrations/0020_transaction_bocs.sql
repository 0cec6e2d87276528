-- The serialized Transaction cell of each transaction (block.tlb `transaction$0111`), as a bag of cells: what API v2
-- returns as a transaction's `data` (getTransactions, getBlockTransactionsExt, tryLocate*; api-v2.md §3), and what
-- TON Center clients parse themselves (@ton/ton's TonClient runs `loadTransaction` on it). No other table can give
-- it back: the v3 records keep the transaction's fields, not its cells, and re-serializing fields would not reproduce
-- the cell (and its hash) exactly.
--
-- Keyed like `transactions` (account, lt), so the records of a page read their BOCs by primary key. Transactions
-- indexed before this migration have no row here; the gateway then answers v2 with an error for them rather than
-- an empty `data`.
CREATE TABLE IF NOT EXISTS transaction_bocs
(
    account String,
    lt UInt64 CODEC(Delta, ZSTD(1)),
    boc String CODEC(ZSTD(3))
)
ENGINE = ReplacingMergeTree
ORDER BY (account, lt)
SETTINGS default_compression_codec = 'ZSTD(1)';
