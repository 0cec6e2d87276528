import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../services/gateway/app.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import { exportDevnet } from '../../shared/sources/devnet/export.js';
import type { Store } from '../../shared/store/store.js';
import { waitFor } from '../helpers/bus-contract.js';
import { describeFixtures, fixturesDir, repoRoot } from '../helpers/fixtures.js';
import { get, silentLogger } from '../helpers/gateway.js';
import { openEmbedded } from '../helpers/pipeline.js';
import { type ExpectedTraces, expectedTraces } from '../helpers/traces.js';

/*
 * /api/v3/traces and the transactions' trace_id on real components: a devnet run on the real TVM (traces across
 * blocks and shards) and the real fixture blocks, each through follower → in-process bus → decode stage and trace
 * stage → chdb as `tonflow start` composes them (test/helpers/pipeline.ts), then the gateway on that store. Values are checked against the
 * traces a graph walk over the decoded blocks finds (test/helpers/traces.ts) and the transactions' own hashes and
 * lts; shapes against TON Center's recorded /api/v3/traces answer (fixtures/api-responses, testnet).
 */

let work = '';
let store: Store;
let app: FastifyInstance;
let want: ExpectedTraces;
const api = (url: string) => get(app, url);

/** Runs the pipeline over `dir` into a store of its own until the trace stage has stored every masterchain block. */
async function runPipeline(dir: string, expected: ExpectedTraces): Promise<Store> {
  const p = await openEmbedded({ dir, dataDir: path.join(work, 'data'), name: 'gw_traces', logger: silentLogger() });
  let ok = false;
  try {
    const run = await p.start({ traces: true, actions: false });
    const last = Math.max(...expected.mcSeqnos);
    await waitFor(() => run.traced >= last || run.poison.length > 0, 180_000, `traces of masterchain block ${last} stored`);
    expect(run.poison).toEqual([]);
    await run.stop();
    ok = true;
  } finally {
    // The store stays open for the gateway (afterAll drops it), unless the run failed.
    await p.close({ keepStore: ok });
  }
  return p.store;
}

function gateway(s: Store, pointReads = false): Promise<FastifyInstance> {
  return buildApp({
    store: s,
    logger: silentLogger(),
    metrics: createMetrics({ service: 'gateway', processMetrics: false }),
    config: { apiKeys: [], rpsWithoutKey: 0, testnet: false, validateResponses: true, responseCacheEntries: 0, pointReads },
  });
}

/** TON Center's recorded answer (raw control characters inside strings: parsed leniently). */
function recordedTrace(): Record<string, unknown> {
  const text = readFileSync(path.join(fixturesDir, 'api-responses/toncenter_v3_testnet_traces_axelar.json'), 'utf8');
   
  const body = JSON.parse(text.replace(/[\u0000-\u001f]/g, ' ')) as { traces: Array<Record<string, unknown>> };
  // Trace 0 has placeholder ids (MANIFEST.md); trace 1 is a real 3-transaction trace.
  return body.traces[1]!;
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

describeFixtures('gateway /api/v3/traces over the trace stage (devnet on the real TVM, chdb)', () => {
  beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'tonflow-gw-traces-'));
    const dir = path.join(work, 'devnet');
    await exportDevnet({ out: dir, transactions: 200, tps: 150, seed: 'tonflow-gateway-traces', genesisUtime: 1_760_000_000 });
    want = await expectedTraces(dir);
    store = await runPipeline(dir, want);
    app = await gateway(store);
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    if (store) {
      await store.command(`DROP DATABASE IF EXISTS \`${store.database}\``).catch(() => {});
      await store.close();
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Multi-transaction complete traces, the widest first. */
  const complete = () =>
    [...want.traces.values()].filter((t) => t.state === 'complete' && t.txs.length >= 3).sort((a, b) => b.txs.length - a.txs.length);

  it('transactions carry the trace_id a graph walk over the blocks finds, on every transactions endpoint', async () => {
    const t = complete()[0]!;
    for (const h of t.txs) {
      const r = await api(`/api/v3/transactions?hash=${encodeURIComponent(h)}`);
      expect(r.status).toBe(200);
      expect(r.body.transactions).toHaveLength(1);
      expect(r.body.transactions[0].hash).toBe(h);
      expect(r.body.transactions[0].trace_id).toBe(want.traceOf.get(h));
      // The wire position: right after mc_block_seqno, as TON Center prints it.
      const keys = Object.keys(r.body.transactions[0]);
      expect(keys.indexOf('trace_id')).toBe(keys.indexOf('mc_block_seqno') + 1);
    }
    const mc = Math.max(...want.mcSeqnos.filter((s) => [...want.traces.values()].some((x) => x.mcSeqnoEnd === s && x.txs.length > 1)));
    const block = await api(`/api/v3/transactionsByMasterchainBlock?seqno=${mc}&limit=1000`);
    expect(block.status).toBe(200);
    expect(block.body.transactions.length).toBeGreaterThan(0);
    for (const tx of block.body.transactions) expect(tx.trace_id, tx.hash).toBe(want.traceOf.get(tx.hash));
    const child = t.txs.find((h) => h !== t.traceId)!;
    const adjacent = await api(`/api/v3/adjacentTransactions?hash=${encodeURIComponent(child)}&direction=in`);
    expect(adjacent.status).toBe(200);
    for (const tx of adjacent.body.transactions) expect(tx.trace_id).toBe(t.traceId);
    const byMsg = await api(`/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(adjacent.body.transactions[0].out_msgs[0].hash)}`);
    expect(byMsg.status).toBe(200);
    for (const tx of byMsg.body.transactions) expect(tx.trace_id).toBe(t.traceId);
    // Records read from the point tables (transaction_documents) get it too.
    const points = await gateway(store, true);
    try {
      for (const h of t.txs) {
        const r = await get(points, `/api/v3/transactions?hash=${encodeURIComponent(h)}`);
        expect(r.body.transactions[0].trace_id).toBe(want.traceOf.get(h));
      }
      const b = await get(points, `/api/v3/transactionsByMasterchainBlock?seqno=${mc}&limit=1000`);
      for (const tx of b.body.transactions) expect(tx.trace_id, tx.hash).toBe(want.traceOf.get(tx.hash));
    } finally {
      await points.close();
    }
  });

  it('traces by trace_id: TON Center\'s fields, types and order; values from the blocks', async () => {
    const recorded = recordedTrace();
    for (const t of complete().slice(2, 6)) {
      const r = await api(`/api/v3/traces?trace_id=${encodeURIComponent(t.traceId)}`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['traces', 'address_book', 'metadata']);
      expect(r.body.traces).toHaveLength(1);
      const got = r.body.traces[0];
      expect(Object.keys(got)).toEqual(Object.keys(recorded));
      for (const k of Object.keys(recorded)) expect(typeOf(got[k]), k).toBe(typeOf(recorded[k]));
      expect(Object.keys(got.trace_info)).toEqual(Object.keys(recorded.trace_info as object));
      expect(Object.keys(got.trace)).toEqual(Object.keys(recorded.trace as object));
      expect({
        trace_id: got.trace_id,
        external_hash: got.external_hash,
        mc_seqno_start: got.mc_seqno_start,
        mc_seqno_end: got.mc_seqno_end,
        start_lt: got.start_lt,
        end_lt: got.end_lt,
        trace_info: got.trace_info,
      }).toEqual({
        trace_id: t.traceId,
        external_hash: t.externalHash,
        mc_seqno_start: String(t.mcSeqnoStart),
        mc_seqno_end: String(t.mcSeqnoEnd),
        start_lt: t.startLt,
        end_lt: t.endLt,
        trace_info: { trace_state: 'complete', messages: t.messages, transactions: t.txs.length, pending_messages: 0, classification_state: 'unclassified' },
      });
      // Every transaction, keyed by its own hash, in lt order; the tree holds each once, each under its sender.
      expect(Object.keys(got.transactions).sort()).toEqual([...t.txs].sort());
      for (const [h, tx] of Object.entries<any>(got.transactions)) expect(tx.hash).toBe(h);
      expect([...got.transactions_order].sort()).toEqual([...t.txs].sort());
      const lts = got.transactions_order.map((h: string) => BigInt(got.transactions[h].lt));
      for (let i = 1; i < lts.length; i++) expect(lts[i] >= lts[i - 1]).toBe(true);
      expect(got.transactions_order[0]).toBe(t.traceId);
      expect(got.start_utime).toBe(got.transactions[t.traceId].now);
      expect(got.trace.tx_hash).toBe(t.traceId);
      expect(got.trace.in_msg_hash).toBe(t.externalHash);
      const seen: string[] = [];
      const walk = (node: any): void => {
        seen.push(node.tx_hash);
        const tx = got.transactions[node.tx_hash];
        expect(node.in_msg_hash).toBe(tx.in_msg?.hash ?? null);
        for (const c of node.children) {
          expect(tx.out_msgs.map((m: any) => m.hash)).toContain(c.in_msg_hash);
          walk(c);
        }
      };
      walk(got.trace);
      expect(seen.sort()).toEqual([...t.txs].sort());
      expect('actions' in got).toBe(false);
      for (const tx of Object.values<any>(got.transactions)) {
        expect(r.body.address_book[tx.account]).toBeDefined();
        expect(tx.trace_id).toBe(t.traceId);
      }
    }
  });

  it('traces by tx_hash, msg_hash and account find the trace that holds them', async () => {
    const t = complete()[0]!;
    const last = t.txs[t.txs.length - 1]!;
    const byTx = await api(`/api/v3/traces?tx_hash=${encodeURIComponent(last)}`);
    expect(byTx.status).toBe(200);
    expect(byTx.body.traces.map((x: any) => x.trace_id)).toEqual([t.traceId]);
    const tx = byTx.body.traces[0].transactions[last];
    // An internal message between two of its transactions, and the external message that started it.
    for (const h of [tx.in_msg.hash, t.externalHash!]) {
      const r = await api(`/api/v3/traces?msg_hash=${encodeURIComponent(h)}`);
      expect(r.status).toBe(200);
      expect(r.body.traces.map((x: any) => x.trace_id)).toEqual([t.traceId]);
    }
    const byAccount = await api(`/api/v3/traces?account=${encodeURIComponent(tx.account)}&limit=1000`);
    expect(byAccount.status).toBe(200);
    const accountTraces = new Set([...want.traceOf].filter(([h]) => want.traces.get(want.traceOf.get(h)!) && accountOf.get(h) === tx.account).map(([, id]) => id));
    expect(byAccount.body.traces.map((x: any) => x.trace_id)).toContain(t.traceId);
    if (accountTraces.size > 0) expect(new Set(byAccount.body.traces.map((x: any) => x.trace_id))).toEqual(accountTraces);
    const endLts = byAccount.body.traces.map((x: any) => BigInt(x.end_lt));
    for (let i = 1; i < endLts.length; i++) expect(endLts[i] <= endLts[i - 1]).toBe(true);
  });

  const accountOf = new Map<string, string>();

  it('lists traces in TON Center\'s order with limit, offset, sort and lt / mc_seqno windows', async () => {
    const all = [...want.traces.values()];
    const desc = await api('/api/v3/traces?limit=1000');
    expect(desc.status).toBe(200);
    expect(desc.body.traces).toHaveLength(Math.min(all.length, 1000));
    const order = (x: any, y: any) => (BigInt(x.end_lt) === BigInt(y.end_lt) ? (x.trace_id < y.trace_id ? -1 : 1) : BigInt(x.end_lt) < BigInt(y.end_lt) ? -1 : 1);
    const ids = desc.body.traces.map((x: any) => x.trace_id);
    expect(ids).toEqual([...desc.body.traces].sort((x, y) => order(y, x)).map((x: any) => x.trace_id));
    const asc = await api('/api/v3/traces?limit=3&offset=2&sort=asc');
    expect(asc.body.traces.map((x: any) => x.trace_id)).toEqual([...ids].reverse().slice(2, 5));
    const t = complete()[0]!;
    const window = await api(`/api/v3/traces?start_lt=${t.endLt}&end_lt=${t.endLt}&limit=1000`);
    expect(window.body.traces.map((x: any) => x.trace_id)).toContain(t.traceId);
    for (const x of window.body.traces) expect(x.end_lt).toBe(t.endLt);
    const mc = await api(`/api/v3/traces?mc_seqno=${t.mcSeqnoEnd}&limit=1000`);
    expect(mc.status).toBe(200);
    const wantMc = all.filter((x) => x.state === 'complete' && x.mcSeqnoEnd === t.mcSeqnoEnd).map((x) => x.traceId).sort();
    expect(mc.body.traces.map((x: any) => x.trace_id).sort()).toEqual(wantMc);
    expect((await api('/api/v3/traces?mc_seqno=999999999')).body).toEqual({ error: 'masterchain block 999999999 not found' });
  });

  it('events: the alias with actions; refuses two filters; bad parameters are 4xx', async () => {
    const t = complete()[0]!;
    const ev = await api(`/api/v3/events?trace_id=${encodeURIComponent(t.traceId)}`);
    expect(ev.status).toBe(200);
    expect(Object.keys(ev.body)).toEqual(['events', 'address_book', 'metadata']);
    expect(ev.body.events[0].actions).toEqual([]);
    const withActions = await api(`/api/v3/traces?trace_id=${encodeURIComponent(t.traceId)}&include_actions=true`);
    expect(withActions.body.traces[0].actions).toEqual([]);
    const two = await api(`/api/v3/traces?trace_id=${encodeURIComponent(t.traceId)}&tx_hash=${encodeURIComponent(t.traceId)}`);
    expect(two.status).toBe(422);
    expect(two.body).toEqual({ error: 'only one of account, trace_id, tx_hash, msg_hash should be specified' });
    expect((await api('/api/v3/traces?limit=1001')).status).toBe(500);
    expect((await api('/api/v3/traces?sort=up')).body).toEqual({ error: 'wrong value for sort parameter' });
    expect((await api('/api/v3/traces?start_lt=x')).status).toBe(422);
    expect((await api('/api/v3/traces?trace_id=notahash')).status).toBe(422);
  });

  it('documents every parameter the published spec lists for /api/v3/traces and /api/v3/events', async () => {
    const spec = parseYaml(readFileSync(path.join(repoRoot, '..', 'shared', 'reference', 'toncenter-api-v3.openapi.yaml'), 'utf8'));
    const ours = (await api('/api/v3/doc.json')).body;
    // The published spec has no /api/v3/events (a deprecated alias): it takes the parameters of /api/v3/traces.
    for (const url of ['/api/v3/traces', '/api/v3/events']) {
      const published = (spec.paths['/api/v3/traces'].get.parameters as Array<{ name: string; in: string }>).filter((x) => x.in === 'query').map((x) => x.name);
      expect(published.length).toBeGreaterThan(5);
      const documented = (ours.paths[url].get.parameters as Array<{ name: string }>).map((x) => x.name);
      for (const name of published) expect(documented, `${url} ${name}`).toContain(name);
    }
  });

  // Last: it removes a transaction's trace.
  it('a transaction the trace stage has not assigned has no trace_id (omitted, as TON Center does)', async () => {
    const [a, b] = complete()[1]!.txs;
    await store.command(`ALTER TABLE trace_transactions DELETE WHERE tx_hash = {h:String} SETTINGS mutations_sync = 2`, { h: b! });
    const fresh = await gateway(store);
    try {
      const r = await get(fresh, `/api/v3/transactions?hash=${encodeURIComponent(b!)}`);
      expect(r.status).toBe(200);
      expect(r.body.transactions[0].hash).toBe(b);
      expect('trace_id' in r.body.transactions[0]).toBe(false);
      const other = await get(fresh, `/api/v3/transactions?hash=${encodeURIComponent(a!)}`);
      expect(other.body.transactions[0].trace_id).toBe(want.traceOf.get(a!));
    } finally {
      await fresh.close();
    }
  });

  beforeAll(async () => {
    const rows = await store.query<{ hash: string; account: string }>('SELECT hash, account FROM transactions');
    for (const r of rows) accountOf.set(r.hash, r.account);
  });
});
