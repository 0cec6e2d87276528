-- The transaction description moves from ~50 flattened phase columns to one column holding the JSON of the v3
-- `description` object, exactly as the decoder renders it (shared/ton/records/transaction.ts descriptionRecord).
--
-- Why: no endpoint filters or sorts on a phase field; every reader wants the whole object. The flattened form
-- made each insert serialize, compress and write ~50 mostly-narrow columns and made a point read decompress a
-- granule of each (bench/RESULTS.md, ingest and api). One String column is about half the insert CPU of the
-- table and half the point-read time.
--
-- Upgrade in place, no reindex: parts written before this migration get `description` computed from their own
-- phase columns by the DEFAULT expression below, which builds the same JSON text the decoder writes (same keys,
-- same order, 64-bit amounts as strings; 0002_transactions.sql gives the NULL rules it reads; toJSONString's
-- escaped `\/` is turned back into the `/` that JSON.stringify leaves alone). MATERIALIZE then
-- writes it into every existing part, so 0007 can drop the phase columns. Both statements are idempotent: a re-run
-- recomputes the same text from columns that 0007 has not dropped yet (0007 runs only after this file is recorded).

ALTER TABLE transactions ADD COLUMN IF NOT EXISTS description String DEFAULT assumeNotNull(replaceAll(concat(
    '{"type":', toJSONString(descr_type),
    if(aborted IS NULL, '', concat(',"aborted":', if(assumeNotNull(aborted), 'true', 'false'))),
    if(destroyed IS NULL, '', concat(',"destroyed":', if(assumeNotNull(destroyed), 'true', 'false'))),
    if(credit_first IS NULL, '', concat(',"credit_first":', if(assumeNotNull(credit_first), 'true', 'false'))),
    if(is_tock IS NULL, '', concat(',"is_tock":', if(assumeNotNull(is_tock), 'true', 'false'))),
    if(installed IS NULL, '', concat(',"installed":', if(assumeNotNull(installed), 'true', 'false'))),
    if(storage_fees_collected IS NULL, '', concat(
        ',"storage_ph":{"storage_fees_collected":"', toString(assumeNotNull(storage_fees_collected)), '"',
        if(storage_fees_due IS NULL, '', concat(',"storage_fees_due":"', toString(assumeNotNull(storage_fees_due)), '"')),
        ',"status_change":', toJSONString(assumeNotNull(storage_status_change)), '}')),
    if(credit IS NULL, '', concat(
        ',"credit_ph":{',
        if(credit_due_fees_collected IS NULL, '', concat('"due_fees_collected":"', toString(assumeNotNull(credit_due_fees_collected)), '",')),
        '"credit":"', toString(assumeNotNull(credit)), '","credit_extra_currencies":{',
        arrayStringConcat(arrayMap((k, v) -> concat('"', toString(k), '":"', toString(v), '"'),
            mapKeys(credit_extra_currencies), mapValues(credit_extra_currencies)), ','),
        '}}')),
    multiIf(
        compute_skipped IS NULL, '',
        assumeNotNull(compute_skipped), concat(',"compute_ph":{"skipped":true,"reason":', toJSONString(assumeNotNull(compute_skip_reason)), '}'),
        concat(
            ',"compute_ph":{"skipped":false',
            ',"success":', if(assumeNotNull(compute_success), 'true', 'false'),
            ',"msg_state_used":', if(assumeNotNull(compute_msg_state_used), 'true', 'false'),
            ',"account_activated":', if(assumeNotNull(compute_account_activated), 'true', 'false'),
            ',"gas_fees":"', toString(assumeNotNull(compute_gas_fees)), '"',
            ',"gas_used":"', toString(assumeNotNull(compute_gas_used)), '"',
            ',"gas_limit":"', toString(assumeNotNull(compute_gas_limit)), '"',
            if(compute_gas_credit IS NULL, '', concat(',"gas_credit":"', toString(assumeNotNull(compute_gas_credit)), '"')),
            ',"mode":', toString(assumeNotNull(compute_mode)),
            ',"exit_code":', toString(assumeNotNull(compute_exit_code)),
            if(compute_exit_arg IS NULL, '', concat(',"exit_arg":', toString(assumeNotNull(compute_exit_arg)))),
            ',"vm_steps":', toString(assumeNotNull(compute_vm_steps)),
            ',"vm_init_state_hash":', toJSONString(toString(assumeNotNull(compute_vm_init_state_hash))),
            ',"vm_final_state_hash":', toJSONString(toString(assumeNotNull(compute_vm_final_state_hash))), '}')),
    if(action_success IS NULL, '', concat(
        ',"action":{"success":', if(assumeNotNull(action_success), 'true', 'false'),
        ',"valid":', if(assumeNotNull(action_valid), 'true', 'false'),
        ',"no_funds":', if(assumeNotNull(action_no_funds), 'true', 'false'),
        ',"status_change":', toJSONString(assumeNotNull(action_status_change)),
        if(action_total_fwd_fees IS NULL, '', concat(',"total_fwd_fees":"', toString(assumeNotNull(action_total_fwd_fees)), '"')),
        if(action_total_action_fees IS NULL, '', concat(',"total_action_fees":"', toString(assumeNotNull(action_total_action_fees)), '"')),
        ',"result_code":', toString(assumeNotNull(action_result_code)),
        if(action_result_arg IS NULL, '', concat(',"result_arg":', toString(assumeNotNull(action_result_arg)))),
        ',"tot_actions":', toString(assumeNotNull(action_tot_actions)),
        ',"spec_actions":', toString(assumeNotNull(action_spec_actions)),
        ',"skipped_actions":', toString(assumeNotNull(action_skipped_actions)),
        ',"msgs_created":', toString(assumeNotNull(action_msgs_created)),
        ',"action_list_hash":', toJSONString(toString(assumeNotNull(action_list_hash))),
        if(action_tot_msg_size_cells IS NULL, '', concat(
            ',"tot_msg_size":{"cells":"', toString(assumeNotNull(action_tot_msg_size_cells)),
            '","bits":"', toString(assumeNotNull(action_tot_msg_size_bits)), '"}')),
        '}')),
    multiIf(
        bounce_type IS NULL, '',
        bounce_type = 'negfunds', ',"bounce":{"type":"negfunds"}',
        concat(
            ',"bounce":{"type":', toJSONString(assumeNotNull(bounce_type)),
            ',"msg_size":{"cells":"', toString(assumeNotNull(bounce_msg_size_cells)),
            '","bits":"', toString(assumeNotNull(bounce_msg_size_bits)), '"}',
            if(bounce_type = 'nofunds',
                concat(',"req_fwd_fees":"', toString(assumeNotNull(bounce_req_fwd_fees)), '"'),
                concat(',"msg_fees":"', toString(assumeNotNull(bounce_msg_fees)), '","fwd_fees":"', toString(assumeNotNull(bounce_fwd_fees)), '"')),
            '}')),
    if(split_cur_shard_pfx_len IS NULL, '', concat(
        ',"split_info":{"cur_shard_pfx_len":', toString(assumeNotNull(split_cur_shard_pfx_len)),
        ',"acc_split_depth":', toString(assumeNotNull(split_acc_split_depth)),
        ',"this_addr":', toJSONString(assumeNotNull(split_this_addr)),
        ',"sibling_addr":', toJSONString(assumeNotNull(split_sibling_addr)), '}')),
    '}'), '\\/', '/'))
    CODEC(ZSTD(1)) AFTER account_state_hash_after;

ALTER TABLE transactions MATERIALIZE COLUMN description SETTINGS mutations_sync = 2;
