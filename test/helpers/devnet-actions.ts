import { expect } from 'vitest';
import type { TrafficRecord } from '../../shared/sources/devnet/traffic.js';
import type { Store } from '../../shared/store/store.js';

/**
 * The actions a devnet run's traffic must yield, checked against the traffic generator's own record of what it sent
 * (owners, amounts, jetton masters, NFT items: `exportDevnet({ record })`), never against what the classifier
 * produced. Shared by the action stage's tests on the in-process bus (actions.test.ts) and on Kafka
 * (actions-kafka.test.ts).
 */

export type Details = Record<string, any>;

export interface StoredAction {
  trace_id: string;
  action_id: string;
  type: string;
  success: boolean;
  details: string;
  mc_seqno_start: number;
  mc_seqno_end: number;
  /** `details` parsed. */
  d: Details;
}

/** Raw `wc:HEX` (upper case) of a traffic record's address, as actions print addresses. */
export const raw = (a: { workchain: number; hash: Uint8Array }): string => `${a.workchain}:${Buffer.from(a.hash).toString('hex').toUpperCase()}`;

/** The top-level actions stored (`actions`, no parent), with their trace's masterchain span. */
export async function storedActions(store: Store): Promise<StoredAction[]> {
  const rows = await store.query<Omit<StoredAction, 'd'>>(
    `SELECT a.trace_id AS trace_id, a.action_id AS action_id, toString(a.type) AS type, a.success AS success, a.details AS details,
            t.mc_seqno_start AS mc_seqno_start, t.mc_seqno_end AS mc_seqno_end
     FROM actions AS a FINAL
     INNER JOIN (SELECT trace_id, mc_seqno_start, mc_seqno_end FROM traces FINAL) AS t ON t.trace_id = a.trace_id
     WHERE a.parent_action_id IS NULL`,
  );
  return rows.map((r) => ({ ...r, mc_seqno_start: Number(r.mc_seqno_start), mc_seqno_end: Number(r.mc_seqno_end), d: JSON.parse(r.details) as Details }));
}

function byTrace(actions: readonly StoredAction[]): Map<string, StoredAction[]> {
  const out = new Map<string, StoredAction[]>();
  for (const a of actions) out.set(a.trace_id, [...(out.get(a.trace_id) ?? []), a]);
  return out;
}

/**
 * The masterchain block a transfer was sent in: the traffic generator numbers a tick's query ids from
 * `seqno × 100000` (shared/sources/devnet/traffic.ts).
 */
const sentInMcBlock = (r: { queryId: bigint }): number => Number(r.queryId / 100_000n);

/**
 * A jetton transfer's trace runs over four masterchain blocks at most on the devnet (the wallet's external, the
 * sender's jetton wallet, the receiver's, the notification and excess), so one sent this many blocks before the
 * last has completed and must have been classified.
 */
const JETTON_TRACE_MC_BLOCKS = 4;

/**
 * Each jetton (and stablecoin) transfer sent whose action is stored is exactly one `jetton_transfer` in its trace,
 * successful, with the sender, receiver owner, amount and jetton master the generator used. Answers how many were
 * checked, how many of those spanned three or more masterchain blocks, how many were sent early enough before the
 * run's last masterchain block to have completed ({@link JETTON_TRACE_MC_BLOCKS}), and which of those have no action.
 */
export function checkJettonTransfers(
  records: readonly TrafficRecord[],
  actions: readonly StoredAction[],
  lastMcSeqno: number,
): { sent: number; checked: number; multiBlock: number; due: number; dueUnclassified: string[] } {
  const traces = byTrace(actions);
  const jettons = records.filter((r): r is Extract<TrafficRecord, { kind: 'jetton_transfer' | 'stablecoin_transfer' }> => r.kind === 'jetton_transfer' || r.kind === 'stablecoin_transfer');
  let checked = 0;
  let multiBlock = 0;
  const due = jettons.filter((r) => sentInMcBlock(r) <= lastMcSeqno - JETTON_TRACE_MC_BLOCKS);
  const unclassified = new Set<(typeof jettons)[number]>();
  for (const r of jettons) {
    // The record's query id finds the action; its trace is the whole transfer and it is one action.
    const found = actions.filter((a) => a.type === 'jetton_transfer' && a.d.source === raw(r.from) && a.d.jetton_transfer_data?.query_id === r.queryId.toString());
    if (found.length === 0) {
      unclassified.add(r); // its trace was not complete when the run ended, or it was not recognised
      continue;
    }
    expect(found).toHaveLength(1);
    const a = found[0]!;
    expect(traces.get(a.trace_id)!.filter((x) => x.type === 'jetton_transfer')).toHaveLength(1);
    expect(a.success).toBe(true);
    expect(a.d.destination).toBe(raw(r.to));
    expect(a.d.amount).toBe(r.amount.toString());
    expect(a.d.asset).toBe(raw(r.minter));
    checked++;
    if (a.mc_seqno_end - a.mc_seqno_start >= 2) multiBlock++;
  }
  return { sent: jettons.length, checked, multiBlock, due: due.length, dueUnclassified: due.filter((r) => unclassified.has(r)).map((r) => `${r.kind} ${r.queryId}`) };
}

/** Each bounced TON transfer sent whose action is stored is one failed `ton_transfer` of its value from the sender to the (uninitialised) destination. */
export function checkBouncedTransfers(records: readonly TrafficRecord[], actions: readonly StoredAction[]): { sent: number; checked: number } {
  const bounced = records.filter((r): r is Extract<TrafficRecord, { kind: 'bounced_transfer' }> => r.kind === 'bounced_transfer');
  let checked = 0;
  for (const r of bounced) {
    const found = actions.filter((a) => a.type === 'ton_transfer' && a.d.source === raw(r.from) && a.d.destination === raw(r.to));
    if (found.length === 0) continue;
    expect(found).toHaveLength(1);
    expect(found[0]!.success).toBe(false);
    expect(found[0]!.d.value).toBe(r.value.toString());
    checked++;
  }
  return { sent: bounced.length, checked };
}

/** Each NFT transfer sent whose action is stored is one successful `nft_transfer` of the item from its owner to the new owner. */
export function checkNftTransfers(records: readonly TrafficRecord[], actions: readonly StoredAction[]): { sent: number; checked: number } {
  const nfts = records.filter((r): r is Extract<TrafficRecord, { kind: 'nft_transfer' }> => r.kind === 'nft_transfer');
  let checked = 0;
  for (const r of nfts) {
    const found = actions.filter((a) => a.type === 'nft_transfer' && a.d.asset_secondary === raw(r.item) && a.d.nft_transfer_data?.query_id === r.queryId.toString());
    if (found.length === 0) continue;
    expect(found).toHaveLength(1);
    expect(found[0]!.success).toBe(true);
    expect(found[0]!.d.source).toBe(raw(r.from));
    expect(found[0]!.d.destination).toBe(raw(r.to));
    checked++;
  }
  return { sent: nfts.length, checked };
}
