import type { Boc } from '../boc/reader.js';
import type { StorageUsed } from '../tlb/StorageUsed.js';
import type { Transaction } from '../tlb/Transaction.js';
import type { TransactionDescr } from '../tlb/TransactionDescr.js';
import { b64, extraCurrencies, rawAddress } from './format.js';
import { type MessageMemo, type V3Message, messageRecord } from './message.js';
import type { WireAccountState, WireBlockId, WireTransaction, WireTransactionDescr } from './wire.js';

/** `{workchain, shard, seqno}` (api-v3.md BlockId). */
export type V3BlockId = WireBlockId;

/** Account state inside a transaction record (api-v3.md "AccountState"). */
export type V3AccountState = WireAccountState;

/**
 * The v3 Transaction record as the decoder makes it (wire.ts `Transaction`): its messages always carry their content.
 * `trace_id` is omitted until the trace stage assigns it (api-v3.md: "omitted when null").
 */
export type V3Transaction = Omit<WireTransaction, 'in_msg' | 'out_msgs'> & {
  in_msg: V3Message | null;
  out_msgs: V3Message[];
};

/** Where a transaction sits: its block, and the masterchain seqno once the block is linked (else null). */
export interface TxContext {
  workchain: number;
  /** The block's shard as the wire prints it (format.ts shardHex), rendered once per block. */
  shard: string;
  seqno: number;
  mcBlockSeqno: number | null;
  /** Messages and bodies already rendered in this block (optional: records are the same without it). */
  memo?: MessageMemo;
}

export function stateOnlyHash(hash: Uint8Array): V3AccountState {
  return {
    hash: b64(hash),
    balance: null,
    extra_currencies: null,
    account_status: null,
    frozen_hash: null,
    data_hash: null,
    code_hash: null,
  };
}

export function transactionRecord(boc: Boc, tx: Transaction, ctx: TxContext): V3Transaction {
  return {
    account: rawAddress(ctx.workchain, tx.accountAddr),
    hash: b64(boc.hash(tx.cell)),
    lt: tx.lt.toString(),
    now: tx.now,
    mc_block_seqno: ctx.mcBlockSeqno,
    prev_trans_hash: b64(tx.prevTransHash),
    prev_trans_lt: tx.prevTransLt.toString(),
    orig_status: tx.origStatus,
    end_status: tx.endStatus,
    total_fees: tx.totalFees.grams.toString(),
    total_fees_extra_currencies: extraCurrencies(tx.totalFees),
    description: descriptionRecord(tx.description, ctx.workchain),
    block_ref: { workchain: ctx.workchain, shard: ctx.shard, seqno: ctx.seqno },
    in_msg: tx.inMsg ? messageRecord(boc, tx.inMsg, ctx.memo) : null,
    // api-v3.md lists out messages by created_lt ascending: the out_msgs keys (0, 1, …) are creation order,
    // and each message took the next lt, so key order is that order.
    out_msgs: tx.outMsgs.map((m) => messageRecord(boc, m, ctx.memo)),
    account_state_before: stateOnlyHash(tx.stateUpdate.oldHash),
    account_state_after: stateOnlyHash(tx.stateUpdate.newHash),
    emulated: false,
    finality: 'finalized',
  };
}

function msgSize(m: StorageUsed): { cells: string; bits: string } {
  return { cells: m.cells.toString(), bits: m.bits.toString() };
}

/**
 * TransactionDescr as TON Center renders it (api-v3.md "TransactionDescr", indexing-semantics §4):
 * phases a constructor lacks, and null fields inside phases, are omitted.
 */
export function descriptionRecord(d: TransactionDescr, workchain: number): WireTransactionDescr {
  const out: Record<string, unknown> = { type: d.type };
  if (d.aborted !== null) out.aborted = d.aborted;
  if (d.destroyed !== null) out.destroyed = d.destroyed;
  if (d.creditFirst !== null) out.credit_first = d.creditFirst;
  if (d.isTock !== null) out.is_tock = d.isTock;
  if (d.installed !== null) out.installed = d.installed;
  if (d.storagePh) {
    const p = d.storagePh;
    const ph: Record<string, unknown> = { storage_fees_collected: p.storageFeesCollected.toString() };
    if (p.storageFeesDue !== null) ph.storage_fees_due = p.storageFeesDue.toString();
    ph.status_change = p.statusChange;
    out.storage_ph = ph;
  }
  if (d.creditPh) {
    const p = d.creditPh;
    const ph: Record<string, unknown> = {};
    if (p.dueFeesCollected !== null) ph.due_fees_collected = p.dueFeesCollected.toString();
    ph.credit = p.credit.grams.toString();
    ph.credit_extra_currencies = extraCurrencies(p.credit);
    out.credit_ph = ph;
  }
  if (d.computePh) {
    const c = d.computePh;
    if (c.type === 'skipped') {
      out.compute_ph = { skipped: true, reason: c.reason };
    } else {
      const ph: Record<string, unknown> = {
        skipped: false,
        success: c.success,
        msg_state_used: c.msgStateUsed,
        account_activated: c.accountActivated,
        gas_fees: c.gasFees.toString(),
        gas_used: c.gasUsed.toString(),
        gas_limit: c.gasLimit.toString(),
      };
      if (c.gasCredit !== null) ph.gas_credit = c.gasCredit.toString();
      ph.mode = c.mode;
      ph.exit_code = c.exitCode;
      if (c.exitArg !== null) ph.exit_arg = c.exitArg;
      ph.vm_steps = c.vmSteps;
      ph.vm_init_state_hash = b64(c.vmInitStateHash);
      ph.vm_final_state_hash = b64(c.vmFinalStateHash);
      out.compute_ph = ph;
    }
  }
  if (d.action) {
    const a = d.action;
    const ph: Record<string, unknown> = {
      success: a.success,
      valid: a.valid,
      no_funds: a.noFunds,
      status_change: a.statusChange,
    };
    if (a.totalFwdFees !== null) ph.total_fwd_fees = a.totalFwdFees.toString();
    if (a.totalActionFees !== null) ph.total_action_fees = a.totalActionFees.toString();
    ph.result_code = a.resultCode;
    if (a.resultArg !== null) ph.result_arg = a.resultArg;
    ph.tot_actions = a.totActions;
    ph.spec_actions = a.specActions;
    ph.skipped_actions = a.skippedActions;
    ph.msgs_created = a.msgsCreated;
    ph.action_list_hash = b64(a.actionListHash);
    ph.tot_msg_size = msgSize(a.totMsgSize);
    out.action = ph;
  }
  if (d.bounce) {
    const b = d.bounce;
    if (b.type === 'negfunds') out.bounce = { type: 'negfunds' };
    else if (b.type === 'nofunds') out.bounce = { type: 'nofunds', msg_size: msgSize(b.msgSize), req_fwd_fees: b.reqFwdFees.toString() };
    else out.bounce = { type: 'ok', msg_size: msgSize(b.msgSize), msg_fees: b.msgFees.toString(), fwd_fees: b.fwdFees.toString() };
  }
  if (d.splitInfo) {
    const s = d.splitInfo;
    out.split_info = {
      cur_shard_pfx_len: s.curShardPfxLen,
      acc_split_depth: s.accSplitDepth,
      this_addr: rawAddress(workchain, s.thisAddr),
      sibling_addr: rawAddress(workchain, s.siblingAddr),
    };
  }
  // Built field by field in TON Center's key order; the gateway's tests validate every response against wire.ts.
  return out as WireTransactionDescr;
}
