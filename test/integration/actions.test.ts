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
import { collect, waitFor } from '../helpers/bus-contract.js';
import { type StoredAction, checkBouncedTransfers, checkJettonTransfers, checkNftTransfers, storedActions } from '../helpers/devnet-actions.js';
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

let actions: StoredAction[] = [];
let byTrace = new Map<string, StoredAction[]>();
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

// The jetton wallets' and NFT items' facts (owner, master, collection) come from their data cells, which a block's
// state update mostly prunes: the action stage rebuilds them from the cell store (services/actions/read.ts).
it('a jetton transfer (its trace over three or more masterchain blocks) is one jetton_transfer with the sent owners, amount and master', () => {
  const { sent, checked, multiBlock, due, dueUnclassified } = checkJettonTransfers(records, actions, lastMcSeqno);
  expect(checked, `jetton transfers classified (of ${sent} sent)`).toBeGreaterThan(0);
  // Every transfer whose trace had the blocks to complete before the run ended is classified.
  expect(due, 'jetton transfers sent early enough to complete').toBeGreaterThan(0);
  expect(dueUnclassified, 'jetton transfers sent early enough to complete, not classified').toEqual([]);
  expect(multiBlock, 'jetton transfers whose trace spans three or more masterchain blocks').toBeGreaterThan(0);
});

it('a bounced TON transfer is one failed ton_transfer from the sender to the destination', () => {
  const { sent, checked } = checkBouncedTransfers(records, actions);
  expect(checked, `bounced transfers classified (of ${sent} sent)`).toBeGreaterThan(0);
});

it('an NFT transfer is one nft_transfer of the item from its owner to the new owner', () => {
  const { sent, checked } = checkNftTransfers(records, actions);
  expect(checked, `NFT transfers classified (of ${sent} sent)`).toBeGreaterThan(0);
});
