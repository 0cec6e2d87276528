import type { Block } from './block.js';
import { type ActionRow, type Filler, baseRow } from './row.js';
import type { Trace } from './trace.js';

/**
 * Blocks → rows (TON Center `serialize_blocks` / `block_to_action`): one row per remaining top-level block; child
 * rows only under parents whose internal type is not a v1 type (S.3).
 */
export const V1_INTERNAL_TYPES = new Set([
  'call_contract', 'contract_deploy', 'jetton_burn', 'tick_tock', 'jetton_transfer', 'nft_transfer', 'nft_mint',
  'jetton_mint', 'ton_transfer', 'stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request',
  'dex_deposit_liquidity', 'jetton_swap', 'change_dns', 'delete_dns', 'renew_dns', 'subscribe',
  'dex_withdraw_liquidity', 'unsubscribe', 'election_deposit', 'election_recover', 'auction_bid',
  'nominator_pool_deposit', 'nominator_pool_withdraw_request', 'dedust_deposit_liquidity',
  'dedust_deposit_liquidity_partial', 'tonstakers_deposit', 'tonstakers_withdraw_request', 'tonstakers_withdraw',
  'ethena_withdrawal_request', 'ethena_deposit', 'tonco_deposit_liquidity', 'tonco_withdraw_liquidity',
  'coffee_deposit_liquidity',
]);

/** Per-type extra accounts (S.3 accounts: the NFT of marketplace actions, the signers of multisig actions). */
export interface Serializer {
  fillers: Map<string, Filler>;
}

export function blockToRow(block: Block, trace: Trace, s: Serializer): ActionRow {
  const row = baseRow(block, trace);
  const fill = s.fillers.get(block.type);
  if (fill) fill(block, row);
  const acc = row.accounts;
  acc.push(row.source as string, row.source_secondary as string);
  if (!block.ghost) acc.push(row.destination as string, row.destination_secondary as string);
  const extra = row.__accounts as string[] | undefined;
  if (extra) acc.push(...extra);
  delete row.__accounts;
  const hashes = new Set(row.tx_hashes);
  if (block.initiatingNode) {
    hashes.add(block.initiatingNode.txHash);
    if (!block.initiatingNode.isTickTock) acc.push(block.initiatingNode.tx.account);
  }
  row.tx_hashes = [...hashes];
  row.accounts = [...new Set(acc.filter((a) => a !== null && a !== undefined))];
  return row;
}

export function serializeBlocks(blocks: Block[], trace: Trace, s: Serializer, parentId: string | null = null): ActionRow[] {
  const rows: ActionRow[] = [];
  const ids = new Set<string>();
  for (const b of blocks) {
    if (b.type === 'root' || b.type === 'empty') continue;
    if (b.type === 'call_contract' && (b.message.destination === null || b.message.source === null)) continue;
    const row = blockToRow(b, trace, s);
    if (parentId !== null && row.action_id === parentId) continue;
    row.parent_action_id = parentId;
    ids.add(row.action_id);
    rows.push(row);
    if (!V1_INTERNAL_TYPES.has(b.type)) {
      for (const child of serializeBlocks(b.children, trace, s, row.action_id)) {
        if (child.type === 'contract_deploy') continue;
        child.ancestor_type = [...new Set([...(child.ancestor_type ?? []), b.type])];
        if (ids.has(child.action_id)) throw new Error(`duplicate action id ${child.action_id}`);
        ids.add(child.action_id);
        rows.push(child);
      }
    }
  }
  return rows;
}

/** The one `unknown` row of a trace nothing classified (S.3 fallback). */
export function unknownRow(trace: Trace): ActionRow {
  const t = trace.trace;
  return {
    trace_id: t.trace_id,
    action_id: t.trace_id,
    type: 'unknown',
    tx_hashes: trace.transactions.map((x) => x.hash),
    start_lt: BigInt(t.start_lt),
    end_lt: BigInt(t.end_lt),
    start_utime: t.start_utime,
    end_utime: t.end_utime,
    success: !trace.transactions.some((x) => x.aborted),
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
    mc_seqno_end: t.mc_seqno_end,
    trace_end_lt: BigInt(t.end_lt),
    trace_end_utime: t.end_utime,
    trace_external_hash: t.external_hash,
    trace_external_hash_norm: null,
    trace_mc_seqno_end: t.mc_seqno_end,
    accounts: [...new Set(trace.transactions.map((x) => x.account))],
  };
}
