import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { buildApp } from '../services/gateway/app.js';
import { appConfig } from '../services/gateway/main.js';
import { gatewayConfigSchema, loadConfig } from '../shared/runtime/config.js';
import { createLogger } from '../shared/runtime/logger.js';
import { createMetrics } from '../shared/runtime/metrics.js';
import { createStore } from '../shared/store/client.js';
import { migrate } from '../shared/store/migrate.js';
import { loadDir } from './api.js';
import { writeCorpus } from './corpus.js';
import type { HeavyOutput, HeavySpec } from './heavy-reads-client.js';
import { machineLine, writeResultsSection } from './results.js';

/**
 * `npm run bench -- heavy-reads`: what a gateway holds, and how long masterchainInfo waits, while `concurrency`
 * clients at once ask for the heaviest page there is (`transactions?limit=1000`, 3-4 MB of JSON each), every cache
 * off. The gateway runs in this process with the configuration's defaults (load shedding included; `--unbounded`
 * lifts its limits, which is how the gateway ran before it had them), on an embedded store holding the fixture
 * blocks and a corpus of `transactions` distinct copies (bench/corpus.ts); the clients run in a child process
 * (bench/heavy-reads-client.ts) on loopback and send a refused request again after its Retry-After.
 * Targets (Hardening, item 2): RSS growth ≤ 1 GiB, masterchainInfo ≤ 1 s at worst.
 */

export interface HeavyReadsOptions {
  transactions: number;
  fixturesDir: string;
  concurrency: number;
  /** Gateway configuration as the environment gives it (TONFLOW_API_HEAVY_IN_FLIGHT, …); defaults for the rest. */
  env: Readonly<Record<string, string | undefined>>;
  /** Run with the load-shedding limits lifted. */
  unbounded: boolean;
  resultsFile: string | null;
  command: string;
  progress?: (line: string) => void;
}

export interface HeavyReadsResult extends HeavyOutput {
  transactions_stored: number;
  concurrency: number;
  unbounded: boolean;
  limits: { heavy_rows: number; heavy_in_flight: number; heavy_queue: number; response_mb_in_flight: number };
  rss_growth_mib: number;
  /** Longest the gateway's event loop was late while the heavy requests ran (what every light request pays). */
  loop_delay_max_ms: number;
  /** Load average of the machine (1 min) before and after: other tenants' CPU use. */
  loadavg: [number, number];
  met: { rss: boolean; latency: boolean };
}

const RSS_TARGET_MIB = 1024;
const LATENCY_TARGET_MS = 1000;
/** Attempts per heavy request, 503s included, before its client gives up. */
const MAX_ATTEMPTS = 120;

function runClient(spec: HeavySpec): Promise<HeavyOutput> {
  const script = fileURLToPath(new URL('./heavy-reads-client.js', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.end(JSON.stringify(spec));
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => (code !== 0 ? reject(new Error(`heavy-reads client exited with ${code}`)) : resolve(JSON.parse(out) as HeavyOutput)));
  });
}

export async function runHeavyReadsBench(opts: HeavyReadsOptions): Promise<HeavyReadsResult> {
  const progress = opts.progress ?? (() => {});
  const work = mkdtempSync(path.join(os.tmpdir(), 'tonflow-bench-heavy-'));
  const store = await createStore({ mode: 'embedded', dataDir: path.join(work, 'data'), database: 'bench_heavy' }, { queryTimeoutMs: 30_000 });
  try {
    await migrate(store);
    progress(`writing a corpus of ${opts.transactions} transactions and storing it with the fixture blocks`);
    const corpusDir = path.join(work, 'corpus');
    writeCorpus({ fromDir: opts.fixturesDir, outDir: corpusDir, transactions: opts.transactions });
    await loadDir(store, opts.fixturesDir, progress);
    await loadDir(store, corpusDir, progress);
    const [count] = await store.query<{ n: string }>('SELECT count() AS n FROM transactions');
    const stored = Number(count!.n);

    const config = loadConfig(gatewayConfigSchema, { env: opts.env });
    const app = await buildApp({
      store,
      logger: createLogger({ service: 'bench', level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) }),
      metrics: createMetrics({ service: 'gateway', processMetrics: false }),
      config: {
        ...appConfig(config, []),
        rpsWithoutKey: 0,
        // Cache bypassed: every page is read and built.
        cacheEntries: 0,
        txRecordCacheEntries: 0,
        addressBookTtlMs: 0,
        responseCacheEntries: 0,
        ...(opts.unbounded ? { heavyInFlight: 1_000_000, heavyQueue: 1_000_000, responseBytesInFlight: Number.MAX_SAFE_INTEGER } : {}),
      },
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      // Warm up: one heavy page and the light path, so that first-use costs are not counted as growth.
      for (let i = 0; i < 3; i++) {
        await fetch(`${url}/api/v3/transactions?limit=1000&offset=${i}`).then((r) => r.arrayBuffer());
        await fetch(`${url}/api/v3/masterchainInfo`).then((r) => r.arrayBuffer());
      }
      const span = Math.max(1, stored - 1000);
      const heavy = Array.from({ length: opts.concurrency }, (_, i) => `/api/v3/transactions?limit=1000&offset=${(i * 997) % span}`);
      progress(`${opts.concurrency} concurrent transactions?limit=1000 requests (${opts.unbounded ? 'limits lifted' : 'default limits'}), masterchainInfo back to back meanwhile`);
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const loadBefore = os.loadavg()[0]!;
      const out = await runClient({ url, heavy, light: '/api/v3/masterchainInfo', pid: process.pid, maxAttempts: MAX_ATTEMPTS });
      loop.disable();
      const growth = out.rss_peak_mib - out.rss_before_mib;
      const result: HeavyReadsResult = {
        ...out,
        transactions_stored: stored,
        concurrency: opts.concurrency,
        unbounded: opts.unbounded,
        limits: {
          heavy_rows: config.heavyRows,
          heavy_in_flight: config.heavyInFlight,
          heavy_queue: config.heavyQueue,
          response_mb_in_flight: config.responseMbInFlight,
        },
        rss_growth_mib: growth,
        loop_delay_max_ms: Math.round(loop.max / 1e6),
        loadavg: [Number(loadBefore.toFixed(1)), Number(os.loadavg()[0]!.toFixed(1))],
        met: { rss: growth <= RSS_TARGET_MIB, latency: out.light_max_ms <= LATENCY_TARGET_MS },
      };
      if (opts.resultsFile) writeResultsSection(opts.resultsFile, opts.unbounded ? 'heavy-reads-unbounded' : 'heavy-reads', render(result, opts.command));
      return result;
    } finally {
      await app.close();
    }
  } finally {
    await store.close();
    rmSync(work, { recursive: true, force: true });
  }
}

function render(r: HeavyReadsResult, command: string): string {
  const met = (ok: boolean): string => (ok ? 'met' : 'NOT met');
  const limits = r.unbounded
    ? 'Load-shedding limits lifted (how the gateway ran before it had them)'
    : `Default limits: heavy above ${r.limits.heavy_rows} rows, ${r.limits.heavy_in_flight} in flight, ${r.limits.heavy_queue} waiting, ${r.limits.response_mb_in_flight} MiB of responses in flight`;
  return [
    `## heavy reads${r.unbounded ? ' (limits lifted)' : ''}`,
    '',
    `\`${command}\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${machineLine()}.`,
    '',
    `${r.concurrency} clients at once ask for \`/api/v3/transactions?limit=1000\` (distinct offsets, every cache off) of an embedded store of ` +
      `${r.transactions_stored} transactions, sending a 503 again after its Retry-After; one more client asks for \`masterchainInfo\` back to back ` +
      `meanwhile; the gateway's RSS is sampled from /proc every 10 ms by the client process. ${limits}.`,
    '',
    '| figure | value | target |',
    '|---|---|---|',
    `| RSS growth (peak − before) | ${r.rss_growth_mib} MiB (${r.rss_before_mib} → ${r.rss_peak_mib}) | ≤ 1024 MiB: ${met(r.met.rss)} |`,
    `| masterchainInfo worst | ${r.light_max_ms} ms (p50 ${r.light_p50_ms}, p99 ${r.light_p99_ms}; ${r.light_requests} requests, ${r.light_non200} not 200) | ≤ 1000 ms: ${met(r.met.latency)} |`,
    `| heavy pages served | ${r.heavy_ok} of ${r.concurrency} (${r.heavy_failed} failed or gave up after ${MAX_ATTEMPTS} attempts) in ${r.seconds} s, ${(r.heavy_bytes / 2 ** 20).toFixed(0)} MiB | |`,
    `| 503 answers on the way | ${r.heavy_503} | |`,
    `| heavy page, first send to 200 | p50 ${r.heavy_p50_ms} ms, max ${r.heavy_max_ms} ms | |`,
    `| gateway event loop, longest delay | ${r.loop_delay_max_ms} ms | |`,
    `| machine load average (1 min), before → after | ${r.loadavg[0]} → ${r.loadavg[1]} on ${os.cpus().length} cores | |`,
  ].join('\n');
}
