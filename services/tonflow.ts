#!/usr/bin/env -S node --max-semi-space-size=64 --heap-growing-percent=300
// A 64 MiB young generation: decoding allocates many short-lived records per block, and with V8's default
// (16 MiB) they survive into the old generation and cost full collections (see bench/RESULTS.md).
// The old generation grows to 4x what the last full collection left before the next one: the gateway's live heap is
// ~26 MiB, and with V8's own factor a transactionsByMessage run at 500 req/s (big transactions' documents and
// responses are large objects) took 9-27 full collections in 15-20 s, each one a core taken from the store's
// statements; with this, none (bench/RESULTS.md, api).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseError } from '../shared/runtime/errors.js';
import { DecodeError } from '../shared/ton/errors.js';

/** Repository root: this file is `dist/services/tonflow.js` once built. */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const USAGE = `usage: tonflow <command> [options]

commands:
  start [--source files:DIR|mainnet|testnet] [--data DIR] [--port N] [--mode embedded|distributed] ...
                                follower and decode stage in one process (embedded default: in-process bus, chdb)
  follower, indexer             one stage each, for --mode distributed (Kafka + ClickHouse server)
  gateway [--port N] [--api-keys-file FILE] ...
                                the TON Center API v3 (and v2 block operations) over the store
  migrate                       apply pending ClickHouse migrations and exit
  devnet export --transactions N --out DIR [--devnet-tps N] [--block-ms MS] [--devnet-traffic PROFILE] [--seed S]
                                run a fresh local devnet (real TVM) and write its block BOCs to DIR (for --source files:DIR)
  decode-block FILE.boc         decode a block BOC to {"block": <v3 Block>, "transactions": [<v3 Transaction>...]}
  bench decode [--json] [--seconds N] [--dir DIR] [--results FILE]
                                block decoding throughput vs the @ton/core baseline; writes bench/RESULTS.md
  bench ingest [--json] [--transactions N] [--rounds N] [--kafka host:port]
                                files → bus → decode → ClickHouse end to end, embedded and through Kafka
                                (KAFKA_BROKERS or --kafka); writes bench/RESULTS.md
  bench api [--json] [--transactions N] [--rate R] [--seconds S]
                                gateway p99 latency at a fixed rate on a store of ≥ 1M transactions; writes bench/RESULTS.md
  bench heavy-reads [--json] [--transactions N] [--concurrency C] [--unbounded]
                                gateway RSS growth and worst masterchainInfo latency under C (200) concurrent
                                transactions?limit=1000 requests; writes bench/RESULTS.md
  bench devnet [--json] [--seconds N] [--tps R]
                                devnet sealed tx/s: back to back, and sustained at --devnet-tps R (default 500) on
                                1000 ms blocks, with CPU per wall second and the traffic mix; writes bench/RESULTS.md
`;

/** Exit codes: 0 ok, 1 unexpected failure, 2 bad input or usage. */
class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'decode-block':
      return decodeBlockCommand(rest);
    case 'devnet':
      return devnetCommand(rest);
    case 'bench':
      return benchCommand(rest);
    case 'start':
    case 'follower':
    case 'indexer': {
      const { main: run } = await import('./start/main.js');
      return run(command, rest, process.env);
    }
    case 'migrate': {
      const { main: run } = await import('./migrate/main.js');
      return run(rest, process.env);
    }
    case 'gateway': {
      const { main: run } = await import('./gateway/main.js');
      return run(rest, process.env);
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command "${command}"\n${USAGE}`);
  }
}

async function decodeBlockCommand(args: string[]): Promise<number> {
  if (args.length !== 1 || args[0]!.startsWith('-')) throw new UsageError('usage: tonflow decode-block FILE.boc');
  const file = args[0]!;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const { decodeBlock } = await import('../shared/ton/decode-block.js');
  const { block, transactions } = decodeBlock(bytes);
  process.stdout.write(JSON.stringify({ block, transactions }) + '\n');
  return 0;
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) throw new UsageError(`${name} needs a value`);
  return v;
}

const BENCH_USAGE =
  'usage: tonflow bench decode [--json] [--seconds N] [--dir DIR] [--results FILE]\n       tonflow bench ingest [--json] [--transactions N] [--rounds N] [--kafka host:port[,host:port...]] [--dir DIR]' +
  '\n       tonflow bench api [--json] [--transactions N] [--rate R] [--seconds S] [--connections C] [--dir DIR]' +
  '\n       tonflow bench devnet [--json] [--seconds N] [--tps R]' +
  '\n       tonflow bench heavy-reads [--json] [--transactions N] [--concurrency C] [--unbounded]';

async function benchCommand(args: string[]): Promise<number> {
  const [which, ...opts] = args;
  if (which === 'ingest') return benchIngest(opts);
  if (which === 'api') return benchApi(opts);
  if (which === 'devnet') return benchDevnet(opts);
  if (which === 'heavy-reads') return benchHeavyReads(opts);
  if (which !== 'decode') throw new UsageError(BENCH_USAGE);
  const json = opts.includes('--json');
  const seconds = Number(flag(opts, '--seconds') ?? '5');
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError('--seconds must be a positive number');
  const dir = path.resolve(flag(opts, '--dir') ?? path.join(repoRoot, '..', 'shared', 'fixtures', 'blocks'));
  if (!existsSync(dir)) throw new UsageError(`block folder ${dir} not found (pass --dir DIR)`);
  const resultsFile = path.resolve(flag(opts, '--results') ?? path.join(repoRoot, 'bench', 'RESULTS.md'));
  const { runDecodeBench } = await import('../bench/decode.js');
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
async function benchIngest(opts: string[]): Promise<number> {
  const known = new Set(['--json', '--transactions', '--rounds', '--kafka', '--dir']);
  for (const o of opts) if (o.startsWith('--') && !known.has(o)) throw new UsageError(`unknown option ${o}\n${BENCH_USAGE}`);
  const json = opts.includes('--json');
  const transactions = Number(flag(opts, '--transactions') ?? '200000');
  if (!Number.isSafeInteger(transactions) || transactions <= 0) throw new UsageError('--transactions must be a positive integer');
  const roundsFlag = flag(opts, '--rounds');
  const rounds = roundsFlag === undefined ? undefined : Number(roundsFlag);
  if (rounds !== undefined && (!Number.isSafeInteger(rounds) || rounds <= 0 || rounds > 20)) throw new UsageError('--rounds must be an integer from 1 to 20');
  const dir = path.resolve(flag(opts, '--dir') ?? path.join(repoRoot, '..', 'shared', 'fixtures', 'blocks'));
  if (!existsSync(dir)) throw new UsageError(`block folder ${dir} not found (pass --dir DIR)`);
  // Benchmarks read their environment here, like the decode bench's flags: they are tools, not services.
  const kafkaFlag = flag(opts, '--kafka');
  const kafkaEnv = process.env.KAFKA_BROKERS?.trim() || undefined;
  const kafkaRaw = kafkaFlag ?? kafkaEnv;
  const kafkaBrokers = kafkaRaw === undefined ? null : kafkaRaw.split(',').map((b) => b.trim()).filter((b) => b !== '');
  if (kafkaBrokers !== null && (kafkaBrokers.length === 0 || kafkaBrokers.some((b) => !/^[^\s:]+:\d{1,5}$/.test(b)))) {
    throw new UsageError(`--kafka / KAFKA_BROKERS must be host:port[,host:port...], got "${kafkaRaw}"`);
  }
  const { runIngestBench } = await import('../bench/ingest.js');
  const result = await runIngestBench({
    transactions,
    ...(rounds !== undefined ? { rounds } : {}),
    fixturesDir: dir,
    kafkaBrokers,
    kafkaOrigin: kafkaFlag !== undefined ? '--kafka' : 'KAFKA_BROKERS',
    resultsFile: path.join(repoRoot, 'bench', 'RESULTS.md'),
    command: `npm run bench -- ingest${opts.length ? ' ' + opts.join(' ') : ''}`,
    progress: (line) => process.stderr.write(`${line}\n`),
  });
  if (!json) {
    const k = 'skipped' in result.kafka ? `kafka: not run (${result.kafka.skipped})` : `kafka ${result.kafka.tx_per_s} tx/s`;
    process.stdout.write(
      `ingest: ${result.corpus.transactions} transactions; embedded ${result.embedded.tx_per_s} tx/s, ${k}; ` +
        `on disk ${result.embedded.bytes_per_tx} bytes/tx (corpus) to ${result.real.bytes_per_tx} (real fixture blocks) (bench/RESULTS.md updated)\n`,
    );
  }
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}

/** `bench api`: the gateway under load on a store of ≥ 1,000,000 transactions (embedded); writes bench/RESULTS.md. */
async function benchApi(opts: string[]): Promise<number> {
  const known = new Set(['--json', '--transactions', '--rate', '--seconds', '--connections', '--dir']);
  for (const o of opts) if (o.startsWith('--') && !known.has(o)) throw new UsageError(`unknown option ${o}\n${BENCH_USAGE}`);
  const num = (name: string, def: number): number => {
    const v = Number(flag(opts, name) ?? String(def));
    if (!Number.isFinite(v) || v <= 0) throw new UsageError(`${name} must be a positive number`);
    return v;
  };
  const dir = path.resolve(flag(opts, '--dir') ?? path.join(repoRoot, '..', 'shared', 'fixtures', 'blocks'));
  if (!existsSync(dir)) throw new UsageError(`block folder ${dir} not found (pass --dir DIR)`);
  const { runApiBench } = await import('../bench/api.js');
  const result = await runApiBench({
    transactions: Math.round(num('--transactions', 1_000_000)),
    fixturesDir: dir,
    rate: num('--rate', 500),
    seconds: num('--seconds', 20),
    connections: Math.round(num('--connections', 64)),
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

/** `bench heavy-reads`: the gateway under many concurrent heaviest pages; writes bench/RESULTS.md. */
async function benchHeavyReads(opts: string[]): Promise<number> {
  const known = new Set(['--json', '--transactions', '--concurrency', '--unbounded', '--dir']);
  for (const o of opts) if (o.startsWith('--') && !known.has(o)) throw new UsageError(`unknown option ${o}\n${BENCH_USAGE}`);
  const int = (name: string, def: number, max: number): number => {
    const v = Number(flag(opts, name) ?? String(def));
    if (!Number.isSafeInteger(v) || v <= 0 || v > max) throw new UsageError(`${name} must be an integer from 1 to ${max}`);
    return v;
  };
  const dir = path.resolve(flag(opts, '--dir') ?? path.join(repoRoot, '..', 'shared', 'fixtures', 'blocks'));
  if (!existsSync(dir)) throw new UsageError(`block folder ${dir} not found (pass --dir DIR)`);
  const { runHeavyReadsBench } = await import('../bench/heavy-reads.js');
  const result = await runHeavyReadsBench({
    transactions: int('--transactions', 20_000, 2_000_000),
    // Bounded: one loopback connection per client.
    concurrency: int('--concurrency', 200, 1000),
    unbounded: opts.includes('--unbounded'),
    env: process.env,
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

/** `bench devnet`: the devnet's sealed transactions per second, back to back and at --devnet-tps; writes bench/RESULTS.md. */
async function benchDevnet(opts: string[]): Promise<number> {
  const known = new Set(['--json', '--seconds', '--tps']);
  for (const o of opts) if (o.startsWith('--') && !known.has(o)) throw new UsageError(`unknown option ${o}\n${BENCH_USAGE}`);
  const num = (name: string, def: number): number => {
    const v = Number(flag(opts, name) ?? String(def));
    if (!Number.isFinite(v) || v <= 0) throw new UsageError(`${name} must be a positive number`);
    return v;
  };
  const { runDevnetBench } = await import('../bench/devnet.js');
  const result = await runDevnetBench({
    seconds: num('--seconds', 20),
    tps: num('--tps', 500),
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

const DEVNET_USAGE =
  'usage: tonflow devnet export --transactions N --out DIR [--devnet-tps N] [--block-ms MS] [--devnet-traffic default|transfers|tokens] [--seed S]';

/** `devnet export`: a corpus of real devnet blocks, written as files the files source replays. */
async function devnetCommand(args: string[]): Promise<number> {
  const [which, ...opts] = args;
  if (which !== 'export') throw new UsageError(DEVNET_USAGE);
  const known = new Set(['--transactions', '--out', '--devnet-tps', '--block-ms', '--devnet-traffic', '--seed', '--json']);
  for (const o of opts) if (o.startsWith('--') && !known.has(o)) throw new UsageError(`unknown option ${o}\n${DEVNET_USAGE}`);
  const positive = (name: string, def: string | undefined): number => {
    const raw = flag(opts, name) ?? def;
    if (raw === undefined) throw new UsageError(`${name} is required\n${DEVNET_USAGE}`);
    const v = Number(raw);
    if (!Number.isSafeInteger(v) || v <= 0) throw new UsageError(`${name} must be a positive integer, got "${raw}"`);
    return v;
  };
  const transactions = positive('--transactions', undefined);
  const out = flag(opts, '--out');
  if (out === undefined) throw new UsageError(`--out is required\n${DEVNET_USAGE}`);
  const traffic = flag(opts, '--devnet-traffic') ?? 'default';
  if (traffic !== 'default' && traffic !== 'transfers' && traffic !== 'tokens') {
    throw new UsageError(`--devnet-traffic must be default, transfers or tokens for an export, got "${traffic}"`);
  }
  const { exportDevnet } = await import('../shared/sources/devnet/export.js');
  const result = await exportDevnet({
    out: path.resolve(out),
    transactions,
    tps: positive('--devnet-tps', '1000'),
    blockMs: positive('--block-ms', '1000'),
    traffic,
    ...(flag(opts, '--seed') !== undefined ? { seed: flag(opts, '--seed')! } : {}),
    onProgress: (p) => process.stderr.write(`devnet export: ${p.transactions} transactions in ${p.blocks} blocks, ${p.txPerCpuSecond} tx per CPU second\n`),
  });
  if (!opts.includes('--json')) {
    process.stdout.write(
      `devnet export: ${result.transactions} transactions in ${result.blocks} blocks (${(result.bytes / 1e6).toFixed(1)} MB) to ${path.resolve(out)}; ` +
        `${result.txPerSecond} tx/s (${result.txPerCpuSecond} per CPU second, one core), peak RSS ${result.peakRssMb} MiB\n`,
    );
  }
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof DecodeError) {
      process.stderr.write(`error: ${e.code}: ${e.message}\n`);
      process.exitCode = 2;
    } else if (e instanceof BaseError && !e.retryable) {
      // Configuration and other non-retryable failures: the message is the whole story.
      process.stderr.write(`error: ${e.code}: ${e.message}\n`);
      process.exitCode = 2;
    } else if (e instanceof UsageError) {
      process.stderr.write(`error: ${e.message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`error: unexpected failure: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    }
  },
);
