import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { IncomingMessage } from '../../shared/bus/bus.js';
import { type TraceActionsJson, decodeTraceActions } from '../../shared/contracts/actions.js';
import { type CarriedRows, type TraceJson, TRACE_ROWS_MAX_BYTES, decodeTrace, traceRows } from '../../shared/contracts/trace.js';
import { errorCode, isRetryable } from '../../shared/runtime/errors.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { exportDevnet } from '../../shared/sources/devnet/export.js';
import type { Store } from '../../shared/store/store.js';
import { readClassifierInput } from '../../services/actions/read.js';
import { PUBLISH, type PublishedTrace, TRACES_PER_READ, createActionMapper } from '../../services/actions/stage.js';
import { readTransactions } from '../../services/traces/stage.js';
import { createClassifier, rowToJson } from '../../shared/ton/actions/index.js';
import { type TableRows, handleBatch } from '../../services/stages/stage.js';
import { collect, waitFor } from '../helpers/bus-contract.js';
import { type EmbeddedPipeline, openEmbedded } from '../helpers/pipeline.js';

/*
 * The action stage's batched reads on real components: a devnet run on the real TVM → follower → in-process bus →
 * decode and trace stages → chdb (test/helpers/pipeline.ts), then the traces the trace stage published handed to the
 * action stage's mapping through the stage runner (handleBatch), as one bus batch, over the same chdb store wrapped
 * to count the statements it runs. A batch of traces must cost one statement per table (and one per cell-tree level
 * of the data rebuilds), not one set per trace; what it produces must be what each trace read alone produces; a
 * poison trace is dead-lettered alone; a trace whose transactions are not stored fails the batch as retryable.
 * The trace stage's messages carry their transactions' rows (trace.ts `rows`): classifying them reads no
 * transaction, message or body from the store; a message without them (an older trace stage's, or a trace over the
 * rows' cap) is read from the store, with the same result.
 */

let work = '';
let p: EmbeddedPipeline | undefined;
let traceMessages: IncomingMessage[] = [];

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'tonflow-actions-batch-'));
  const devnetDir = path.join(work, 'devnet');
  const { lastMcSeqno } = await exportDevnet({ out: devnetDir, transactions: 400, tps: 150, seed: 'tonflow-actions-batch-test', genesisUtime: 1_760_000_000 });
  const logger = createLogger({ service: 'actions-batch-test', level: 'warn' });
  p = await openEmbedded({ dir: devnetDir, dataDir: path.join(work, `data-${randomBytes(3).toString('hex')}`), name: 'actions_batch', logger });
  const tracesOut = collect(p.bus, { groupId: 'reader-traces', topics: [p.topics.traces] });
  // The trace stage only: the traces it publishes are this test's input.
  const run = await p.start({ traces: true, actions: false });
  await waitFor(() => run.traced >= lastMcSeqno || run.poison.length > 0, 240_000, 'traces of the last masterchain block stored');
  expect(run.poison).toEqual([]);
  const [complete] = await p.store.query<{ n: string }>("SELECT count() AS n FROM traces FINAL WHERE state = 'complete'");
  await waitFor(() => tracesOut.received.length >= Number(complete?.n ?? 0), 60_000, 'complete traces published');
  await run.stop();
  await tracesOut.consumer.stop();
  // One message per trace (a replay would repeat one), renumbered as one partition's batch.
  const seen = new Set<string>();
  traceMessages = tracesOut.received.filter((m) => !seen.has(m.key ?? '') && seen.add(m.key ?? '')).map((m, i) => ({ ...m, partition: 0, offset: String(i) }));
}, 600_000);

afterAll(async () => {
  await p?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The store, with every statement it is asked to run recorded (the table it reads: the first FROM). */
function counted(store: Store): { store: Store; statements: string[] } {
  const statements: string[] = [];
  const note = (sql: string): void => void statements.push(/\bFROM\s+`?(\w+)/i.exec(sql)?.[1] ?? sql);
  const wrapped = new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      if (prop === 'query' || prop === 'queryFields' || prop === 'command') {
        return (sql: string, ...rest: unknown[]) => {
          note(sql);
          return (v as (...a: unknown[]) => unknown).call(target, sql, ...rest);
        };
      }
      return (v as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return { store: wrapped, statements };
}

/** The store as it is when the decode stage writes no transaction documents: their lookups find nothing. */
function withoutDocuments(store: Store): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      const fn = (v as (...a: unknown[]) => unknown).bind(target);
      if (prop !== 'queryFields') return fn;
      return async (sql: string, ...rest: unknown[]) => (/\bFROM\s+transaction_documents\b/.test(sql) ? [] : fn(sql, ...rest));
    },
  });
}

const perTable = (statements: string[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const s of statements) out[s] = (out[s] ?? 0) + 1;
  return out;
};

const ctx = { signal: new AbortController().signal, heartbeat: async () => {} };

/** One bus batch through the runner with the action stage's mapping; what it wrote and dead-lettered. */
async function runBatch(
  store: Store,
  messages: IncomingMessage[],
  seen: { written: TableRows[]; dead: Array<{ offset: string; code: string }> } = { written: [], dead: [] },
): Promise<{ published: TraceActionsJson[]; actions: object[]; dead: Array<{ offset: string; code: string }> }> {
  const { written, dead } = seen;
  const { durable } = await handleBatch(
    {
      mapper: createActionMapper({ store }),
      write: async (rows) => void written.push(rows),
      deadLetter: async (msg, error) => void dead.push({ offset: msg.offset, code: errorCode(error) }),
    },
    { topic: 'traces', partition: 0, messages },
    ctx,
  );
  await durable;
  return {
    published: written.flatMap((r) => (r.get(PUBLISH)?.objects ?? []) as PublishedTrace[]).map((o) => decodeTraceActions({ value: o.message.value, headers: o.message.headers ?? {} })),
    actions: written.flatMap((r) => r.get('actions')?.objects ?? []),
    dead,
  };
}

const READ_TABLES = ['transaction_documents', 'transactions', 'messages', 'message_contents', 'latest_account_states'] as const;

/** A trace message as an older trace stage published it, or one over the rows' cap: without `rows`. */
function withoutRows(m: IncomingMessage): IncomingMessage {
  const { rows: _rows, ...t } = decodeTrace(m);
  return { ...m, value: Buffer.from(JSON.stringify(t)) };
}

/** Every other transaction's carried rows dropped (null), as after a reload whose store lacked some documents. */
function partialRows(m: IncomingMessage): IncomingMessage {
  const t = decodeTrace(m);
  if (!t.rows) return m;
  return { ...m, value: Buffer.from(JSON.stringify({ ...t, rows: { ...t.rows, txs: t.rows.txs.map((x, i) => (i % 2 === 0 ? null : x)) } })) };
}

it('classifies a batch from the rows its messages carry, reading no transaction; without them, one statement per table; the same actions either way', async () => {
  const n = traceMessages.length;
  expect(n, 'traces published by the trace stage').toBeGreaterThan(50);
  const reads = Math.ceil(n / TRACES_PER_READ);
  // The trace stage read every transaction's document (the default configuration): every message carries its rows.
  for (const m of traceMessages) {
    const t = decodeTrace(m);
    expect(t.rows?.txs.every((x) => x !== null), `trace ${t.trace_id} carries its rows`).toBe(true);
  }

  const batched = counted(p!.store);
  const { published, dead } = await runBatch(batched.store, traceMessages);
  expect(dead).toEqual([]);
  expect(published.map((t) => t.trace_id)).toEqual(traceMessages.map((m) => decodeTrace(m).trace_id));
  const counts = perTable(batched.statements);
  // Only the accounts' states and the data rebuilds are read.
  for (const t of ['transaction_documents', 'transactions', 'messages', 'message_contents']) expect(counts[t] ?? 0, `statements on ${t}`).toBe(0);
  expect(counts['latest_account_states'] ?? 0).toBeLessThanOrEqual(reads);
  const cellRounds = counts['cells'] ?? 0;
  expect(cellRounds, 'cell-store statements').toBeLessThanOrEqual(16 * reads);
  expect(Object.keys(counts).filter((t) => t !== 'cells' && !(READ_TABLES as readonly string[]).includes(t)), 'statements on other tables').toEqual([]);

  // Messages without rows (an older trace stage's): from the transaction documents, one statement per group.
  const old = traceMessages.map(withoutRows);
  const fromDocuments = counted(p!.store);
  const viaDocuments = await runBatch(fromDocuments.store, old);
  expect(viaDocuments.published).toEqual(published);
  const docCounts = perTable(fromDocuments.statements);
  for (const t of READ_TABLES) expect(docCounts[t] ?? 0, `statements on ${t} for ${n} traces`).toBeLessThanOrEqual(reads);
  expect(docCounts['transaction_documents']).toBe(reads);
  expect(docCounts['transactions'] ?? 0).toBe(0);
  // Half the traces: the same statements, not half as many.
  const half = counted(p!.store);
  await runBatch(half.store, old.slice(0, Math.ceil(n / 2)));
  expect(half.statements.filter((s) => s === 'transaction_documents').length).toBe(Math.ceil(Math.ceil(n / 2) / TRACES_PER_READ));
  // Some transactions carried, the others read: the same again.
  expect((await runBatch(p!.store, traceMessages.map(partialRows))).published).toEqual(published);

  // Each trace read alone (its own statements) and classified by a classifier of its own: the same actions, trace
  // by trace (the stage's one classifier carries nothing from one trace to the next).
  const alone = counted(p!.store);
  for (const [i, m] of old.entries()) {
    const input = await readClassifierInput(alone.store, decodeTrace(m));
    const rows = createClassifier(input.repo).classify(input.trace);
    expect(published[i]!.actions, `trace ${decodeTrace(m).trace_id}`).toEqual(rows.map((r) => rowToJson(r)));
  }
  expect(alone.statements.filter((s) => s === 'transaction_documents').length).toBe(n);
  // Without transaction documents (TONFLOW_STORE_POINT_READS=false, or rows stored before 0009), from the tables:
  // the same again, in one statement per table.
  const tables = counted(withoutDocuments(p!.store));
  const fromTables = await runBatch(tables.store, old);
  expect(fromTables.published).toEqual(published);
  expect(perTable(tables.statements)['transactions']).toBe(reads);
  expect(perTable(tables.statements)['messages']).toBe(reads);
  // Something to classify: the devnet's jetton and NFT flows come out as their actions, not only as TON transfers.
  const types = new Set(published.flatMap((t) => t.actions.map((a) => a.type)));
  expect(types).toContain('jetton_transfer');
  expect(types).toContain('nft_transfer');
}, 300_000);

it('dead-letters only the poison traces of a batch and classifies the others', async () => {
  // Without their rows: read from the store together, one statement, which the poison traces must not fail.
  const good = traceMessages.slice(0, 40).map(withoutRows);
  const first = decodeTrace(traceMessages[0]!);
  const { rows: _rows, ...bare } = first;
  const badLt: TraceJson = { ...bare, trace_id: 'bad-lt', transactions: [{ ...first.transactions[0]!, lt: '12x' }] };
  const messages: IncomingMessage[] = [
    ...good.slice(0, 10),
    { ...good[0]!, key: 'bad-lt', value: Buffer.from(JSON.stringify(badLt)) },
    ...good.slice(10, 30),
    { ...good[0]!, key: 'not-json', value: Buffer.from('{"trace_id": ') },
    ...good.slice(30, 35),
    // Rows that are not one entry per transaction.
    { ...good[0]!, key: 'bad-rows', value: Buffer.from(JSON.stringify({ ...first, trace_id: 'bad-rows', rows: { txs: [], bodies: [] } })) },
    ...good.slice(35),
  ].map((m, i) => ({ ...m, offset: String(i) }));
  const c = counted(p!.store);
  const { published, dead } = await runBatch(c.store, messages);
  expect(dead).toEqual([
    { offset: '10', code: 'TRACE_VALUE' },
    { offset: '31', code: 'TRACE_VALUE' },
    { offset: '37', code: 'TRACE_VALUE' },
  ]);
  expect(published.map((t) => t.trace_id)).toEqual(good.map((m) => decodeTrace(m).trace_id));
  expect(c.statements.filter((s) => s === 'transaction_documents').length).toBe(1);
}, 120_000);

it('fails the batch as retryable, writing nothing, while a trace’s transactions are not stored', async () => {
  const first = decodeTrace(traceMessages[0]!);
  const { rows: _rows, ...bare } = first;
  const unstored: TraceJson = { ...bare, trace_id: 'unstored', transactions: [{ ...first.transactions[0]!, lt: '1' }] };
  const messages = [...traceMessages.slice(0, 5), { ...traceMessages[0]!, key: 'unstored', value: Buffer.from(JSON.stringify(unstored)) }, ...traceMessages.slice(5, 10)].map((m, i) => ({ ...m, offset: String(i) }));
  const seen = { written: [] as TableRows[], dead: [] as Array<{ offset: string; code: string }> };
  const error = await runBatch(p!.store, messages, seen).then(
    () => null,
    (e: unknown) => e,
  );
  expect(errorCode(error)).toBe('ACTIONS_TRACE_ROWS_MISSING');
  expect(isRetryable(error)).toBe(true);
  expect(seen).toEqual({ written: [], dead: [] });
}, 120_000);

it('carries no rows for a trace over the cap, which is then classified from the store alike', async () => {
  // Every transaction's carried rows, as the trace stage reads them from the store (all blocks at once).
  const blocks = await p!.store.query<{ workchain: number; shard: string; seqno: number }>('SELECT DISTINCT workchain, hex(shard) AS shard, seqno FROM blocks');
  const { rows } = await readTransactions(
    p!.store,
    blocks.map((b) => ({ workchain: Number(b.workchain), shard: b.shard.replace(/^0+(?=.)/, ''), seqno: Number(b.seqno), rootHash: '', fileHash: '' })),
  );
  const of = (h: string): CarriedRows | undefined => rows.get(h);
  const largest = traceMessages.map((m) => decodeTrace(m)).sort((a, b) => b.transactions.length - a.transactions.length)[0]!;
  const hashes = largest.transactions.map((x) => x.hash);
  const size = hashes.reduce((n, h) => n + rows.get(h)!.bytes, 0);
  expect(size).toBeLessThan(TRACE_ROWS_MAX_BYTES);
  // Under the cap: what the trace stage published; one byte over: nothing.
  expect(traceRows(hashes, of)).toEqual(largest.rows);
  expect(traceRows(hashes, of, size)).toEqual(largest.rows);
  expect(traceRows(hashes, of, size - 1)).toBeUndefined();
  // Without rows, the action stage reads the trace's transactions from the store: the same actions.
  const at = traceMessages.findIndex((m) => decodeTrace(m).trace_id === largest.trace_id);
  const { rows: _rows, ...bare } = largest;
  const capped: IncomingMessage = { ...traceMessages[at]!, offset: '0', value: Buffer.from(JSON.stringify(bare)) };
  const c = counted(p!.store);
  const alone = await runBatch(c.store, [capped]);
  const carried = await runBatch(p!.store, [{ ...traceMessages[at]!, offset: '0' }]);
  expect(alone.published).toEqual(carried.published);
  expect(alone.published[0]!.actions.length).toBeGreaterThan(0);
  expect(c.statements.filter((s) => s === 'transaction_documents').length).toBe(1);
}, 120_000);

it('keeps rebuilt data between batches: a batch again through the same mapping reads fewer cell-store rounds, with the same actions and details text', async () => {
  const c = counted(p!.store);
  // One mapping for both batches, as the stage keeps one for its life.
  const mapper = createActionMapper({ store: c.store });
  const once = async (): Promise<TableRows[]> => {
    const written: TableRows[] = [];
    const { durable } = await handleBatch(
      { mapper, write: async (rows) => void written.push(rows), deadLetter: async (_m, e) => void expect.fail(`dead-lettered: ${errorCode(e)}`) },
      { topic: 'traces', partition: 0, messages: traceMessages },
      ctx,
    );
    await durable;
    return written;
  };
  const first = await once();
  const cellsFirst = c.statements.filter((s) => s === 'cells').length;
  c.statements.length = 0;
  const second = await once();
  const cellsSecond = c.statements.filter((s) => s === 'cells').length;
  expect(cellsFirst, 'cell-store rounds of the first batch').toBeGreaterThan(0);
  expect(cellsSecond, 'cell-store rounds of the same batch again').toBeLessThan(cellsFirst);
  const details = (w: TableRows[]) => w.flatMap((r) => (r.get('actions')?.objects ?? []) as Array<{ trace_id: string; details: string }>);
  expect(details(second)).toEqual(details(first));
  // `details` is the text of rowToJson's form of each row, byte for byte, as each trace read and classified alone gives it.
  const stored = details(first);
  for (const m of traceMessages.slice(0, 60)) {
    const t = decodeTrace(m);
    const input = await readClassifierInput(p!.store, t);
    const texts = createClassifier(input.repo).classify(input.trace).map((r) => JSON.stringify(rowToJson(r)));
    expect(stored.filter((a) => a.trace_id === t.trace_id).map((a) => a.details), `trace ${t.trace_id}`).toEqual(texts);
  }
}, 300_000);
