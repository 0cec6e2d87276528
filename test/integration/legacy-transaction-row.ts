import { transactionRow } from '../../services/indexer/rows.js';
import type { V3Transaction } from '../../shared/ton/records/transaction.js';

/**
 * A `transactions` row as the decode stage wrote it before migration 0006: the TransactionDescr flattened into the
 * phase columns of 0002_transactions.sql. Kept here, and only here, so the upgrade test can fill a store the way an
 * older tonflow did and check that 0006/0007 turn those rows into the description the decoder builds today.
 */

/**
 * The TransactionDescr record as `descriptionRecord()` (shared/ton/records/transaction.ts) builds it: present keys
 * only, numbers beyond 32 bits as decimal strings.
 */
interface DescrView {
  type: string;
  aborted?: boolean;
  destroyed?: boolean;
  credit_first?: boolean;
  is_tock?: boolean;
  installed?: boolean;
  storage_ph?: { storage_fees_collected: string; storage_fees_due?: string; status_change: string };
  credit_ph?: { due_fees_collected?: string; credit: string; credit_extra_currencies: Record<string, string> };
  compute_ph?: {
    skipped: boolean;
    reason?: string;
    success?: boolean;
    msg_state_used?: boolean;
    account_activated?: boolean;
    gas_fees?: string;
    gas_used?: string;
    gas_limit?: string;
    gas_credit?: string;
    mode?: number;
    exit_code?: number;
    exit_arg?: number;
    vm_steps?: number;
    vm_init_state_hash?: string;
    vm_final_state_hash?: string;
  };
  action?: {
    success: boolean;
    valid: boolean;
    no_funds: boolean;
    status_change: string;
    total_fwd_fees?: string;
    total_action_fees?: string;
    result_code: number;
    result_arg?: number;
    tot_actions: number;
    spec_actions: number;
    skipped_actions: number;
    msgs_created: number;
    action_list_hash: string;
    tot_msg_size: { cells: string; bits: string };
  };
  bounce?: {
    type: string;
    msg_size?: { cells: string; bits: string };
    req_fwd_fees?: string;
    msg_fees?: string;
    fwd_fees?: string;
  };
  split_info?: { cur_shard_pfx_len: number; acc_split_depth: number; this_addr: string; sibling_addr: string };
}

const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

export function legacyTransactionRow(tx: V3Transaction, mcSeqno: number | null): Record<string, unknown> {
  const d = tx.description as unknown as DescrView;
  const st = d.storage_ph;
  const cr = d.credit_ph;
  const cp = d.compute_ph;
  const ac = d.action;
  const bo = d.bounce;
  const sp = d.split_info;
  // The columns 0002 and today's table share are written as the decode stage writes them now.
  const { description: _, ...common } = transactionRow(tx, mcSeqno);
  return {
    ...common,
    descr_type: d.type,
    aborted: orNull(d.aborted),
    destroyed: orNull(d.destroyed),
    credit_first: orNull(d.credit_first),
    is_tock: orNull(d.is_tock),
    installed: orNull(d.installed),
    storage_fees_collected: st ? st.storage_fees_collected : null,
    storage_fees_due: orNull(st?.storage_fees_due),
    storage_status_change: st ? st.status_change : null,
    credit_due_fees_collected: orNull(cr?.due_fees_collected),
    credit: cr ? cr.credit : null,
    credit_extra_currencies: cr?.credit_extra_currencies ?? {},
    compute_skipped: cp ? cp.skipped : null,
    compute_skip_reason: orNull(cp?.reason),
    compute_success: orNull(cp?.success),
    compute_msg_state_used: orNull(cp?.msg_state_used),
    compute_account_activated: orNull(cp?.account_activated),
    compute_gas_fees: orNull(cp?.gas_fees),
    compute_gas_used: orNull(cp?.gas_used),
    compute_gas_limit: orNull(cp?.gas_limit),
    compute_gas_credit: orNull(cp?.gas_credit),
    compute_mode: orNull(cp?.mode),
    compute_exit_code: orNull(cp?.exit_code),
    compute_exit_arg: orNull(cp?.exit_arg),
    compute_vm_steps: orNull(cp?.vm_steps),
    compute_vm_init_state_hash: orNull(cp?.vm_init_state_hash),
    compute_vm_final_state_hash: orNull(cp?.vm_final_state_hash),
    action_success: ac ? ac.success : null,
    action_valid: orNull(ac?.valid),
    action_no_funds: orNull(ac?.no_funds),
    action_status_change: orNull(ac?.status_change),
    action_total_fwd_fees: orNull(ac?.total_fwd_fees),
    action_total_action_fees: orNull(ac?.total_action_fees),
    action_result_code: orNull(ac?.result_code),
    action_result_arg: orNull(ac?.result_arg),
    action_tot_actions: orNull(ac?.tot_actions),
    action_spec_actions: orNull(ac?.spec_actions),
    action_skipped_actions: orNull(ac?.skipped_actions),
    action_msgs_created: orNull(ac?.msgs_created),
    action_list_hash: orNull(ac?.action_list_hash),
    action_tot_msg_size_cells: orNull(ac?.tot_msg_size.cells),
    action_tot_msg_size_bits: orNull(ac?.tot_msg_size.bits),
    bounce_type: bo ? bo.type : null,
    bounce_msg_size_cells: orNull(bo?.msg_size?.cells),
    bounce_msg_size_bits: orNull(bo?.msg_size?.bits),
    bounce_req_fwd_fees: orNull(bo?.req_fwd_fees),
    bounce_msg_fees: orNull(bo?.msg_fees),
    bounce_fwd_fees: orNull(bo?.fwd_fees),
    split_cur_shard_pfx_len: sp ? sp.cur_shard_pfx_len : null,
    split_acc_split_depth: orNull(sp?.acc_split_depth),
    split_this_addr: orNull(sp?.this_addr),
    split_sibling_addr: orNull(sp?.sibling_addr),
  };
}
