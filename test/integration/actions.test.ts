import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TraceActionsJson } from '../../shared/contracts/actions.js';
import { decodeTraceActions } from '../../shared/contracts/actions.js';
import { decodeTrace } from '../../shared/contracts/trace.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { exportDevnet } from '../../shared/sources/devnet/export.js';
import type { TrafficRecord } from '../../shared/sources/devnet/traffic.js';
import type { Store } from '../../shared/store/store.js';
import { collect, waitFor } from '../helpers/bus-contract.js';
import { openEmbedded } from '../helpers/pipeline.js';

/*
 * The action stage on real components: a devnet run on the real TVM → follower → in-process bus → decode, trace and
 * action stages → chdb, composed by `startPipeline` as `tonflow start` composes them (test/helpers/pipeline.ts). The actions stored are checked against what the
 * devnet's traffic generator says it sent (its record: owners, amounts, jetton masters, NFT items), not against
 * anything the classifier produced.
 */

let work = '';
let devnetDir = '';
const records: TrafficRecord[] = [];
let lastMcSeqno = 0;

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'tonflow-actions-'));
  devnetDir = path.join(work, 'devnet');
  ({ lastMcSeqno } = await exportDevnet({ out: devnetDir, transactions: 600, tps: 150, seed: 'tonflow-actions-test', genesisUtime: 1_760_000_000, record: (r) => records.push(r) }));
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const raw = (a: { workchain: number; hash: Uint8Array }): string => `${a.workchain}:${Buffer.from(a.hash).toString('hex').toUpperCase()}`;

interface StoredAction {
  trace_id: string;
  action_id: string;
  type: string;
  success: boolean;
  details: string;
  mc_seqno_start: number;
  mc_seqno_end: number;
}

type Details = Record<string, any>;

async function storedActions(store: Store): Promise<Array<StoredAction & { d: Details }>> {
  const rows = await store.query<StoredAction>(
    `SELECT a.trace_id AS trace_id, a.action_id AS action_id, toString(a.type) AS type, a.success AS success, a.details AS details,
            t.mc_seqno_start AS mc_seqno_start, t.mc_seqno_end AS mc_seqno_end
     FROM actions AS a FINAL
     INNER JOIN (SELECT trace_id, mc_seqno_start, mc_seqno_end FROM traces FINAL) AS t ON t.trace_id = a.trace_id
     WHERE a.parent_action_id IS NULL`,
  );
  return rows.map((r) => ({ ...r, d: JSON.parse(r.details) as Details }));
}

let actions: Array<StoredAction & { d: Details }> = [];
let byTrace = new Map<string, Array<StoredAction & { d: Details }>>();
let published: TraceActionsJson[] = [];
let tracesPublished = new Set<string>();

beforeAll(async () => {
  const logger = createLogger({ service: 'actions-test', level: 'warn' });
  const p = await openEmbedded({ dir: devnetDir, dataDir: path.join(work, `data-${randomBytes(3).toString('hex')}`), name: 'actions', logger });
  try {
    const { store } = p;
    const tracesOut = collect(p.bus, { groupId: 'reader-traces', topics: [p.topics.traces] });
    const actionsOut = collect(p.bus, { groupId: 'reader-actions', topics: [p.topics.actions] });
    const run = await p.start({ traces: true, actions: true });
    await waitFor(() => run.traced >= lastMcSeqno || run.poison.length > 0, 180_000, 'traces of the last masterchain block stored');
    const [complete] = await store.query<{ n: string }>("SELECT count() AS n FROM traces FINAL WHERE state = 'complete'");
    const completeTraces = Number(complete?.n ?? 0);
    expect(completeTraces).toBeGreaterThan(0);
    await waitFor(() => tracesOut.received.length >= completeTraces, 120_000, 'complete traces published');
    // Every published trace gets its actions published, once each trace's rows are stored.
    await waitFor(() => actionsOut.received.length >= completeTraces || run.poison.length > 0, 120_000, 'actions of every trace published');
    expect(run.poison, 'messages dead-lettered').toEqual([]);
    await run.stop();
    await tracesOut.consumer.stop();
    await actionsOut.consumer.stop();

    tracesPublished = new Set(tracesOut.received.map((m) => decodeTrace(m).trace_id));
    published = actionsOut.received.map((m) => decodeTraceActions(m));
    actions = await storedActions(store);
    byTrace = new Map();
    for (const a of actions) byTrace.set(a.trace_id, [...(byTrace.get(a.trace_id) ?? []), a]);
  } finally {
    await p.close();
  }
}, 600_000);

it('classifies every published trace: its actions stored and published once, the same ids in both', () => {
  expect(tracesPublished.size).toBeGreaterThan(50);
  expect(published.map((p) => p.trace_id).sort()).toEqual([...tracesPublished].sort());
  for (const p of published) {
    expect(new Set((byTrace.get(p.trace_id) ?? []).map((a) => a.action_id))).toEqual(new Set(p.actions.filter((a) => a['parent_action_id'] === null).map((a) => a.action_id)));
  }
});

// Known failing: jetton wallet and NFT item facts (owner, master, collection) come from the accounts' data cells,
// which block files do not carry (latest_account_states.data_boc is null for a files/devnet source: only the shard
// state has it), so these traces classify as call_contract. it.fails turns red once that is fixed.
it.fails('a jetton transfer (its trace over three or more masterchain blocks) is one jetton_transfer with the sent owners, amount and master', () => {

    // Jetton transfers: the record's query id finds the action; its trace is the whole transfer and it is one action.
    const jettons = records.filter((r): r is Extract<TrafficRecord, { kind: 'jetton_transfer' | 'stablecoin_transfer' }> => r.kind === 'jetton_transfer' || r.kind === 'stablecoin_transfer');
    let jettonChecked = 0;
    let multiBlock = 0;
    for (const r of jettons) {
      const found = actions.filter((a) => a.type === 'jetton_transfer' && a.d.source === raw(r.from) && a.d.jetton_transfer_data?.query_id === r.queryId.toString());
      if (found.length === 0) continue; // its trace was not complete when the run ended
      expect(found).toHaveLength(1);
      const a = found[0]!;
      expect(byTrace.get(a.trace_id)!.filter((x) => x.type === 'jetton_transfer')).toHaveLength(1);
      expect(a.success).toBe(true);
      expect(a.d.destination).toBe(raw(r.to));
      expect(a.d.amount).toBe(r.amount.toString());
      expect(a.d.asset).toBe(raw(r.minter));
      jettonChecked++;
      if (a.mc_seqno_end - a.mc_seqno_start >= 2) multiBlock++;
    }
    expect(jettonChecked, `jetton transfers classified (of ${jettons.length} sent)`).toBeGreaterThan(jettons.length / 2);
    expect(multiBlock, 'jetton transfers whose trace spans three or more masterchain blocks').toBeGreaterThan(0);
});

it('a bounced TON transfer is one failed ton_transfer from the sender to the destination', () => {

    // Bounced TON transfers: one failed ton_transfer from the sender to the (uninitialised) destination.
    const bounced = records.filter((r): r is Extract<TrafficRecord, { kind: 'bounced_transfer' }> => r.kind === 'bounced_transfer');
    let bouncedChecked = 0;
    for (const r of bounced) {
      const found = actions.filter((a) => a.type === 'ton_transfer' && a.d.source === raw(r.from) && a.d.destination === raw(r.to));
      if (found.length === 0) continue;
      expect(found).toHaveLength(1);
      expect(found[0]!.success).toBe(false);
      expect(found[0]!.d.value).toBe(r.value.toString());
      bouncedChecked++;
    }
    expect(bouncedChecked, `bounced transfers classified (of ${bounced.length} sent)`).toBeGreaterThan(0);
});

it.fails('an NFT transfer is one nft_transfer of the item from its owner to the new owner', () => {

    // NFT transfers: one nft_transfer of the item from its owner to the new owner.
    const nfts = records.filter((r): r is Extract<TrafficRecord, { kind: 'nft_transfer' }> => r.kind === 'nft_transfer');
    let nftChecked = 0;
    for (const r of nfts) {
      const found = actions.filter((a) => a.type === 'nft_transfer' && a.d.asset_secondary === raw(r.item) && a.d.nft_transfer_data?.query_id === r.queryId.toString());
      if (found.length === 0) continue;
      expect(found).toHaveLength(1);
      expect(found[0]!.success).toBe(true);
      expect(found[0]!.d.source).toBe(raw(r.from));
      expect(found[0]!.d.destination).toBe(raw(r.to));
      nftChecked++;
    }
    expect(nftChecked, `NFT transfers classified (of ${nfts.length} sent)`).toBeGreaterThan(0);
});
