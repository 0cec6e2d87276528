import { createHash } from 'node:crypto';
import type { Block } from './block.js';
import type { Trace } from './trace.js';

/**
 * An action as TON Center's classifier stores it (the Postgres `actions` row, actions.md "Storage row"): generic
 * columns, plus the composite columns its type writes (`ton_transfer_data`, `jetton_swap_data`, ...), which hold
 * exactly the keys TON Center's filler writes. Integers are bigint; addresses raw upper-case; null when unset.
 */
export interface ActionRow {
  trace_id: string;
  action_id: string;
  type: string;
  tx_hashes: string[];
  start_lt: bigint;
  end_lt: bigint;
  start_utime: number;
  end_utime: number;
  success: boolean;
  opcode: number | null;
  value: bigint | null;
  amount: bigint | null;
  source: string | null;
  source_secondary: string | null;
  destination: string | null;
  destination_secondary: string | null;
  asset: string | null;
  asset_secondary: string | null;
  asset2: string | null;
  asset2_secondary: string | null;
  value_extra_currencies: Record<string, string>;
  parent_action_id: string | null;
  /** Internal types of the ancestors of a child row; null on a top-level row. */
  ancestor_type: string[] | null;
  mc_seqno_end: number | null;
  trace_end_lt: bigint;
  trace_end_utime: number;
  trace_external_hash: string | null;
  trace_external_hash_norm: string | null;
  trace_mc_seqno_end: number | null;
  accounts: string[];
  [composite: string]: unknown;
}

/** base64(sha256(M + internal type)), M = the inbound message hash of the block's earliest node (S.3). */
export function actionId(block: Block): string {
  let root = block.nodes[0]!;
  for (const n of block.nodes) if (n.lt < root.lt) root = n;
  const key = (root.message ? root.message.msg_hash : root.txHash) + block.type;
  return createHash('sha256').update(key, 'utf8').digest('base64');
}

export function baseRow(block: Block, trace: Trace): ActionRow {
  const txHashes = [...new Set(block.nodes.map((n) => n.txHash))];
  let mc: number | null = null;
  for (const n of block.nodes) {
    const s = n.tx.mc_block_seqno;
    if (s !== null && (mc === null || s > mc)) mc = s;
  }
  return {
    trace_id: trace.trace.trace_id,
    action_id: actionId(block),
    type: block.type,
    tx_hashes: txHashes,
    start_lt: block.minLt,
    end_lt: block.maxLt,
    start_utime: block.minUtime,
    end_utime: block.maxUtime,
    success: !block.failed,
    opcode: null,
    value: null,
    amount: null,
    source: null,
    source_secondary: null,
    destination: null,
    destination_secondary: null,
    asset: null,
    asset_secondary: null,
    asset2: null,
    asset2_secondary: null,
    value_extra_currencies: {},
    parent_action_id: null,
    ancestor_type: null,
    mc_seqno_end: mc,
    trace_end_lt: BigInt(trace.trace.end_lt),
    trace_end_utime: trace.trace.end_utime,
    trace_external_hash: trace.trace.external_hash,
    trace_external_hash_norm: trace.trace.external_hash_norm ?? null,
    trace_mc_seqno_end: trace.trace.mc_seqno_end,
    accounts: block.nodes.map((n) => n.tx.account),
  };
}

/** Writes one block type's columns into its row; `extraAccounts` are added to the action's accounts. */
export type Filler = (block: Block, row: ActionRow) => void;

/** JSON form of a row for output: bigint as decimal strings (TON Center sends numeric columns as strings). */
export function rowToJson(row: ActionRow): unknown {
  return JSON.parse(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
}
