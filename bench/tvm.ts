import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { buildApp } from '../services/gateway/app.js';
import { STORE_TABLES, accountStatesToRows, toRows } from '../services/indexer/rows.js';
import { NonRetryableError } from '../shared/runtime/errors.js';
import { createLogger } from '../shared/runtime/logger.js';
import { createMetrics } from '../shared/runtime/metrics.js';
import { actors } from '../shared/sources/devnet/genesis.js';
import { createDevnetSource } from '../shared/sources/devnet/source.js';
import { createStore } from '../shared/store/client.js';
import type { Store } from '../shared/store/store.js';
import { migrate } from '../shared/store/migrate.js';
import { decodeBlock } from '../shared/ton/decode-block.js';
import { createTvmPool } from '../shared/tvm/pool.js';
import { type ProcessPauses, loadDir, runLoad, watchPauses } from './api.js';
import { writeCorpus } from './corpus.js';
import { type LoadOutput, serverMs } from './load-generator.js';
import { type CostMeter, type RequestCosts, costsBetween, createCostMeter } from './request-costs.js';
import { machineLine, writeResultsSection } from './results.js';

/**
 * `npm run bench -- tvm`: one gateway with its TVM on a worker pool, beside a devnet source, over an embedded store
 * of `transactions` transactions (bench/corpus.ts on the fixture blocks, as `bench api` builds it) plus the devnet's
 * genesis account states (every wallet's code and data, as the pipeline writes the first group's state snapshot) and
 * its own blocks. bench/load-generator.ts, in a child process, sends v2 `runGetMethod` (`seqno`, POST) to a dozen of
 * the devnet's wallets, then to all of them, and then v2 `getAddressInformation` (every account of the store: the
 * devnet's wallets and the corpus's accounts) open-loop at `rate` requests per second; latencies run from each
 * request's due time.
 * Target: p99 ≤ 25 ms for both.
 *
 * With `storeDir` the store and the devnet are built there once and reused by later runs with the same
 * `transactions` (a store of 1M transactions takes minutes to build on a small host); a reused devnet seals two more
 * block pairs, so the head still moves before the run.
 */

export interface TvmBenchOptions {
  transactions: number;
  fixturesDir: string;
  rate: number;
  seconds: number;
  connections: number;
  workers: number;
  /** Keep the store and the devnet in this folder between runs (built when empty, reused when built before). */
  storeDir?: string | null;
  /**
   * A ClickHouse server (HTTP URL) to hold the store instead of the embedded engine: a new database per build (kept
   * with `storeDir`, dropped after the run without it).
   */
  clickhouseUrl?: string | null;
  resultsFile: string | null;
  command: string;
  progress?: (line: string) => void;
}

export interface TvmBenchEndpoint extends LoadOutput {
  name: string;
  distinct: number;
  met: boolean;
  /** The gateway's process (this one) while the measured run lasted. */
  process: ProcessPauses;
  /** What the measured run cost the gateway's process, per request. */
  costs: RequestCosts;
}

/**
 * Cold requests asked one at a time (nothing else running): what one costs without any queue, by the statements it
 * sent and the time its handler reported. getAddressInformation: accounts the response cache did not answer after
 * the runs; runGetMethod: `get_public_key` of the highload wallets, which no run asks (no state read and no outcome
 * kept before).
 */
export interface TvmBenchProbe {
  name: string;
  requests: number;
  /** Median and max of the handler's time (Server-Timing), ms. */
  server_p50: number;
  server_max: number;
  costs: RequestCosts;
  /** The same for the requests among them that rebuilt code or data from the cell store (getAddressInformation). */
  with_cells?: { requests: number; server_p50: number; server_max: number; costs: RequestCosts };
}

export interface TvmBenchResult {
  store: 'embedded' | 'server';
  transactions_stored: number;
  build_s: number;
  /** When the store was reused from `storeDir`: when it was built. */
  reused_from: string | null;
  rate: number;
  seconds: number;
  workers: number;
  load_average: number[];
  endpoints: TvmBenchEndpoint[];
  probes: TvmBenchProbe[];
}

const TARGET_P99_MS = 25;
/** v3r2, v4r2 and v5r1 wallets 1000 each (and 250 highload): thousands of distinct accounts with code and data. */
const WALLETS_PER_KIND = 1000;
/** What a store folder records about the store it holds (`storeDir`). */
const STORE_MARK = 'bench-tvm.json';
/** Wallets of the first runGetMethod run: as many as this benchmark asked before it had the devnet's genesis states. */
const HOT_WALLETS = 12;

interface StoreMark {
  /** The server that holds the store, and its database there; absent: embedded, in the folder. */
  clickhouse?: string;
  database?: string;
  transactions: number;
  walletsPerKind: number;
  stored: number;
  build_s: number;
  built_at: string;
}

/** The store folder's record, null when the folder is new; throws when it holds something else. */
function readMark(dir: string, transactions: number, clickhouseUrl: string | null): StoreMark | null {
  const file = path.join(dir, STORE_MARK);
  if (!existsSync(file)) {
    if (existsSync(dir) && readdirSync(dir).length > 0) throw new NonRetryableError('BENCH_STORE_DIR', `--store-dir ${dir} is not empty and holds no ${STORE_MARK}: give an empty or new folder`);
    return null;
  }
  const mark = JSON.parse(readFileSync(file, 'utf8')) as StoreMark;
  if (mark.transactions !== transactions || mark.walletsPerKind !== WALLETS_PER_KIND) {
    throw new NonRetryableError(
      'BENCH_STORE_DIR',
      `--store-dir ${dir} holds a store built for --transactions ${mark.transactions} (${mark.walletsPerKind} wallets per kind); ` +
        `asked for ${transactions} (${WALLETS_PER_KIND}): give another folder`,
    );
  }
  if ((mark.clickhouse ?? null) !== clickhouseUrl) {
    throw new NonRetryableError(
      'BENCH_STORE_DIR',
      `--store-dir ${dir} holds a store ${mark.clickhouse ? `on the server ${mark.clickhouse}` : 'in the embedded engine'}: give another folder for ${clickhouseUrl ? `the server ${clickhouseUrl}` : 'the embedded engine'}`,
    );
  }
  return mark;
}

/** Inserts the rows of the devnet's next `groups` block pairs (and of a state snapshot that comes with one). */
async function sealInto(store: Store, source: Awaited<ReturnType<typeof createDevnetSource>>, groups: number, withGenesis: boolean): Promise<void> {
  const from = source.head + 1;
  for (let i = 0; i < groups; i++) await source.sealNext();
  // Read back as the pipeline does: the first group of a new chain carries the genesis accounts' states.
  const stop = new AbortController();
  const it = source.groups(withGenesis ? null : JSON.stringify({ mcSeqno: from - 1 }), stop.signal)[Symbol.asyncIterator]();
  try {
    for (let n = 0; n < source.head - from + 1; n++) {
      const { value: group, done } = await it.next();
      if (done) break;
      if (group.states) {
        const rows = accountStatesToRows(group.states.accounts);
        for (const t of ['account_states', 'latest_account_states', 'cells'] as const) await store.insert(t, rows[t]);
      }
      for (const b of group.blocks) {
        const rows = toRows(decodeBlock(b.data), { mcSeqno: b.mcSeqno ?? group.mcSeqno, points: true });
        for (const t of STORE_TABLES) await store.insert(t, rows[t]);
      }
    }
  } finally {
    stop.abort();
    await it.return?.();
  }
}

export async function runTvmBench(opts: TvmBenchOptions): Promise<TvmBenchResult> {
  const progress = opts.progress ?? (() => {});
  const work = mkdtempSync(path.join(os.tmpdir(), 'tonflow-bench-tvm-'));
  const keep = opts.storeDir ? path.resolve(opts.storeDir) : null;
  const clickhouseUrl = opts.clickhouseUrl ?? null;
  const mark = keep ? readMark(keep, opts.transactions, clickhouseUrl) : null;
  const home = keep ?? work;
  if (keep) mkdirSync(keep, { recursive: true });
  const seed = 'bench-tvm';
  const t0 = performance.now();
  if (mark) progress(`reusing the store in ${keep} (${mark.stored} transactions, built ${mark.built_at})`);
  else progress(`opening a devnet of ${WALLETS_PER_KIND} wallets per kind`);
  const source = await createDevnetSource({ dataDir: path.join(home, 'devnet'), blockMs: 0, traffic: 'none', seed, walletsPerKind: WALLETS_PER_KIND });
  // On a server: a new database per build (named in the store folder's record), so that a shared server's other
  // databases, and what an unfinished build left, are never read.
  const serverDb = mark?.database ?? `bench_tvm_${createHash('sha256').update(`${keep ?? work}:${Date.now()}`).digest('hex').slice(0, 12)}`;
  const store = await createStore(
    clickhouseUrl ? { mode: 'server', url: clickhouseUrl, database: serverDb } : { mode: 'embedded', dataDir: path.join(home, 'data'), database: 'bench_tvm' },
    { queryTimeoutMs: 30_000 },
  );
  const tvm = createTvmPool({ workers: opts.workers, timeoutMs: 30_000 });
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await migrate(store);
    if (!mark) {
      const corpusDir = path.join(work, 'corpus');
      progress(`writing a corpus of ${opts.transactions} transactions to ${corpusDir}`);
      writeCorpus({ fromDir: opts.fixturesDir, outDir: corpusDir, transactions: opts.transactions });
      await loadDir(store, opts.fixturesDir, progress);
      await loadDir(store, corpusDir, progress);
      rmSync(corpusDir, { recursive: true, force: true });
    }
    // The devnet's blocks, so the gateway knows a masterchain head the get-methods run at (and, on a new chain, the
    // genesis states the wallets' get-methods run on).
    await sealInto(store, source, 2, !mark);
    const buildS = mark ? mark.build_s : (performance.now() - t0) / 1000;
    const [count] = await store.query<{ n: string }>('SELECT count() AS n FROM transactions');
    const stored = Number(count!.n);
    if (keep && !mark) {
      const built: StoreMark = { ...(clickhouseUrl ? { clickhouse: clickhouseUrl, database: serverDb } : {}), transactions: opts.transactions, walletsPerKind: WALLETS_PER_KIND, stored, build_s: Math.round(buildS), built_at: new Date().toISOString() };
      writeFileSync(path.join(keep, STORE_MARK), JSON.stringify(built, null, 2) + '\n');
    }
    progress(`store ${mark ? 'reused' : `built in ${buildS.toFixed(0)} s`}: ${stored} transactions`);

    const sampled = await store.query<{ v: string }>(
      'SELECT account AS v FROM latest_account_states GROUP BY account ORDER BY cityHash64(account) LIMIT 20000',
      {},
      { timeoutMs: 300_000 },
    );
    const accounts = sampled.map((r) => r.v);
    // Deriving the keys is seconds of work: once.
    const devnetWallets = actors({ seed, now: 0, walletsPerKind: WALLETS_PER_KIND }).wallets;
    const wallets = devnetWallets
      .filter((w) => w.kind !== 'highload-v3')
      .map((w) => `${w.workchain}:${Buffer.from(w.address.hash).toString('hex')}`);

    const meter = createCostMeter(store, () => tvm.busyMs());
    app = await buildApp({
      store: meter.store,
      logger: createLogger({ service: 'bench', level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) }),
      metrics: createMetrics({ service: 'gateway', processMetrics: false }),
      config: { apiKeys: [], rpsWithoutKey: 0, testnet: false },
      tvm: { tvm, source },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

    // A wrong answer measured fast is no result: each kind of request is checked once before it is timed.
    const probe = await fetch(`${url}/api/v2/runGetMethod`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: wallets[0], method: 'seqno', stack: [] }),
    });
    const probeBody = (await probe.json()) as { ok?: boolean; result?: { exit_code?: number } };
    if (probe.status !== 200 || probeBody.result?.exit_code !== 0) throw new Error(`runGetMethod seqno answered ${probe.status} ${JSON.stringify(probeBody)}`);

    const seqno = (w: string) => ({ path: '/api/v2/runGetMethod', body: JSON.stringify({ address: w, method: 'seqno', stack: [] }) });
    // The same few wallets again and again (what the outcome cache serves once each has run), then all of them (each
    // one's first ask runs the TVM); then every account of the store.
    const endpoints: Array<{ name: string; paths?: string[]; posts?: Array<{ path: string; body: string }> }> = [
      { name: `v2 runGetMethod seqno (POST), ${HOT_WALLETS} wallets`, posts: wallets.slice(0, HOT_WALLETS).map(seqno) },
      { name: 'v2 runGetMethod seqno (POST), every wallet', posts: wallets.map(seqno) },
      { name: 'v2 getAddressInformation', paths: accounts.map((a) => `/api/v2/getAddressInformation?address=${encodeURIComponent(a)}`) },
    ];
    const results: TvmBenchEndpoint[] = [];
    for (const e of endpoints) {
      const spec = { url, paths: e.paths ?? [], ...(e.posts ? { posts: e.posts } : {}), connections: opts.connections };
      progress(`${e.name}: warm-up`);
      await runLoad({ ...spec, rate: opts.rate, seconds: Math.max(2, opts.seconds / 4) });
      progress(`${e.name}: ${opts.rate} req/s for ${opts.seconds} s`);
      const pauses = watchPauses();
      const before = meter.snapshot();
      const out = await runLoad({ ...spec, rate: opts.rate, seconds: opts.seconds });
      const costs = costsBetween(before, meter.snapshot(), out.requests);
      results.push({ name: e.name, distinct: (e.paths ?? e.posts ?? []).length, ...out, process: pauses(), costs, met: out.p99 <= TARGET_P99_MS && out.non2xx === 0 && out.errors === 0 && out.timeouts === 0 });
      progress(`${e.name}: p99 ${out.p99} ms at ${out.rps} req/s, ${out.cache_hits} from the response cache (p99 of the rest ${out.miss_p99} ms); per request ${JSON.stringify(costs)}`);
    }
    const highload = devnetWallets
      .filter((w) => w.kind === 'highload-v3')
      .map((w) => `${w.workchain}:${Buffer.from(w.address.hash).toString('hex')}`);
    const probes = [
      await probeCold(meter, url, 'v2 runGetMethod get_public_key (POST), cold', highload.slice(0, PROBES), (a) => ({
        path: '/api/v2/runGetMethod',
        body: JSON.stringify({ address: a, method: 'get_public_key', stack: [] }),
      })),
      await probeCold(meter, url, 'v2 getAddressInformation, cold', [...accounts].reverse(), (a) => ({ path: `/api/v2/getAddressInformation?address=${encodeURIComponent(a)}` })),
    ];
    for (const p of probes) progress(`probe ${p.name}: ${JSON.stringify(p)}`);
    const result: TvmBenchResult = {
      store: clickhouseUrl ? 'server' : 'embedded',
      transactions_stored: stored,
      build_s: Math.round(buildS),
      reused_from: mark ? mark.built_at : null,
      rate: opts.rate,
      seconds: opts.seconds,
      workers: opts.workers,
      load_average: os.loadavg().map((l) => Number(l.toFixed(2))),
      endpoints: results,
      probes,
    };
    if (opts.resultsFile) writeResultsSection(opts.resultsFile, clickhouseUrl ? 'tvm-server' : 'tvm', render(result, opts.command));
    return result;
  } finally {
    await app?.close();
    await tvm.close();
    await source.close();
    if (clickhouseUrl && !keep) await store.command(`DROP DATABASE IF EXISTS ${serverDb} SYNC`).catch(() => {});
    await store.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Cold requests asked one at a time by {@link probeCold}. */
const PROBES = 40;

/**
 * {@link TvmBenchProbe}: `PROBES` requests of `params` one after another, skipping those the response cache
 * answered; each one's statements and CPU are its own, as nothing else runs meanwhile.
 */
async function probeCold(meter: CostMeter, url: string, name: string, params: string[], request: (p: string) => { path: string; body?: string }): Promise<TvmBenchProbe> {
  const all: Array<{ ms: number; cells: boolean; a: ReturnType<CostMeter['snapshot']>; b: ReturnType<CostMeter['snapshot']> }> = [];
  for (const p of params) {
    if (all.length >= PROBES) break;
    const r = request(p);
    const a = meter.snapshot();
    const res = await fetch(`${url}${r.path}`, r.body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: r.body } : {});
    await res.arrayBuffer();
    const b = meter.snapshot();
    if (res.status !== 200) throw new Error(`probe ${name}: ${r.path} answered ${res.status}`);
    if (res.headers.get('x-cache') === 'hit') continue;
    const cells = (b.statements.cells?.n ?? 0) > (a.statements.cells?.n ?? 0);
    all.push({ ms: serverMs(res.headers.get('server-timing') ?? undefined) ?? 0, cells, a, b });
  }
  const summary = (xs: typeof all) => {
    const ms = xs.map((x) => x.ms).sort((p, q) => p - q);
    // Per-request costs summed over the probes (each pair of snapshots brackets one request).
    const sum = xs.reduce(
      (acc, x) => {
        for (const [k, v] of Object.entries(x.b.statements)) {
          const d = v.n - (x.a.statements[k]?.n ?? 0);
          if (d === 0) continue;
          const s = (acc.statements[k] ??= { n: 0, ms: 0 });
          s.n += d;
          s.ms += v.ms - (x.a.statements[k]?.ms ?? 0);
        }
        acc.cpuMs += x.b.cpuMs - x.a.cpuMs;
        acc.loopMs += x.b.loopMs - x.a.loopMs;
        acc.tvmMs += x.b.tvmMs - x.a.tvmMs;
        return acc;
      },
      { statements: {} as Record<string, { n: number; ms: number }>, cpuMs: 0, loopMs: 0, tvmMs: 0 },
    );
    return {
      requests: xs.length,
      server_p50: ms.length ? Math.round(ms[Math.floor(ms.length / 2)]! * 10) / 10 : 0,
      server_max: ms.length ? Math.round(ms[ms.length - 1]! * 10) / 10 : 0,
      costs: costsBetween({ statements: {}, cpuMs: 0, loopMs: 0, tvmMs: 0 }, sum, xs.length),
    };
  };
  const withCells = all.filter((x) => x.cells);
  return { name, ...summary(all), ...(withCells.length > 0 ? { with_cells: summary(withCells) } : {}) };
}

/** How many distinct parameters each endpoint was asked with. */
function distinctNote(r: TvmBenchResult): string {
  const accounts = r.endpoints.find((e) => !e.name.startsWith('v2 runGetMethod'))?.distinct ?? 0;
  const wallets = Math.max(0, ...r.endpoints.filter((e) => e.name.startsWith('v2 runGetMethod')).map((e) => e.distinct));
  return `${wallets} wallets asked their seqno, ${accounts} distinct accounts asked for (the "distinct params" column)`;
}

function render(r: TvmBenchResult, command: string): string {
  const rows = r.endpoints.map(
    (e) =>
      `| ${e.name} | ${e.distinct} | ${e.requests} | ${e.rps.toFixed(1)} | ${e.p50} | ${e.p90} | ${e.p99} | ${e.max} | ${e.server_p99} | ` +
      `${((100 * e.cache_hits) / Math.max(1, e.requests)).toFixed(1)}% | ${e.miss_p99} | ` +
      `${e.process.gc_max_ms} (${e.process.gc_major}) | ${e.process.loop_delay_max_ms} / ${e.loop_delay_max_ms} | ${e.process.steal_ms ?? '?'} | ` +
      `${e.non2xx}/${e.errors}/${e.timeouts} | ${e.met ? 'met' : 'NOT met'} |`,
  );
  const kinds = (c: RequestCosts): string =>
    Object.entries(c.by_kind)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none';
  const costs = r.endpoints.map(
    (e) =>
      `| ${e.name} | ${e.costs.statements_per_request} (${kinds(e.costs)}) | ${e.costs.statement_ms} | ${e.costs.cpu_ms_per_request} | ` +
      `${e.costs.loop_ms_per_request} | ${e.costs.tvm_ms_per_request} |`,
  );
  const probeRows = r.probes.flatMap((p) => {
    const row = (name: string, x: { requests: number; server_p50: number; server_max: number; costs: RequestCosts }) =>
      `| ${name} | ${x.requests} | ${x.server_p50} | ${x.server_max} | ${x.costs.statements_per_request} (${kinds(x.costs)}) | ${x.costs.statement_ms} | ` +
      `${x.costs.cpu_ms_per_request} | ${x.costs.loop_ms_per_request} | ${x.costs.tvm_ms_per_request} |`;
    return [row(p.name, p), ...(p.with_cells ? [row(`${p.name}, those that rebuilt code or data from cells`, p.with_cells)] : [])];
  });
  return [
    r.store === 'server' ? '## TVM and v2 account reads on a ClickHouse server (`bench tvm --clickhouse-url`)' : '## TVM and v2 account reads (`bench tvm`)',
    '',
    `Command: \`${command}\``,
    `Machine: ${machineLine()}; load average at the end ${r.load_average.join(', ')}.`,
    `One gateway, TVM pool of ${r.workers} worker(s), ${r.store === 'server' ? 'ClickHouse server' : 'embedded'} store of ${r.transactions_stored} transactions (built in ${r.build_s} s` +
      `${r.reused_from ? `, at ${r.reused_from}, and reused` : ''}); ${distinctNote(r)};` +
      ` open-loop at ${r.rate} req/s for ${r.seconds} s per endpoint after a warm-up; latencies from each request's due time. Target p99 ≤ ${TARGET_P99_MS} ms.`,
    '',
    '| endpoint | distinct params | requests | req/s | p50 ms | p90 ms | p99 ms | max ms | server p99 ms | from the response cache | p99 of the rest ms | gateway GC max ms (full) | event loop late max ms, gateway / generator | host steal ms | non-2xx/errors/timeouts | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    '"server p99" is the p99 of the time the gateway reports for its handler (Server-Timing); latency above it was spent waiting outside the handler.',
    '"from the response cache": answers marked `x-cache: hit` (whole GET answers kept while the store is unchanged; POSTs never are).',
    '',
    'What the measured runs cost the gateway, per request: store statements (by the table read), the mean time of a statement from the call to its answer',
    "(its wait in the engine's queue included), the process's CPU time (every thread: serving, chdb, TVM workers" +
      `${r.store === 'server' ? '; not the server\'s' : ''}), the serving thread's active time, the TVM workers' busy time.`,
    '',
    '| endpoint | statements per request (by table) | ms per statement | CPU ms | serving thread ms | TVM worker ms |',
    '|---|---|---|---|---|---|',
    ...costs,
    '',
    'Cold requests one at a time after the runs (nothing else running; getAddressInformation: accounts the response cache did not answer;',
    "runGetMethod: `get_public_key` of highload wallets, which no run asks): the handler's time and what each cost.",
    '',
    '| probe | requests | handler p50 ms | handler max ms | statements per request (by table) | ms per statement | CPU ms | serving thread ms | TVM worker ms |',
    '|---|---|---|---|---|---|---|---|---|',
    ...probeRows,
  ].join('\n');
}
