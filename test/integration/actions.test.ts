import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../services/gateway/app.js';
import type { TraceActionsJson } from '../../shared/contracts/actions.js';
import { decodeTraceActions } from '../../shared/contracts/actions.js';
import { decodeTrace } from '../../shared/contracts/trace.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import { exportDevnet } from '../../shared/sources/devnet/export.js';
import type { TrafficRecord } from '../../shared/sources/devnet/traffic.js';
import type { Store } from '../../shared/store/store.js';
import { collect, waitFor } from '../helpers/bus-contract.js';
import { type StoredAction, checkBouncedTransfers, checkJettonTransfers, checkNftTransfers, raw, storedActions } from '../helpers/devnet-actions.js';
import { fixturesDir } from '../helpers/fixtures.js';
import { get, silentLogger } from '../helpers/gateway.js';
import { openEmbedded } from '../helpers/pipeline.js';

/*
 * The action stage on real components: a devnet run on the real TVM → follower → in-process bus → decode, trace and
 * action stages → chdb, composed by `startPipeline` as `tonflow start` composes them (test/helpers/pipeline.ts). The actions stored are checked against what the
 * devnet's traffic generator says it sent (its record: owners, amounts, jetton masters, NFT items), not against
 * anything the classifier produced. Then the gateway on that store: /api/v3/actions and /api/v3/traces over the stored
 * traces, actions and transactions, against the same record, the store's trace rows and TON Center's recorded wire
 * (fixtures/api-responses).
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

let store: Store | undefined;
let app: FastifyInstance | undefined;
const api = (url: string) => get(app!, url);
const enc = encodeURIComponent;

afterAll(async () => {
  await app?.close();
  if (store) {
    await store.command(`DROP DATABASE IF EXISTS \`${store.database}\``).catch(() => {});
    await store.close();
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

let actions: StoredAction[] = [];
let byTrace = new Map<string, StoredAction[]>();
let published: TraceActionsJson[] = [];
let tracesPublished = new Set<string>();

beforeAll(async () => {
  const logger = createLogger({ service: 'actions-test', level: 'warn' });
  const p = await openEmbedded({ dir: devnetDir, dataDir: path.join(work, `data-${randomBytes(3).toString('hex')}`), name: 'actions', logger });
  let ok = false;
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
    ok = true;
  } finally {
    // The store stays open for the gateway (afterAll drops it), unless the run failed.
    await p.close({ keepStore: ok });
  }
  store = p.store;
  app = await buildApp({
    store,
    logger: silentLogger(),
    metrics: createMetrics({ service: 'gateway', processMetrics: false }),
    config: { apiKeys: [], rpsWithoutKey: 0, testnet: false, validateResponses: true, responseCacheEntries: 0, pointReads: false },
  });
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

/** A transaction of TON Center's recorded /api/v3/traces answer (testnet; raw control characters parsed leniently). */
function recordedTransaction(): Record<string, unknown> {
  const text = readFileSync(path.join(fixturesDir, 'api-responses/toncenter_v3_testnet_traces_axelar.json'), 'utf8');
  const body = JSON.parse(text.replace(/[\u0000-\u001f]/g, ' ')) as { traces: Array<{ transactions: Record<string, Record<string, unknown>> }> };
  // Trace 0 has placeholder ids (MANIFEST.md); trace 1 is a real 3-transaction trace.
  return Object.values(body.traces[1]!.transactions)[0]!;
}

/** The transactions of a trace as the trace stage stored them (trace_transactions), by hash. */
async function traceTxHashes(traceId: string): Promise<string[]> {
  const rows = await store!.query<{ tx_hash: string }>('SELECT DISTINCT tx_hash FROM trace_transactions WHERE trace_id = {id:String}', { id: traceId });
  return rows.map((r) => r.tx_hash).sort();
}

it('/api/v3/actions include_transactions: each action\'s transactions in transactions_full, in TON Center\'s transaction wire', async () => {
  // The jetton transfers the traffic record names (sender, query id), classified above.
  const sent = records.filter((r): r is Extract<TrafficRecord, { kind: 'jetton_transfer' | 'stablecoin_transfer' }> => r.kind === 'jetton_transfer' || r.kind === 'stablecoin_transfer');
  const transfers = actions.filter((a) => a.type === 'jetton_transfer' && sent.some((r) => a.d.source === raw(r.from) && a.d.jetton_transfer_data?.query_id === r.queryId.toString()));
  expect(transfers.length).toBeGreaterThan(0);
  const recorded = recordedTransaction();
  let checked = 0;
  for (const stored of transfers.slice(0, 5)) {
    const r = await api(`/api/v3/actions?trace_id=${enc(stored.trace_id)}&include_transactions=true&limit=1000`);
    expect(r.status).toBe(200);
    const a = r.body.actions.find((x: { action_id: string }) => x.action_id === stored.action_id);
    expect(a.type).toBe('jetton_transfer');
    // Every transaction the action names, in its order, each a transaction of its trace (the trace stage's rows).
    const inTrace = await traceTxHashes(stored.trace_id);
    expect(a.transactions.length).toBeGreaterThanOrEqual(2);
    for (const h of a.transactions) expect(inTrace).toContain(h);
    expect(a.transactions_full.map((t: { hash: string }) => t.hash)).toEqual(a.transactions);
    // The sender's wallet sent the transfer: its transaction is among them.
    expect(a.transactions_full.map((t: { account: string }) => t.account)).toContain(a.details.sender);
    for (const tx of a.transactions_full) {
      // TON Center's Transaction, field for field (ton-index-go's ends with `emulated`, `finality`: the recording
      // predates `finality`), as /api/v3/transactions prints the same transaction.
      expect(Object.keys(tx)).toEqual([...Object.keys(recorded), 'finality']);
      expect(tx.trace_id).toBe(stored.trace_id);
      const same = await api(`/api/v3/transactions?hash=${enc(tx.hash)}`);
      expect(same.body.transactions).toEqual([tx]);
      checked++;
    }
    // Without the flag: no transactions_full key (omitted, as TON Center does).
    const plain = await api(`/api/v3/actions?trace_id=${enc(stored.trace_id)}&limit=1000`);
    for (const x of plain.body.actions) expect('transactions_full' in x).toBe(false);
    expect(plain.body.actions.map((x: { action_id: string }) => x.action_id)).toEqual(r.body.actions.map((x: { action_id: string }) => x.action_id));
  }
  expect(checked).toBeGreaterThan(0);
});

it('/api/v3/traces and /api/v3/events: every stored transaction of the trace, its actions, classification_state unclassified', async () => {
  const withActions = [...byTrace.keys()].slice(0, 5);
  expect(withActions.length).toBeGreaterThan(0);
  for (const id of withActions) {
    const inTrace = await traceTxHashes(id);
    // include_transactions is no parameter of TON Center's /traces (it always carries them): ignored, as there.
    for (const url of [`/api/v3/traces?trace_id=${enc(id)}&include_actions=true`, `/api/v3/traces?trace_id=${enc(id)}&include_actions=true&include_transactions=false`, `/api/v3/events?trace_id=${enc(id)}`]) {
      const r = await api(url);
      expect(r.status, url).toBe(200);
      const t = (r.body.traces ?? r.body.events)[0];
      expect(Object.keys(t.transactions).sort(), url).toEqual(inTrace);
      expect([...t.transactions_order].sort()).toEqual(inTrace);
      for (const tx of Object.values<{ hash: string; trace_id: string }>(t.transactions)) expect(tx.trace_id).toBe(id);
      // TON Center's stored traces keep `unclassified` (indexing-semantics.md 1.2; its recorded answers).
      expect(t.trace_info.classification_state).toBe('unclassified');
      // The trace's top-level actions as the action stage stored them.
      const top = new Set(byTrace.get(id)!.map((a) => a.action_id));
      const shown = new Set(t.actions.filter((a: { action_id: string }) => top.has(a.action_id)).map((a: { action_id: string }) => a.action_id));
      expect(shown).toEqual(new Set((await api(`/api/v3/actions?trace_id=${enc(id)}&limit=1000`)).body.actions.filter((a: { action_id: string }) => top.has(a.action_id)).map((a: { action_id: string }) => a.action_id)));
      expect(shown.size).toBeGreaterThan(0);
    }
  }
});
