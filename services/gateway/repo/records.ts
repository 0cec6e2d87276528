import type { z } from 'zod';
import { decodedOpcode } from '../../../shared/ton/records/opcodes.js';
import type { TransactionDescr } from '../schemas/records.js';
import type { V3Block } from '../../../shared/ton/records/block.js';
import type { V3Message, V3MessageContent } from '../../../shared/ton/records/message.js';
import type { V3BlockId } from '../../../shared/ton/records/transaction.js';

/**
 * Store rows (JSONEachRow of the tables in shared/store/migrations, 64-bit integers as strings) → TON Center's
 * wire records. The inverse of services/indexer/rows.ts: sentinels become null again ('' addresses, 0
 * created_lt/created_at), shards print as upper-case unpadded hex, the flattened TransactionDescr is rebuilt with
 * absent phases and NULL fields omitted (0002_transactions.sql states the rules).
 */

export type Row = Record<string, unknown>;

/** TL-B AccountStatus as TON Center names it. */
export type AccountStatus = 'uninit' | 'frozen' | 'active' | 'nonexist';
/** The TransactionDescr record (its shape is the `TransactionDescr` schema of schemas/records.ts). */
export type Description = z.output<typeof TransactionDescr>;

const MC_SHARD = '8000000000000000';

/** UInt64 shard column (decimal) → upper-case hex without padding. */
export function shardHex(decimal: unknown): string {
  return BigInt(String(decimal)).toString(16).toUpperCase();
}

/** Unsigned 64-bit shard (decimal) → the signed decimal v2 prints. */
export function shardSigned(decimal: unknown): string {
  return BigInt.asIntN(64, BigInt(String(decimal))).toString();
}

const str = (v: unknown): string => String(v);
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number => Number(v);

/** The wire records are the decoder's (shared/ton/records): one definition of the v3 shapes. */
export type BlockIdRecord = V3BlockId;
export type BlockRecord = V3Block;

export function blockFromRow(r: Row): BlockRecord {
  const prev = (r.prev_blocks as Array<Record<string, unknown>> | null) ?? [];
  return {
    workchain: num(r.workchain),
    shard: shardHex(r.shard),
    seqno: num(r.seqno),
    root_hash: str(r.root_hash),
    file_hash: str(r.file_hash),
    global_id: num(r.global_id),
    version: num(r.version),
    after_merge: r.after_merge === true,
    before_split: r.before_split === true,
    after_split: r.after_split === true,
    want_merge: r.want_merge === true,
    want_split: r.want_split === true,
    key_block: r.key_block === true,
    vert_seqno_incr: r.vert_seqno_incr === true,
    flags: num(r.flags),
    gen_utime: str(r.gen_utime),
    start_lt: str(r.start_lt),
    end_lt: str(r.end_lt),
    validator_list_hash_short: num(r.validator_list_hash_short),
    gen_catchain_seqno: num(r.gen_catchain_seqno),
    min_ref_mc_seqno: num(r.min_ref_mc_seqno),
    prev_key_block_seqno: num(r.prev_key_block_seqno),
    vert_seqno: num(r.vert_seqno),
    master_ref_seqno: r.master_ref_seqno === null ? null : num(r.master_ref_seqno),
    rand_seed: str(r.rand_seed),
    created_by: str(r.created_by),
    tx_count: num(r.tx_count),
    masterchain_block_ref: r.mc_block_seqno === null ? null : { workchain: -1, shard: MC_SHARD, seqno: num(r.mc_block_seqno) },
    prev_blocks: prev.map((p) => ({ workchain: num(p.workchain), shard: shardHex(p.shard), seqno: num(p.seqno) })),
  };
}

export type ContentRecord = V3MessageContent;

/** A stored message: as decoded, plus the two sides `/messages` fills; the content may be missing from the store. */
export type MessageRecord = Omit<V3Message, 'message_content'> & {
  message_content: ContentRecord | null;
  in_msg_tx_hash?: string;
  out_msg_tx_hash?: string;
};

/** Message bodies and init states by cell hash (`message_contents`). */
export type Contents = ReadonlyMap<string, ContentRecord>;

export function contentFromRow(r: Row): ContentRecord {
  return { hash: str(r.hash), body: str(r.boc), decoded: r.decoded === null || r.decoded === undefined ? null : (JSON.parse(str(r.decoded)) as Record<string, unknown>) };
}

function content(hash: unknown, contents: Contents): ContentRecord | null {
  if (hash === null || hash === undefined) return null;
  // A body row that is missing (never written) still names its hash: TON Center prints what it has.
  return contents.get(str(hash)) ?? { hash: str(hash), body: '', decoded: null };
}

/** `"0x%08x"` of the store's signed int32. */
export function opcodeHex(op: number): string {
  return '0x' + (op >>> 0).toString(16).padStart(8, '0');
}

/** A `messages` row (one side of a message) → Message record; `txHashes` adds /messages' in/out tx hashes. */
export function messageFromRow(r: Row, contents: Contents, txHashes?: { in?: unknown; out?: unknown }): MessageRecord {
  const opcode = r.opcode === null || r.opcode === undefined ? null : num(r.opcode);
  const value = strOrNull(r.value);
  const m: MessageRecord = {
    hash: str(r.msg_hash),
    source: r.source === '' ? null : str(r.source),
    destination: r.destination === '' ? null : str(r.destination),
    value,
    value_extra_currencies: value === null ? null : ((r.value_extra_currencies as Record<string, string>) ?? {}),
    fwd_fee: strOrNull(r.fwd_fee),
    ihr_fee: strOrNull(r.ihr_fee),
    created_lt: r.created_lt === '0' || r.created_lt === 0 ? null : str(r.created_lt),
    created_at: r.created_at === 0 || r.created_at === '0' ? null : str(r.created_at),
    opcode: opcode === null ? null : opcodeHex(opcode),
    decoded_opcode: opcode === null ? null : decodedOpcode(opcode),
    ihr_disabled: (r.ihr_disabled as boolean | null) ?? null,
    bounce: (r.bounce as boolean | null) ?? null,
    bounced: (r.bounced as boolean | null) ?? null,
    import_fee: strOrNull(r.import_fee),
    extra_flags: strOrNull(r.extra_flags),
    message_content: content(r.body_hash, contents),
    init_state: content(r.init_state_hash, contents),
  };
  if (txHashes) {
    if (txHashes.in !== undefined && txHashes.in !== null && txHashes.in !== '') m.in_msg_tx_hash = str(txHashes.in);
    if (txHashes.out !== undefined && txHashes.out !== null && txHashes.out !== '') m.out_msg_tx_hash = str(txHashes.out);
  }
  if (r.hash_norm !== null && r.hash_norm !== undefined) m.hash_norm = str(r.hash_norm);
  // JSON key order as TON Center: the tx hashes and hash_norm follow the fields above.
  if (txHashes) {
    const { message_content, init_state, hash_norm, ...head } = m;
    return { ...head, message_content, init_state, ...(hash_norm === undefined ? {} : { hash_norm }) };
  }
  return m;
}

export interface AccountStateRecord {
  hash: string;
  balance: string | null;
  extra_currencies: Record<string, string> | null;
  account_status: AccountStatus | null;
  frozen_hash: string | null;
  data_hash: string | null;
  code_hash: string | null;
}

/** `account_states` rows by state hash. */
export type States = ReadonlyMap<string, Row>;

/** The AccountState inside a transaction: the full row when the store has it, else only the hash. */
export function accountStateRecord(hash: string, states: States): AccountStateRecord {
  const s = states.get(hash);
  if (!s) return { hash, balance: null, extra_currencies: null, account_status: null, frozen_hash: null, data_hash: null, code_hash: null };
  return {
    hash,
    balance: str(s.balance),
    extra_currencies: (s.extra_currencies as Record<string, string>) ?? {},
    account_status: str(s.status) as AccountStatus,
    frozen_hash: strOrNull(s.frozen_hash),
    data_hash: strOrNull(s.data_hash),
    code_hash: strOrNull(s.code_hash),
  };
}

/** TransactionDescr from the flattened columns (present phases only, NULL fields omitted). */
export function descriptionFromRow(r: Row): Description {
  const d: Record<string, unknown> = { type: r.descr_type };
  const put = (o: Record<string, unknown>, k: string, v: unknown): void => {
    if (v !== null && v !== undefined) o[k] = v;
  };
  for (const k of ['aborted', 'destroyed', 'credit_first', 'is_tock', 'installed']) put(d, k, r[k]);
  if (r.storage_fees_collected !== null) {
    const p: Record<string, unknown> = { storage_fees_collected: r.storage_fees_collected };
    put(p, 'storage_fees_due', r.storage_fees_due);
    p.status_change = r.storage_status_change;
    d.storage_ph = p;
  }
  if (r.credit !== null) {
    const p: Record<string, unknown> = {};
    put(p, 'due_fees_collected', r.credit_due_fees_collected);
    p.credit = r.credit;
    p.credit_extra_currencies = r.credit_extra_currencies ?? {};
    d.credit_ph = p;
  }
  if (r.compute_skipped === true) {
    const p: Record<string, unknown> = { skipped: true };
    put(p, 'reason', r.compute_skip_reason);
    d.compute_ph = p;
  } else if (r.compute_skipped === false) {
    const p: Record<string, unknown> = { skipped: false };
    put(p, 'success', r.compute_success);
    put(p, 'msg_state_used', r.compute_msg_state_used);
    put(p, 'account_activated', r.compute_account_activated);
    put(p, 'gas_fees', r.compute_gas_fees);
    put(p, 'gas_used', r.compute_gas_used);
    put(p, 'gas_limit', r.compute_gas_limit);
    put(p, 'gas_credit', r.compute_gas_credit === null ? null : String(r.compute_gas_credit));
    put(p, 'mode', r.compute_mode);
    put(p, 'exit_code', r.compute_exit_code);
    put(p, 'exit_arg', r.compute_exit_arg);
    put(p, 'vm_steps', r.compute_vm_steps);
    put(p, 'vm_init_state_hash', r.compute_vm_init_state_hash);
    put(p, 'vm_final_state_hash', r.compute_vm_final_state_hash);
    d.compute_ph = p;
  }
  if (r.action_success !== null) {
    const p: Record<string, unknown> = { success: r.action_success };
    put(p, 'valid', r.action_valid);
    put(p, 'no_funds', r.action_no_funds);
    put(p, 'status_change', r.action_status_change);
    put(p, 'total_fwd_fees', r.action_total_fwd_fees);
    put(p, 'total_action_fees', r.action_total_action_fees);
    put(p, 'result_code', r.action_result_code);
    put(p, 'result_arg', r.action_result_arg);
    put(p, 'tot_actions', r.action_tot_actions);
    put(p, 'spec_actions', r.action_spec_actions);
    put(p, 'skipped_actions', r.action_skipped_actions);
    put(p, 'msgs_created', r.action_msgs_created);
    put(p, 'action_list_hash', r.action_list_hash);
    if (r.action_tot_msg_size_cells !== null) p.tot_msg_size = { cells: r.action_tot_msg_size_cells, bits: r.action_tot_msg_size_bits };
    d.action = p;
  }
  if (r.bounce_type === 'negfunds') d.bounce = { type: 'negfunds' };
  else if (r.bounce_type === 'nofunds') {
    d.bounce = { type: 'nofunds', msg_size: { cells: r.bounce_msg_size_cells, bits: r.bounce_msg_size_bits }, req_fwd_fees: r.bounce_req_fwd_fees };
  } else if (r.bounce_type === 'ok') {
    d.bounce = { type: 'ok', msg_size: { cells: r.bounce_msg_size_cells, bits: r.bounce_msg_size_bits }, msg_fees: r.bounce_msg_fees, fwd_fees: r.bounce_fwd_fees };
  }
  if (r.split_cur_shard_pfx_len !== null) {
    d.split_info = {
      cur_shard_pfx_len: r.split_cur_shard_pfx_len,
      acc_split_depth: r.split_acc_split_depth,
      this_addr: r.split_this_addr,
      sibling_addr: r.split_sibling_addr,
    };
  }
  return d as Description;
}

export interface TransactionRecord {
  account: string;
  hash: string;
  lt: string;
  now: number;
  mc_block_seqno: number | null;
  trace_id?: string;
  prev_trans_hash: string;
  prev_trans_lt: string;
  orig_status: AccountStatus;
  end_status: AccountStatus;
  total_fees: string;
  total_fees_extra_currencies: Record<string, string>;
  description: Description;
  block_ref: BlockIdRecord;
  in_msg: MessageRecord | null;
  out_msgs: MessageRecord[];
  account_state_before: AccountStateRecord;
  account_state_after: AccountStateRecord;
  emulated: false;
  finality: 'finalized';
}

/** A `transactions` row plus its message rows (`in` and `out`, out ones by created_lt) → Transaction record. */
export function transactionFromRow(r: Row, messages: readonly Row[], contents: Contents, states: States): TransactionRecord {
  let inMsg: MessageRecord | null = null;
  const out: Row[] = [];
  for (const m of messages) {
    if (m.direction === 'in') inMsg = messageFromRow(m, contents);
    else out.push(m);
  }
  // api-v3.md §1.5: out_msgs always an array, sorted by created_lt ascending.
  out.sort((a, b) => {
    const x = BigInt(str(a.created_lt));
    const y = BigInt(str(b.created_lt));
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const tx: TransactionRecord = {
    account: str(r.account),
    hash: str(r.hash),
    lt: str(r.lt),
    now: num(r.now),
    mc_block_seqno: r.mc_block_seqno === null ? null : num(r.mc_block_seqno),
    prev_trans_hash: str(r.prev_trans_hash),
    prev_trans_lt: str(r.prev_trans_lt),
    orig_status: str(r.orig_status) as AccountStatus,
    end_status: str(r.end_status) as AccountStatus,
    total_fees: str(r.total_fees),
    total_fees_extra_currencies: (r.total_fees_extra_currencies as Record<string, string>) ?? {},
    description: descriptionFromRow(r),
    block_ref: { workchain: num(r.block_workchain), shard: shardHex(r.block_shard), seqno: num(r.block_seqno) },
    in_msg: inMsg,
    out_msgs: out.map((m) => messageFromRow(m, contents)),
    account_state_before: accountStateRecord(str(r.account_state_hash_before), states),
    account_state_after: accountStateRecord(str(r.account_state_hash_after), states),
    emulated: false,
    finality: 'finalized',
  };
  if (r.trace_id !== null && r.trace_id !== undefined) {
    // trace_id sits after mc_block_seqno on the wire (omitted while unknown).
    const { account, hash, lt, now, mc_block_seqno, ...rest } = tx;
    return { account, hash, lt, now, mc_block_seqno, trace_id: str(r.trace_id), ...rest };
  }
  return tx;
}
