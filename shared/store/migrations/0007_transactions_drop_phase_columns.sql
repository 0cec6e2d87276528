-- Second half of 0006: every part now holds `description`, so the flattened phase columns go. The default that
-- read them goes first (ClickHouse refuses to drop a column another column's default reads). Its replacement fails
-- any insert that leaves `description` out, with this message: the decode stage always writes it, and a writer of
-- an older version still running during an upgrade (which sends only the phase columns) must stop with an error,
-- its offsets uncommitted, instead of storing empty descriptions. A MODIFY to the same default is a no-op, so the
-- file can be re-run after a crash; metadata changes and column drops only, no part is rewritten. Gateways of an
-- older version read the phase columns: until the rollout that follows the migrate job replaces them, they answer
-- with incomplete descriptions (nothing stored is affected).

ALTER TABLE transactions MODIFY COLUMN description String
    DEFAULT throwIf(true, 'transactions.description must be written by the inserter (migration 0007): this writer predates it')
    CODEC(ZSTD(1));

ALTER TABLE transactions
    DROP COLUMN IF EXISTS descr_type,
    DROP COLUMN IF EXISTS aborted,
    DROP COLUMN IF EXISTS destroyed,
    DROP COLUMN IF EXISTS credit_first,
    DROP COLUMN IF EXISTS is_tock,
    DROP COLUMN IF EXISTS installed,
    DROP COLUMN IF EXISTS storage_fees_collected,
    DROP COLUMN IF EXISTS storage_fees_due,
    DROP COLUMN IF EXISTS storage_status_change,
    DROP COLUMN IF EXISTS credit_due_fees_collected,
    DROP COLUMN IF EXISTS credit,
    DROP COLUMN IF EXISTS credit_extra_currencies,
    DROP COLUMN IF EXISTS compute_skipped,
    DROP COLUMN IF EXISTS compute_skip_reason,
    DROP COLUMN IF EXISTS compute_success,
    DROP COLUMN IF EXISTS compute_msg_state_used,
    DROP COLUMN IF EXISTS compute_account_activated,
    DROP COLUMN IF EXISTS compute_gas_fees,
    DROP COLUMN IF EXISTS compute_gas_used,
    DROP COLUMN IF EXISTS compute_gas_limit,
    DROP COLUMN IF EXISTS compute_gas_credit,
    DROP COLUMN IF EXISTS compute_mode,
    DROP COLUMN IF EXISTS compute_exit_code,
    DROP COLUMN IF EXISTS compute_exit_arg,
    DROP COLUMN IF EXISTS compute_vm_steps,
    DROP COLUMN IF EXISTS compute_vm_init_state_hash,
    DROP COLUMN IF EXISTS compute_vm_final_state_hash,
    DROP COLUMN IF EXISTS action_success,
    DROP COLUMN IF EXISTS action_valid,
    DROP COLUMN IF EXISTS action_no_funds,
    DROP COLUMN IF EXISTS action_status_change,
    DROP COLUMN IF EXISTS action_total_fwd_fees,
    DROP COLUMN IF EXISTS action_total_action_fees,
    DROP COLUMN IF EXISTS action_result_code,
    DROP COLUMN IF EXISTS action_result_arg,
    DROP COLUMN IF EXISTS action_tot_actions,
    DROP COLUMN IF EXISTS action_spec_actions,
    DROP COLUMN IF EXISTS action_skipped_actions,
    DROP COLUMN IF EXISTS action_msgs_created,
    DROP COLUMN IF EXISTS action_list_hash,
    DROP COLUMN IF EXISTS action_tot_msg_size_cells,
    DROP COLUMN IF EXISTS action_tot_msg_size_bits,
    DROP COLUMN IF EXISTS bounce_type,
    DROP COLUMN IF EXISTS bounce_msg_size_cells,
    DROP COLUMN IF EXISTS bounce_msg_size_bits,
    DROP COLUMN IF EXISTS bounce_req_fwd_fees,
    DROP COLUMN IF EXISTS bounce_msg_fees,
    DROP COLUMN IF EXISTS bounce_fwd_fees,
    DROP COLUMN IF EXISTS split_cur_shard_pfx_len,
    DROP COLUMN IF EXISTS split_acc_split_depth,
    DROP COLUMN IF EXISTS split_this_addr,
    DROP COLUMN IF EXISTS split_sibling_addr;
