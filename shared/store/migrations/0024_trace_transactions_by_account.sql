-- /api/v3/traces?account= (api-v3.md §3.2): the traces an account took part in. `trace_transactions` is ordered by
-- trace, so that lookup would read every row; this projection orders (account, lt) → trace. The lookup only needs
-- the trace ids, which the projection carries, so it never reads the table itself.
ALTER TABLE trace_transactions ADD PROJECTION IF NOT EXISTS by_account (SELECT tx_account, tx_lt, trace_id ORDER BY tx_account, tx_lt);

-- Rows stored before the projection existed (a mutation; re-running it rebuilds the same projection).
ALTER TABLE trace_transactions MATERIALIZE PROJECTION by_account SETTINGS mutations_sync = 2;
