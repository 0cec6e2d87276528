import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { PerformanceObserver, constants, monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../services/gateway/app.js';
import { STORE_TABLES, type StoreRows, toRows } from '../services/indexer/rows.js';
import { createLogger } from '../shared/runtime/logger.js';
import { createMetrics } from '../shared/runtime/metrics.js';
import { createStore } from '../shared/store/client.js';
import { migrate } from '../shared/store/migrate.js';
import type { Store } from '../shared/store/store.js';
import { decodeBlock } from '../shared/ton/decode-block.js';
import { writeCorpus } from './corpus.js';
import type { LoadOutput, LoadSpec } from './load-generator.js';
import { machineLine, speedLine, speedReference, writeResultsSection } from './results.js';
import { keyValueTableBytes } from './store-size.js';

/**
 * `npm run bench -- api`: the gateway under load on a store of at least 1,000,000 transactions, embedded mode
 * (chdb in this process). The store is built directly: the real fixture blocks, plus a corpus of distinct
 * real-format transactions written by bench/corpus.ts `writeCorpus`, each block decoded with `decodeBlock`, mapped
 * with `toRows` and inserted table by table in batches. Then the gateway listens on a local port and
 * bench/load-generator.ts, in a child process (its own event loop and CPU time), sends each endpoint's requests
 * evenly spaced at a fixed rate, every
 * request drawn at random from a set of distinct real parameter values (accounts, transaction hashes, message
 * hashes, block seqnos sampled from the store). Latencies run from each request's due time (coordinated omission).
 */

export interface ApiBenchOptions {
  /** Minimum transactions in the store (the corpus is built up to this many, the fixtures come on top). */
  transactions: number;
  /** Folder of the real fixture blocks. */
  fixturesDir: string;
  /** Requests per second per endpoint. */
  rate: number;
  /** Measured seconds per endpoint (after a warm-up of a quarter of that, at least 2 s). */
  seconds: number;
  /** Concurrent connections. */
  connections: number;
  resultsFile: string | null;
  command: string;
  progress?: (line: string) => void;
}

export interface EndpointResult {
  name: string;
  path: string;
  /** Median latency of requests sent one at a time (no load): the service time, mostly store statements. */
  serial_ms: number;
  /** Distinct parameter values the requests were drawn from. */
  distinct: number;
  requests: number;
  rps: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** The gateway process during the measured run: where a tail comes from when it is not the store. */
  process: ProcessPauses;
  /** Longest the load generator's own event loop was late (its requests left that much after their due time). */
  generator_loop_delay_max_ms: number;
}

/** Pauses of the gateway's process (this one) while a measured run lasted. */
export interface ProcessPauses {
  /** Longest garbage collection pause, and how many were full (mark-compact) collections. */
  gc_max_ms: number;
  gc_major: number;
  /** Longest the event loop was late (monitorEventLoopDelay), which every request waiting on it pays. */
  loop_delay_max_ms: number;
  /**
   * The machine meanwhile (/proc/stat, 10 ms ticks summed over its CPUs; null off Linux): time the hypervisor ran
   * something else on them (steal) and time they sat idle waiting for the disk (iowait). A stall that the gateway's
   * and the load generator's event loops share, with steal beside it, is the host's, not the gateway's.
   */
  steal_ms: number | null;
  iowait_ms: number | null;
}

/** The `cpu` line of /proc/stat: iowait and steal so far, in ms (USER_HZ is 100 on Linux). */
function hostTicks(): { iowait: number; steal: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    return f.length >= 8 ? { iowait: (f[4] ?? 0) * 10, steal: (f[7] ?? 0) * 10 } : null;
  } catch {
    return null;
  }
}

/** Starts watching this process's GC pauses and event loop delay; the returned function stops and reports. */
export function watchPauses(): () => ProcessPauses {
  let max = 0;
  let major = 0;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      max = Math.max(max, e.duration);
      if ((e as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const host = hostTicks();
  return () => {
    gc.disconnect();
    loop.disable();
    const after = hostTicks();
    return {
      gc_max_ms: Number(max.toFixed(1)),
      gc_major: major,
      loop_delay_max_ms: Number((loop.max / 1e6).toFixed(1)),
      steal_ms: host && after ? after.steal - host.steal : null,
      iowait_ms: host && after ? after.iowait - host.iowait : null,
    };
  };
}

export interface ApiBenchRun {
  /** `off`: every request reads the store; `on`: the gateway's default caches. */
  caches: 'off' | 'on';
  /** Whether the gateway read transaction records and hashes from the point tables (TONFLOW_STORE_POINT_READS). */
  point_reads: boolean;
  endpoints: EndpointResult[];
}

/** One endpoint under load while the store's writer inserts: reads on the writer's session or on their own. */
export interface DuringWritesResult {
  name: string;
  path: string;
  /** Read sessions of the store the gateway reads from (0: the writer's session, the embedded default before). */
  read_connections: number;
  /** Insert rounds of {@link WRITER_BATCH_TX} transactions that ran during the measured seconds, and their mean time. */
  writes: number;
  write_ms: number;
  requests: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  failed: number;
}

export interface ApiBenchResult {
  store: {
    transactions: number;
    blocks: number;
    corpus_files: number;
    build_seconds: number;
    bytes_on_disk: number;
    point_bytes: number;
    parts: string;
    /** This process's JS heap in use after the build (MiB), mostly garbage by the time the runs start. */
    heap_mib_built: number;
  };
  rate: number;
  seconds: number;
  connections: number;
  target_p99_ms: number;
  runs: ApiBenchRun[];
  during_writes: { rate: number; writer_tx: number; results: DuringWritesResult[] };
  /** speedReference (results.ts) before and after the load runs: tx/s of the @ton/core baseline. */
  speed: { before: number; after: number };
}

const TABLES = STORE_TABLES;

const TARGET_P99_MS = 25;
/** Distinct values per endpoint in the run with caches on. */
const HOT_SET = 500;
/** Rows buffered before an insert round (per the transactions table; the other tables ride along). */
const BATCH_TX = 40_000;
/** Transactions per insert round of the writer in the reads-during-writes run, and its pause between rounds. */
const WRITER_BATCH_TX = 20_000;
const WRITER_PAUSE_MS = 1_000;
/** Requests per second per endpoint in the reads-during-writes run (the writer takes CPU the reads cannot have). */
const DURING_WRITES_RATE = 200;
/** The endpoints of the reads-during-writes run. */
const DURING_WRITES_ENDPOINTS = ['blocks?seqno=', 'accountStates'];
/**
 * Beyond the issue's six: transactionsByMessage for external-in messages, by hash or normalized hash (api-v3.md §1.7),
 * how a wallet finds what became of the message it sent. Those are looked up in `message_sides` (0010, 0016), not in
 * `message_side_points`: one statement more than an internal message.
 */
const EXTERNAL_IN = 'transactionsByMessage?msg_hash= (external-in)';
/** The endpoints whose reads the point tables serve: also measured without them. */
const POINT_ENDPOINTS = ['transactions?account=', 'transactions?hash=', 'transactionsByMessage?msg_hash=', EXTERNAL_IN];

async function insertBatch(store: Store, batch: StoreRows[]): Promise<void> {
  for (const t of TABLES) {
    const rows = batch.flatMap((r) => r[t] as object[]);
    await store.insert(t, rows);
  }
}

/** Decodes every block of `dir` and inserts its rows; returns the transaction and block counts. */
export async function loadDir(store: Store, dir: string, progress: (line: string) => void): Promise<{ transactions: number; blocks: number }> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.boc')).sort();
  let batch: StoreRows[] = [];
  let pending = 0;
  let transactions = 0;
  let blocks = 0;
  const started = performance.now();
  for (const f of files) {
    const bytes = readFileSync(path.join(dir, f));
    const decoded = decodeBlock(bytes);
    const b = decoded.block;
    // Isolated blocks: the committing masterchain block is unknown for shard blocks (null, as a file replay of a
    // lone shard block stores it).
    batch.push(toRows(decoded, { mcSeqno: b.workchain === -1 ? b.seqno : null, points: true }));
    pending += decoded.transactions.length;
    transactions += decoded.transactions.length;
    blocks++;
    if (pending >= BATCH_TX) {
      await insertBatch(store, batch);
      batch = [];
      pending = 0;
      const s = (performance.now() - started) / 1000;
      progress(`  ${transactions} transactions stored (${blocks} blocks, ${Math.round(transactions / s)} tx/s)`);
    }
  }
  if (batch.length > 0) await insertBatch(store, batch);
  return { transactions, blocks };
}

/**
 * Rows of the first blocks of `dir` up to `transactions` transactions: what the writer of the reads-during-writes run
 * inserts again and again (ReplacingMergeTree keeps one row per key, so the answers the reads get do not change).
 */
function batchOf(dir: string, transactions: number): StoreRows[] {
  const out: StoreRows[] = [];
  let n = 0;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.boc')).sort()) {
    if (n >= transactions) break;
    const decoded = decodeBlock(readFileSync(path.join(dir, f)));
    out.push(toRows(decoded, { mcSeqno: null, points: true }));
    n += decoded.transactions.length;
  }
  return out;
}

/** A random sample of distinct values of a column (bench setup only: this scans). */
async function sample(store: Store, sql: string, n: number): Promise<string[]> {
  const rows = await store.query<{ v: string }>(`${sql} LIMIT {n:UInt32}`, { n }, { timeoutMs: 300_000 });
  return rows.map((r) => String(r.v));
}

/**
 * The gateway on `store`, listening on a free local port: with its caches off (every request reads the store) or with
 * its defaults.
 */
async function startGateway(store: Store, caches: 'off' | 'on', pointReads = true): Promise<{ app: Awaited<ReturnType<typeof buildApp>>; url: string }> {
  const app = await buildApp({
    store,
    logger: createLogger({ service: 'bench', level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) }),
    metrics: createMetrics({ service: 'gateway', processMetrics: false }),
    config: {
      apiKeys: [],
      rpsWithoutKey: 0,
      testnet: false,
      pointReads,
      ...(caches === 'off' ? { cacheEntries: 0, txRecordCacheEntries: 0, addressBookTtlMs: 0, responseCacheEntries: 0 } : {}),
    },
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (e) {
    await app.close();
    throw e;
  }
  const address = app.server.address();
  return { app, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

/** Runs bench/load-generator.ts in a child process, so that the load never shares the gateway's event loop. */
export function runLoad(spec: LoadSpec): Promise<LoadOutput> {
  const script = fileURLToPath(new URL('./load-generator.js', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.end(JSON.stringify(spec));
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
      else resolve(JSON.parse(out) as LoadOutput);
    });
  });
}

export async function runApiBench(opts: ApiBenchOptions): Promise<ApiBenchResult> {
  const progress = opts.progress ?? (() => {});
  const work = mkdtempSync(path.join(os.tmpdir(), 'tonflow-bench-api-'));
  const corpusDir = path.join(work, 'corpus');
  const store = await createStore({ mode: 'embedded', dataDir: path.join(work, 'data'), database: 'bench_api' }, { queryTimeoutMs: 30_000 });
  try {
    await migrate(store);
    const built = performance.now();
    progress(`writing a corpus of ${opts.transactions} transactions (bench/corpus.ts) to ${corpusDir}`);
    const corpus = writeCorpus({ fromDir: opts.fixturesDir, outDir: corpusDir, transactions: opts.transactions });
    progress(`  ${corpus.files} block files; decoding and storing the fixture blocks, then the corpus`);
    const fixtures = await loadDir(store, opts.fixturesDir, progress);
    const copies = await loadDir(store, corpusDir, progress);
    const buildSeconds = (performance.now() - built) / 1000;
    // Let the background merges the inserts started finish (as they do once ingestion pauses): measuring while
    // they run would measure them too.
    const settle = performance.now();
    for (;;) {
      const [m] = await store.query<{ n: string }>('SELECT count() AS n FROM system.merges WHERE database = currentDatabase()');
      if (Number(m!.n) === 0 || performance.now() - settle > 180_000) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const parts = await store.query<{ table: string; n: string }>(
      "SELECT table, count() AS n FROM system.parts WHERE database = currentDatabase() AND active AND table IN ('transactions', 'messages') GROUP BY table ORDER BY table",
    );
    progress(`merges settled after ${((performance.now() - settle) / 1000).toFixed(0)} s; active parts: ${parts.map((p) => `${p.table} ${p.n}`).join(', ')}`);
    const [count] = await store.query<{ n: string }>('SELECT count() AS n FROM transactions');
    const stored = Number(count!.n);
    // What building the store left in this process's heap is garbage by now, which a major collection does not trace:
    // it marks live objects only.
    const heapBuilt = process.memoryUsage().heapUsed;
    progress(`store built in ${buildSeconds.toFixed(0)} s: ${stored} transactions; this process's JS heap ${Math.round(heapBuilt / 2 ** 20)} MiB in use`);

    // Parameter values: real keys sampled from the store.
    const txAccounts = await sample(store, 'SELECT account AS v FROM transactions GROUP BY account ORDER BY cityHash64(account)', 20_000);
    const accounts = await sample(store, 'SELECT account AS v FROM latest_account_states GROUP BY account ORDER BY cityHash64(account)', 20_000);
    const hashes = await sample(store, 'SELECT hash AS v FROM transactions ORDER BY cityHash64(hash)', 20_000);
    // Internal messages: a corpus copy moves their created_lt, so each is distinct; an external-in message has no lt, so
    // every copy repeats it.
    const msgHashes = await sample(
      store,
      "SELECT msg_hash AS v FROM messages WHERE source != '' GROUP BY msg_hash ORDER BY cityHash64(msg_hash)",
      20_000,
    );
    // External-in messages, half by their hash and half by their normalized hash: distinct per corpus copy (their
    // bodies are moved, bench/corpus.ts), as on a real chain.
    const extHashes = await sample(
      store,
      "SELECT msg_hash AS v FROM messages WHERE direction = 'in' AND source = '' GROUP BY msg_hash ORDER BY cityHash64(msg_hash)",
      10_000,
    );
    const normHashes = await sample(store, 'SELECT hash_norm AS v FROM messages WHERE hash_norm IS NOT NULL GROUP BY hash_norm ORDER BY cityHash64(hash_norm)', 10_000);
    // TON Center's seqno parameter is an int32; the corpus moves copies' seqnos by 10^8 per copy, past it for late copies.
    const seqnos = await sample(store, 'SELECT toString(seqno) AS v FROM blocks WHERE seqno <= 2147483647 GROUP BY seqno ORDER BY cityHash64(seqno)', 20_000);
    const enc = encodeURIComponent;
    const endpoints: Array<{ name: string; path: string; paths: string[] }> = [
      { name: 'transactions?account=', path: '/api/v3/transactions?account=<account>', paths: txAccounts.map((a) => `/api/v3/transactions?account=${a}`) },
      { name: 'transactions?hash=', path: '/api/v3/transactions?hash=<tx hash>', paths: hashes.map((h) => `/api/v3/transactions?hash=${enc(h)}`) },
      {
        name: 'transactionsByMessage?msg_hash=',
        path: '/api/v3/transactionsByMessage?msg_hash=<msg hash>',
        paths: msgHashes.map((h) => `/api/v3/transactionsByMessage?msg_hash=${enc(h)}`),
      },
      {
        name: EXTERNAL_IN,
        path: '/api/v3/transactionsByMessage?msg_hash=<external-in msg hash or normalized hash>',
        paths: [...extHashes, ...normHashes].map((h) => `/api/v3/transactionsByMessage?msg_hash=${enc(h)}`),
      },
      { name: 'blocks?seqno=', path: '/api/v3/blocks?seqno=<seqno>', paths: seqnos.map((s) => `/api/v3/blocks?seqno=${s}`) },
      { name: 'masterchainInfo', path: '/api/v3/masterchainInfo', paths: ['/api/v3/masterchainInfo'] },
      { name: 'accountStates', path: '/api/v3/accountStates?address=<account>', paths: accounts.map((a) => `/api/v3/accountStates?address=${a}`) },
    ];

    // The active parts: a directory listing would also count the parts merges replaced, which ClickHouse deletes
    // only minutes later (old_parts_lifetime), and the reads-during-writes run below adds parts of its own.
    const [disk] = await store.query<{ b: string }>('SELECT sum(bytes_on_disk) AS b FROM system.parts WHERE database = currentDatabase() AND active');
    const pointBytes = [...(await keyValueTableBytes(store)).values()].reduce((a, b) => a + b, 0);
    const bytesOnDisk = Number(disk!.b) + pointBytes;
    const speedBefore = speedReference(opts.fixturesDir);
    progress(`machine speed: @ton/core baseline at ${speedBefore} tx/s`);
    const runs: ApiBenchRun[] = [];
    // Caches off with the point tables (TONFLOW_STORE_POINT_READS, the default, as the store was written), then the
    // transaction endpoints without them (what the MergeTree tables alone serve, the option), then caches on.
    const configs = [
      { caches: 'off', pointReads: true },
      { caches: 'off', pointReads: false },
      { caches: 'on', pointReads: true },
    ] as const;
    for (const { caches, pointReads } of configs) {
      const { app, url } = await startGateway(store, caches, pointReads);
      const results: EndpointResult[] = [];
      try {
        for (const e of endpoints.filter((x) => pointReads || POINT_ENDPOINTS.includes(x.name))) {
          // Every sampled value must answer 200 (a bench of 404s would measure nothing).
          const probe = await app.inject({ method: 'GET', url: e.paths[0]! });
          if (probe.statusCode !== 200) throw new Error(`${e.name}: ${probe.statusCode} ${probe.body.slice(0, 200)}`);
          // Caches off: requests spread over every sampled value (each one a store read). Caches on: a hot set, as
          // API traffic is (recent transactions, active accounts): what the caches are for.
          const paths = caches === 'off' ? e.paths : e.paths.slice(0, HOT_SET);
          const warm = Math.max(2, Math.round(opts.seconds / 4));
          if (caches === 'on') {
            // The hot set is what a running gateway has already served: each value once, before the clock starts.
            for (const p of paths) await app.inject({ method: 'GET', url: p });
          }
          // Service time: requests one at a time, before any load (embedded chdb runs one statement at a time,
          // so a request's store time bounds the throughput at about 1000 / serial_ms requests per second).
          const serial: number[] = [];
          for (let i = 0; i < 40; i++) {
            const t0 = performance.now();
            await app.inject({ method: 'GET', url: paths[(i * 7919) % paths.length]! });
            serial.push(performance.now() - t0);
          }
          serial.sort((a, b) => a - b);

          progress(`caches ${caches}, point reads ${pointReads ? 'on' : 'off'}, ${e.name}: warm-up ${warm} s, then ${opts.seconds} s at ${opts.rate} req/s over ${paths.length} distinct values`);
          await runLoad({ url, paths, rate: opts.rate, seconds: warm, connections: opts.connections });
          const pauses = watchPauses();
          const r = await runLoad({ url, paths, rate: opts.rate, seconds: opts.seconds, connections: opts.connections });
          const paused = pauses();
          results.push({
            name: e.name,
            path: e.path,
            serial_ms: Number(serial[Math.floor(serial.length / 2)]!.toFixed(1)),
            distinct: paths.length,
            requests: r.requests,
            rps: Math.round(r.rps),
            p50_ms: r.p50,
            p90_ms: r.p90,
            p99_ms: r.p99,
            max_ms: r.max,
            non2xx: r.non2xx,
            errors: r.errors,
            timeouts: r.timeouts,
            process: paused,
            generator_loop_delay_max_ms: r.loop_delay_max_ms,
          });
          progress(
            `  p50 ${r.p50} ms, p99 ${r.p99} ms, ${Math.round(r.rps)} req/s, non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}; ` +
              `longest GC ${paused.gc_max_ms} ms (${paused.gc_major} full), event loop late by up to ${paused.loop_delay_max_ms} ms ` +
              `(load generator's ${r.loop_delay_max_ms} ms); host steal ${paused.steal_ms ?? '?'} ms, iowait ${paused.iowait_ms ?? '?'} ms`,
          );
        }
      } finally {
        await app.close();
      }
      runs.push({ caches, point_reads: pointReads, endpoints: results });
    }

    // Reads while a writer inserts, as in `tonflow start`: the same gateway (caches off) on a store whose reads share
    // the writer's chdb session, then on one whose reads have a session of their own. Last, because its inserts
    // leave parts to merge.
    const duringWrites: DuringWritesResult[] = [];
    // Decoded only now: held from the build on, they would be a large heap of live objects in the gateway under
    // test during every run before, which a gateway does not carry, and every full collection would mark them in its
    // pause.
    const heapBefore = process.memoryUsage().heapUsed;
    const writerRows = batchOf(corpusDir, WRITER_BATCH_TX);
    rmSync(corpusDir, { recursive: true, force: true });
    progress(`the writer's rows: JS heap in use ${Math.round(heapBefore / 2 ** 20)} → ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MiB`);
    for (const e of endpoints.filter((x) => DURING_WRITES_ENDPOINTS.includes(x.name))) {
      for (const readConnections of [0, 1]) {
        const reader = await createStore({ mode: 'embedded', dataDir: path.join(work, 'data'), database: 'bench_api', readConnections }, { queryTimeoutMs: 30_000 });
        let writing = true;
        let writes = 0;
        let writeMs = 0;
        let writer: Promise<void> | undefined;
        let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
        try {
          gateway = await startGateway(reader, 'off');
          const { url } = gateway;
          writer = (async () => {
            while (writing) {
              const t0 = performance.now();
              await insertBatch(store, writerRows);
              if (!writing) break;
              writes++;
              writeMs += performance.now() - t0;
              await new Promise((resolve) => setTimeout(resolve, WRITER_PAUSE_MS));
            }
          })();
          progress(`during writes, ${e.name}, ${readConnections} read sessions: ${opts.seconds} s at ${DURING_WRITES_RATE} req/s`);
          await runLoad({ url, paths: e.paths, rate: DURING_WRITES_RATE, seconds: 2, connections: opts.connections });
          writes = 0;
          writeMs = 0;
          const r = await runLoad({ url, paths: e.paths, rate: DURING_WRITES_RATE, seconds: opts.seconds, connections: opts.connections });
          const w = { writes, ms: writeMs };
          writing = false;
          await writer;
          duringWrites.push({
            name: e.name,
            path: e.path,
            read_connections: readConnections,
            writes: w.writes,
            write_ms: Math.round(w.ms / Math.max(1, w.writes)),
            requests: r.requests,
            rps: Math.round(r.rps),
            p50_ms: r.p50,
            p99_ms: r.p99,
            max_ms: r.max,
            failed: r.non2xx + r.errors + r.timeouts,
          });
          progress(`  p50 ${r.p50} ms, p99 ${r.p99} ms, ${Math.round(r.rps)} req/s; ${w.writes} insert rounds of ${Math.round(w.ms / Math.max(1, w.writes))} ms`);
        } finally {
          writing = false;
          await writer?.catch(() => {});
          await gateway?.app.close();
          await reader.close();
        }
      }
    }
    const result: ApiBenchResult = {
      store: {
        transactions: stored,
        blocks: fixtures.blocks + copies.blocks,
        corpus_files: corpus.files,
        build_seconds: Math.round(buildSeconds),
        heap_mib_built: Math.round(heapBuilt / 2 ** 20),
        bytes_on_disk: bytesOnDisk,
        point_bytes: pointBytes,
        parts: parts.map((p) => `${p.table} ${p.n}`).join(', '),
      },
      rate: opts.rate,
      seconds: opts.seconds,
      connections: opts.connections,
      target_p99_ms: TARGET_P99_MS,
      runs,
      during_writes: { rate: DURING_WRITES_RATE, writer_tx: writerRows.reduce((n, r) => n + r.transactions.length, 0), results: duringWrites },
      speed: { before: speedBefore, after: speedReference(opts.fixturesDir) },
    };
    if (opts.resultsFile) writeResultsSection(opts.resultsFile, 'api', renderResults(result, opts.command));
    return result;
  } finally {
    await store.close();
    rmSync(work, { recursive: true, force: true });
  }
}

function renderResults(r: ApiBenchResult, command: string): string {
  const lines = [
    '## api — gateway latency under load (embedded mode)',
    '',
    `Command: \`${command}\``,
    `Machine: ${machineLine()}`,
    speedLine(r.speed.before, r.speed.after),
    `Date: ${new Date().toISOString()}`,
    `Store: ${r.store.transactions} transactions in ${r.store.blocks} blocks (the 14 fixture blocks + ${r.store.corpus_files} corpus copies from ` +
      `bench/corpus.ts), decoded with decodeBlock, mapped with toRows and inserted directly into chdb in ${r.store.build_seconds} s; ` +
      `${(r.store.bytes_on_disk / 2 ** 20).toFixed(0)} MiB on disk: ${((r.store.bytes_on_disk - r.store.point_bytes) / 2 ** 20).toFixed(0)} MiB of active MergeTree parts and ${(r.store.point_bytes / 2 ** 20).toFixed(0)} MiB of key → value tables (RocksDB files after a compaction: the point tables, written because the store was built with them, 0008_transaction_points.sql and 0009_transaction_documents.sql, and 0015_message_side_points.sql, written in either configuration); measured after background merges settled (active parts: ${r.store.parts}). ` +
      'The rows the writer of the last run inserts (decoding them grows the heap in use by 100-180 MiB) are decoded only when that run starts: before 2026-11-25 07:30 UTC they were ' +
      'held from the build on, live in the heap of the gateway under test, and a full collection that had to mark them held its event loop up to ' +
      `134 ms (a run at 07:20: one 88 ms pause). Building the store leaves the heap at ${r.store.heap_mib_built} MiB in use, garbage by then, which a collection does not mark.`,
    `Load: bench/load-generator.ts in a child process, open loop: ${r.rate} req/s per endpoint, evenly spaced, for ${r.seconds} s after a warm-up, ` +
      `over up to ${r.connections} keep-alive connections, each request drawn at random from the distinct values listed (sampled from the store); ` +
      "each latency runs from the request's due time, so falling behind counts (coordinated omission, as wrk2 measures). " +
      'autocannon was the load generator before: its `overallRate` sends each connection\'s requests in bursts, and against a handler that ' +
      'returns a constant string it measured p99 78-124 ms at 500 req/s over 64 connections on this machine, where evenly spaced requests ' +
      'measure 3-4 ms; its figures were the burst queueing, not the gateway. ' +
      'Run with the gateway caches off (every request reads the store; values drawn from up to 20,000 distinct ones), first ' +
      'reading the point tables (the default), then, for the transaction endpoints, the MergeTree tables only (what ' +
      '`TONFLOW_STORE_POINT_READS=false` reads); then ' +
      `with its default caches on a hot set of ${HOT_SET} values per endpoint (immutable transaction records, bodies, states and tx keys ` +
      'cached; address book entries 60 s), each hot value requested once before the warm-up. masterchainInfo shares one answer ' +
      'for 1 s in both runs (route-level).',
  ];
  for (const run of r.runs) {
    lines.push(
      '',
      run.caches === 'on'
        ? '### caches on (point tables read)'
        : run.point_reads
          ? '### caches off, point tables read (the default, `TONFLOW_STORE_POINT_READS=true`)'
          : '### caches off, MergeTree tables only (`TONFLOW_STORE_POINT_READS=false`)',
      '',
    );
    lines.push(
      `| endpoint | distinct values | one at a time ms | requests | req/s | p50 ms | p90 ms | p99 ms | max ms | non-2xx | errors + unanswered | longest GC ms (full GCs) | event loop late by, max ms: gateway / load generator | host steal / iowait ms | p99 ≤ ${r.target_p99_ms} ms at ${r.rate}/s |`,
    );
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const e of run.endpoints) {
      const met = e.p99_ms <= r.target_p99_ms && e.non2xx === 0 && e.errors === 0 && e.timeouts === 0 && e.rps >= r.rate * 0.95;
      lines.push(
        `| \`${e.path}\` | ${e.distinct} | ${e.serial_ms} | ${e.requests} | ${e.rps} | ${e.p50_ms} | ${e.p90_ms} | ${e.p99_ms} | ${e.max_ms} | ${e.non2xx} | ${e.errors + e.timeouts} | ` +
          `${e.process.gc_max_ms} (${e.process.gc_major}) | ${e.process.loop_delay_max_ms} / ${e.generator_loop_delay_max_ms} | ` +
          `${e.process.steal_ms ?? '–'} / ${e.process.iowait_ms ?? '–'} | ${met ? 'met' : 'NOT met'} |`,
      );
    }
  }
  const dw = r.during_writes;
  lines.push('', '### reads while the writer inserts', '');
  lines.push(
    `The gateway with caches off at ${dw.rate} req/s while, on the same embedded store, a writer inserts the rows of ` +
      `${dw.writer_tx} corpus transactions (every table, as the decode stage's store writer does), pauses ${WRITER_PAUSE_MS} ms and starts again, ` +
      'as `tonflow start` indexes while it serves. Once with the reads on the writer\'s chdb session ' +
      '(`TONFLOW_STORE_READ_CONNECTIONS=0`: one session for everything, what embedded mode did before), once on a read ' +
      'session of their own (the default, 1). Same process, same run, same store.',
    '',
  );
  lines.push('| endpoint | read sessions | insert rounds during the run | mean insert ms | req/s | p50 ms | p99 ms | max ms | failed | p99 vs one session |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const e of dw.results) {
    const base = dw.results.find((x) => x.name === e.name && x.read_connections === 0);
    const ratio = base && e.p99_ms > 0 ? `${(base.p99_ms / e.p99_ms).toFixed(1)}× lower` : '';
    lines.push(
      `| \`${e.path}\` | ${e.read_connections} | ${e.writes} | ${e.write_ms} | ${e.rps} | ${e.p50_ms} | ${e.p99_ms} | ${e.max_ms} | ${e.failed} | ${e.read_connections === 0 ? 'baseline' : ratio} |`,
    );
  }
  lines.push(
    '',
    'Reading the tables: "one at a time" is the median latency of a lone request, before the load (caches off: store reads; ' +
      'caches on: hot values already served once). Embedded mode runs one ClickHouse statement at a time per chdb ' +
      'session: writes on one, reads on their own (`TONFLOW_STORE_READ_CONNECTIONS`, default 1; shared/store/client.ts). ' +
      'More read sessions do not run reads in parallel: chdb 3.4 runs every statement with bound parameters one at a ' +
      'time in the whole process (its `globalParamChain`, because libchdb mixes up the parameters of concurrent ' +
      'statements), and the gateway binds every parameter. So what an endpoint costs is how many statements a request ' +
      'waits for, one after the other. Point reads of one kind that arrive while such a read runs share the next ' +
      'statement (services/gateway/repo/batcher.ts: blocks by seqno, account states, transaction records, transaction ' +
      'keys by hash and by message hash, code hashes), and a transaction batch reads its records and the code hashes of ' +
      'their address book together (repo/transactions.ts `TxRead`), so a request waits for one batch. What makes a ' +
      'statement cheaper here is what shortens that wait (measured alone, then as A/B pairs under load on 2026-11-25): ' +
      "reads call a chdb session directly instead of through @clickhouse/client's connection (a 4-account read of " +
      '`account_recent_transactions` 1.52 → 1.21 ms, half the event loop time), without parallel output formatting ' +
      '(1.60 → 1.37 ms CPU), point reads single-threaded (`max_threads = 1`: document reads about 15% faster, ' +
      '`message_sides` 7%), documents come as TabSeparatedRaw instead of JSON strings in JSON (150 documents with ' +
      "parsing 7.0 → 3.9 ms), and a batch's code hash read starts from the documents' text before they are parsed. " +
      'The pages of ' +
      '`transactions?account=` that arrive together are one statement too: their accounts\' newest lts as one `IN` list ' +
      'on `account_recent_transactions` (0012_account_recent_transactions.sql: the 64 newest lts of each account), ' +
      'or, for oldest-first and deeper pages, a UNION ALL branch each on `account_transactions` (0011, 256-row ' +
      'granules); the batch also reads their records. ' +
      'Beyond what the store can ' +
      'serve, requests queue and the p99 measures the queue. ' +
      'Requests still unanswered when the run ends are cut off and counted in "errors + unanswered", with their wait so far ' +
      'as latency (a lower bound). From the MergeTree tables alone an uncached transaction record is four statements (the ' +
      'transaction, its `messages` rows, their bodies, the account states), each of which decompresses a whole 8,192-row ' +
      'granule per column for every key. With the point tables (the default, `TONFLOW_STORE_POINT_READS=true`; the store ' +
      'here was written with them) a record is one key read in RocksDB (0009_transaction_documents.sql: the transaction with its ' +
      'messages, their bodies and its states), and a hash finds its record in the same statement. ' +
      '`transactionsByMessage?msg_hash=` finds the transactions of an internal or external-out message in ' +
      '`message_side_points` in both configurations (0015_message_side_points.sql: `hash|in` and `hash|out` → the ' +
      "transaction's key, one RocksDB lookup per side, filled from `messages` by a materialized view); with the point " +
      "tables the same statement joins each side's document by key (a direct join), so a batch of such requests is one " +
      'statement plus the code hashes. External-in and normalized hashes (which may repeat) are looked up in ' +
      '`message_sides` (0010, 256-row granules, 4-16 KiB compressed blocks since 0013, external-in messages only since ' +
      '0016), after a miss in `message_side_points`, then their records read: the row `transactionsByMessage?msg_hash= ' +
      '(external-in)`, beyond the issue\'s six, measures that path with the hashes and normalized hashes of external-in ' +
      'messages, how a wallet finds what became of a message it sent. The point tables cost ingest CPU and disk (bench ' +
      'ingest). With caches on, ' +
      "repeated requests are answered from the gateway's whole-response cache (services/gateway/response-cache.ts: reused while the store's set of parts is " +
      'unchanged, checked every 500 ms), without a statement. Each corpus copy moves every internal message\'s created_lt ' +
      "and every external-in message's body (bench/corpus.ts), so a message hash names one message, as on a real chain.",
  );
  return lines.join('\n');
}
