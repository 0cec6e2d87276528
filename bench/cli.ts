import { existsSync } from 'node:fs';
import path from 'node:path';
import { NonRetryableError } from '../shared/runtime/errors.js';

/**
 * `tonflow bench ...` (`npm run bench -- ...`): the benchmarks' command line. Compiled apart from the production
 * build (`npm run build:bench`, bench/tsconfig.json) and loaded by services/tonflow.ts by path, so services/ never
 * imports bench/ and the image carries none of it. Benchmarks read their environment here: they are tools, not
 * services.
 */

/** Bad benchmark arguments: exit code 2 with the message (services/tonflow.ts prints non-retryable errors so). */
export class BenchUsageError extends NonRetryableError {
  constructor(message: string) {
    super('BENCH_USAGE', message);
  }
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) throw new BenchUsageError(`${name} needs a value`);
  return v;
}

/** Rejects an option the command does not know, with the usage. */
function onlyOptions(args: string[], known: readonly string[]): void {
  for (const o of args) if (o.startsWith('--') && !known.includes(o)) throw new BenchUsageError(`unknown option ${o}\n${BENCH_USAGE}`);
}

/** `name`'s value as a positive number, `def` when absent. */
function positiveOption(args: string[], name: string, def: number): number {
  const v = Number(flag(args, name) ?? String(def));
  if (!Number.isFinite(v) || v <= 0) throw new BenchUsageError(`${name} must be a positive number`);
  return v;
}

/** `name`'s value as an integer from 1 to `max`, `def` when absent. */
function integerOption(args: string[], name: string, def: number, max: number): number {
  const v = Number(flag(args, name) ?? String(def));
  if (!Number.isSafeInteger(v) || v <= 0 || v > max) throw new BenchUsageError(`${name} must be an integer from 1 to ${max}`);
  return v;
}

/** `--dir`: a folder of block BOCs, by default the fixture blocks. */
function blockDir(args: string[], repoRoot: string): string {
  const dir = path.resolve(flag(args, '--dir') ?? path.join(repoRoot, '..', 'shared', 'fixtures', 'blocks'));
  if (!existsSync(dir)) throw new BenchUsageError(`block folder ${dir} not found (pass --dir DIR)`);
  return dir;
}

const BENCH_USAGE =
  'usage: tonflow bench decode [--json] [--seconds N] [--dir DIR] [--results FILE]\n       tonflow bench ingest [--json] [--transactions N] [--trace-transactions N] [--rounds N] [--kafka host:port[,host:port...]] [--dir DIR] [--only traces|embedded] [--devnet-dir DIR]' +
  '\n       tonflow bench api [--json] [--transactions N] [--rate R] [--seconds S] [--connections C] [--dir DIR]' +
  '\n       tonflow bench devnet [--json] [--seconds N] [--tps R]' +
  '\n       tonflow bench traces [--json] [--seconds N]' +
  '\n       tonflow bench heavy-reads [--json] [--transactions N] [--concurrency C] [--unbounded]' +
  '\n       tonflow bench tvm [--json] [--transactions N] [--rate R] [--seconds S] [--connections C] [--workers W] [--dir DIR] [--store-dir DIR] [--clickhouse-url URL]' +
  '\n         (--store-dir: build the store there once and reuse it in later runs with the same --transactions;' +
  '\n          --clickhouse-url: the store on that ClickHouse server instead of the embedded engine)' +
  '\n       tonflow bench full-states [--dir DIR]';

/**
 * Default size of the devnet export the ingest benchmark's trace and action stages run on (bench/ingest.ts); a
 * constant here so that the benchmark module loads only when the command runs.
 */
const DEFAULT_TRACE_TRANSACTIONS = 50_000;

/** Runs `bench <which> [options]`; `repoRoot` is the checkout whose bench/RESULTS.md and ../shared fixtures are used. */
export async function runBench(args: string[], repoRoot: string, env: NodeJS.ProcessEnv): Promise<number> {
  const [which, ...opts] = args;
  if (which === 'ingest') return benchIngest(opts, repoRoot, env);
  if (which === 'api') return benchApi(opts, repoRoot);
  if (which === 'devnet') return benchDevnet(opts, repoRoot);
  if (which === 'tvm') return benchTvm(opts, repoRoot);
  if (which === 'heavy-reads') return benchHeavyReads(opts, repoRoot, env);
  if (which === 'traces') return (await import('./traces.js')).benchTracesCommand(opts, repoRoot);
  if (which === 'full-states') {
    return (await import('./full-states.js')).benchFullStatesCommand(blockDir(opts, repoRoot));
  }
  if (which !== 'decode') throw new BenchUsageError(BENCH_USAGE);
  const json = opts.includes('--json');
  const seconds = positiveOption(opts, '--seconds', 5);
  const dir = blockDir(opts, repoRoot);
  const resultsFile = path.resolve(flag(opts, '--results') ?? path.join(repoRoot, 'bench', 'RESULTS.md'));
  const { runDecodeBench } = await import('./decode.js');
  const result = runDecodeBench({
    dir,
    seconds,
    resultsFile,
    command: `npm run bench -- decode${opts.length ? ' ' + opts.join(' ') : ''}`,
  });
  if (!json) {
    process.stdout.write(
      `decode: ${result.tx_per_s} tx/s, ${result.cells_per_s} cells/s; @ton/core baseline ${result.baseline_tx_per_s} tx/s; ` +
        `${result.ratio}x; peak RSS ${result.peak_rss_mb} MiB (${path.relative(process.cwd(), resultsFile)} updated)\n`,
    );
  }
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}

/** `bench ingest`: the whole pipeline on a corpus of distinct transactions, embedded and (given a broker) via Kafka. */
async function benchIngest(opts: string[], repoRoot: string, env: NodeJS.ProcessEnv): Promise<number> {
  onlyOptions(opts, ['--json', '--transactions', '--trace-transactions', '--rounds', '--kafka', '--dir', '--only', '--devnet-dir']);
  const devnetDir = flag(opts, '--devnet-dir');
  const json = opts.includes('--json');
  const only = flag(opts, '--only');
  if (only !== undefined && only !== 'traces' && only !== 'embedded') {
    throw new BenchUsageError(`--only takes "traces" (the devnet rows alone) or "embedded" (the default embedded row alone, not recorded), got "${only}"`);
  }
  const transactions = integerOption(opts, '--transactions', 200_000, 100_000_000);
  const traceTransactions = integerOption(opts, '--trace-transactions', DEFAULT_TRACE_TRANSACTIONS, 100_000_000);
  const { DEFAULT_ROUNDS, runIngestBench, runIngestEmbeddedBench, runIngestTracesBench } = await import('./ingest.js');
  const rounds = integerOption(opts, '--rounds', DEFAULT_ROUNDS, 20);
  const dir = blockDir(opts, repoRoot);
  const command = `npm run bench -- ingest${opts.length ? ' ' + opts.join(' ') : ''}`;
  if (only === 'embedded') {
    const runs = await runIngestEmbeddedBench({ transactions, rounds, fixturesDir: dir, progress: (line) => process.stderr.write(`${line}\n`) });
    process.stdout.write(JSON.stringify(runs.map(({ tables: _, ...r }) => r)) + '\n');
    return 0;
  }
  if (only === 'traces') {
    if (opts.includes('--transactions') || opts.includes('--kafka')) throw new BenchUsageError('--only traces runs the devnet rows alone: --transactions and --kafka do not apply');
    const r = await runIngestTracesBench({
      traceTransactions,
      ...(devnetDir !== undefined ? { devnetDir: path.resolve(devnetDir) } : {}),
      rounds,
      fixturesDir: dir,
      resultsFile: path.join(repoRoot, 'bench', 'RESULTS.md'),
      command,
      progress: (line) => process.stderr.write(`${line}\n`),
    });
    if (!json) {
      const t = r.embedded_traces;
      process.stdout.write(
        `ingest --only traces: ${t.transactions} devnet transactions; decode stage alone ${r.devnet_decode.tx_per_s} tx/s, with traces and actions ${t.tx_per_s} tx/s ` +
          `(${t.stages?.traces ?? 0} traces, ${t.stages?.actions ?? 0} actions); action stage alone ${r.action_stage.tx_per_s} tx/s (bench/RESULTS.md updated)\n`,
      );
    }
    process.stdout.write(JSON.stringify(r) + '\n');
    return 0;
  }
  const kafkaFlag = flag(opts, '--kafka');
  const kafkaEnv = env.KAFKA_BROKERS?.trim() || undefined;
  const kafkaRaw = kafkaFlag ?? kafkaEnv;
  const kafkaBrokers = kafkaRaw === undefined ? null : kafkaRaw.split(',').map((b) => b.trim()).filter((b) => b !== '');
  if (kafkaBrokers !== null && (kafkaBrokers.length === 0 || kafkaBrokers.some((b) => !/^[^\s:]+:\d{1,5}$/.test(b)))) {
    throw new BenchUsageError(`--kafka / KAFKA_BROKERS must be host:port[,host:port...], got "${kafkaRaw}"`);
  }
  const result = await runIngestBench({
    transactions,
    traceTransactions,
    ...(devnetDir !== undefined ? { devnetDir: path.resolve(devnetDir) } : {}),
    rounds,
    fixturesDir: dir,
    kafkaBrokers,
    kafkaOrigin: kafkaFlag !== undefined ? '--kafka' : 'KAFKA_BROKERS',
    resultsFile: path.join(repoRoot, 'bench', 'RESULTS.md'),
    command,
    progress: (line) => process.stderr.write(`${line}\n`),
  });
  if (!json) {
    const k = 'skipped' in result.kafka ? `kafka: not run (${result.kafka.skipped})` : `kafka ${result.kafka.tx_per_s} tx/s`;
    const t = result.embedded_traces;
    process.stdout.write(
      `ingest: ${result.corpus.transactions} transactions; embedded ${result.embedded.tx_per_s} tx/s, ${k}; ` +
        `with traces and actions ${t.tx_per_s} tx/s on ${t.transactions} devnet transactions (${t.stages?.traces ?? 0} traces, ${t.stages?.actions ?? 0} actions); ` +
        `on disk ${result.embedded.bytes_per_tx} bytes/tx (corpus) to ${result.real.bytes_per_tx} (real fixture blocks) (bench/RESULTS.md updated)\n`,
    );
  }
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}

/** `bench api`: the gateway under load on a store of ≥ 1,000,000 transactions (embedded); writes bench/RESULTS.md. */
async function benchApi(opts: string[], repoRoot: string): Promise<number> {
  onlyOptions(opts, ['--json', '--transactions', '--rate', '--seconds', '--connections', '--dir']);
  const dir = blockDir(opts, repoRoot);
  const { runApiBench } = await import('./api.js');
  const result = await runApiBench({
    transactions: Math.round(positiveOption(opts, '--transactions', 1_000_000)),
    fixturesDir: dir,
    rate: positiveOption(opts, '--rate', 500),
    seconds: positiveOption(opts, '--seconds', 20),
    connections: Math.round(positiveOption(opts, '--connections', 64)),
    resultsFile: path.join(repoRoot, 'bench', 'RESULTS.md'),
    command: `npm run bench -- api${opts.length ? ' ' + opts.join(' ') : ''}`,
    progress: (line) => process.stderr.write(`${line}\n`),
  });
  if (!opts.includes('--json')) {
    for (const run of result.runs) {
      for (const e of run.endpoints) process.stdout.write(`caches ${run.caches}, ${e.name}: p99 ${e.p99_ms} ms at ${e.rps} req/s\n`);
    }
    for (const e of result.during_writes.results) {
      process.stdout.write(`during writes, ${e.read_connections} read sessions, ${e.name}: p99 ${e.p99_ms} ms at ${e.rps} req/s\n`);
    }
  }
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}

/** `bench tvm`: runGetMethod and getAddressInformation p99 at a fixed rate on one gateway; writes bench/RESULTS.md. */
async function benchTvm(opts: string[], repoRoot: string): Promise<number> {
  onlyOptions(opts, ['--json', '--transactions', '--rate', '--seconds', '--connections', '--workers', '--dir', '--store-dir', '--clickhouse-url']);
  const dir = blockDir(opts, repoRoot);
  const storeDir = flag(opts, '--store-dir');
  const { runTvmBench } = await import('./tvm.js');
  const result = await runTvmBench({
    transactions: Math.round(positiveOption(opts, '--transactions', 1_000_000)),
    fixturesDir: dir,
    rate: positiveOption(opts, '--rate', 500),
    seconds: positiveOption(opts, '--seconds', 20),
    connections: Math.round(positiveOption(opts, '--connections', 64)),
    workers: Math.round(positiveOption(opts, '--workers', 2)),
    storeDir: storeDir === undefined ? null : path.resolve(storeDir),
    clickhouseUrl: flag(opts, '--clickhouse-url') ?? null,
    resultsFile: path.join(repoRoot, 'bench', 'RESULTS.md'),
    command: `npm run bench -- tvm${opts.length ? ' ' + opts.join(' ') : ''}`,
    progress: (line) => process.stderr.write(`${line}\n`),
  });
  if (!opts.includes('--json')) {
    for (const e of result.endpoints) process.stdout.write(`${e.name}: p99 ${e.p99} ms at ${e.rps} req/s (target ${e.met ? 'met' : 'NOT met'})\n`);
  }
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}

/** `bench devnet`: the devnet's sealed transactions per second, back to back and at --devnet-tps; writes bench/RESULTS.md. */
async function benchDevnet(opts: string[], repoRoot: string): Promise<number> {
  onlyOptions(opts, ['--json', '--seconds', '--tps']);
  const { runDevnetBench } = await import('./devnet.js');
  const result = await runDevnetBench({
    seconds: positiveOption(opts, '--seconds', 20),
    tps: positiveOption(opts, '--tps', 500),
    resultsFile: path.join(repoRoot, 'bench', 'RESULTS.md'),
    command: `npm run bench -- devnet${opts.length ? ' ' + opts.join(' ') : ''}`,
    progress: (line) => process.stderr.write(`${line}\n`),
  });
  if (!opts.includes('--json')) {
    const { max, sustained } = result;
    process.stdout.write(
      `devnet: max ${max.tx_per_s} tx/s (${max.tx_per_cpu_s} per CPU second); sustained at --devnet-tps ${result.target_tx_per_s}: ` +
        `${sustained.tx_per_s} tx/s on ${sustained.cpu_cores} CPU s per s, block interval ${sustained.interval_ms_mean} ms mean / ${sustained.interval_ms_max} max ` +
        `(target ${result.met ? 'met' : 'NOT met'}); peak RSS ${result.peak_rss_mb} MiB (bench/RESULTS.md updated)\n`,
    );
  }
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}

/** `bench heavy-reads`: the gateway's memory and cheap-endpoint latency while 200 clients ask for its heaviest pages. */
async function benchHeavyReads(opts: string[], repoRoot: string, env: NodeJS.ProcessEnv): Promise<number> {
  onlyOptions(opts, ['--json', '--transactions', '--concurrency', '--unbounded', '--dir']);
  const dir = blockDir(opts, repoRoot);
  const { runHeavyReadsBench } = await import('./heavy-reads.js');
  const result = await runHeavyReadsBench({
    transactions: integerOption(opts, '--transactions', 20_000, 2_000_000),
    // Bounded: one loopback connection per client.
    concurrency: integerOption(opts, '--concurrency', 200, 1000),
    unbounded: opts.includes('--unbounded'),
    env,
    fixturesDir: dir,
    resultsFile: path.join(repoRoot, 'bench', 'RESULTS.md'),
    command: `npm run bench -- heavy-reads${opts.length ? ' ' + opts.join(' ') : ''}`,
    progress: (line) => process.stderr.write(`${line}\n`),
  });
  if (!opts.includes('--json')) {
    process.stdout.write(
      `heavy-reads: RSS growth ${result.rss_growth_mib} MiB (${result.met.rss ? 'met' : 'NOT met'}), masterchainInfo worst ${result.light_max_ms} ms ` +
        `(${result.met.latency ? 'met' : 'NOT met'}); ${result.heavy_ok}/${result.concurrency} heavy pages in ${result.seconds} s, ${result.heavy_503} 503s (bench/RESULTS.md updated)\n`,
    );
  }
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}
