#!/usr/bin/env -S node --max-semi-space-size=64 --heap-growing-percent=300
// A 64 MiB young generation: decoding allocates many short-lived records per block, and with V8's default
// (16 MiB) they survive into the old generation and cost full collections (see bench/RESULTS.md).
// The old generation grows to 4x what the last full collection left before the next one: the gateway's live heap is
// small, and with V8's own factor a transactionsByMessage run at 500 req/s (big transactions' documents and
// responses are large objects) took many full collections, each one a core taken from the store's statements
// (bench/RESULTS.md, api).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BaseError } from '../shared/runtime/errors.js';
import { DecodeError } from '../shared/ton/errors.js';

/** Repository root: this file is `dist/services/tonflow.js` once built. */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const USAGE = `usage: tonflow <command> [options]

commands:
  start [--source files:DIR|mainnet|testnet] [--data DIR] [--port N] [--mode embedded|distributed] ...
                                follower, decode, trace and action stages in one process (embedded default: in-process bus, chdb)
  follower, indexer, traces, actions
                                one stage each, for --mode distributed (Kafka + ClickHouse server)
  gateway [--port N] [--api-keys-file FILE] ...
                                the TON Center API v3 (and v2 block operations) over the store
  migrate                       apply pending ClickHouse migrations and exit
  devnet export --transactions N --out DIR [--devnet-tps N] [--block-ms MS] [--devnet-traffic PROFILE] [--seed S]
                                run a fresh local devnet (real TVM) and write its block BOCs to DIR (for --source files:DIR)
  decode-block FILE.boc         decode a block BOC to {"block": <v3 Block>, "transactions": [<v3 Transaction>...]}
  classify-trace --format toncenter-corpus FILE.json...
                                classify recorded traces: one {"file", "actions": [<action rows>]} line per file
  bench ...                     benchmarks, from a source checkout after \`npm run build:bench\` (or \`npm run bench -- ...\`):
  bench decode [--json] [--seconds N] [--dir DIR] [--results FILE]
                                block decoding throughput vs the @ton/core baseline; writes bench/RESULTS.md
  bench ingest [--json] [--transactions N] [--trace-transactions N] [--rounds N] [--kafka host:port] [--only traces]
                                files → bus → decode → ClickHouse end to end, embedded and through Kafka
                                (KAFKA_BROKERS or --kafka); --only traces: the devnet rows with the trace and
                                action stages, and the action stage alone; writes bench/RESULTS.md
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
    case 'classify-trace':
      return (await import('./classify/cli.js')).classifyTraceCommand(rest);
    case 'devnet':
      return devnetCommand(rest);
    case 'bench':
      return benchCommand(rest);
    case 'start':
    case 'follower':
    case 'indexer':
    case 'traces':
    case 'actions': {
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

/**
 * `bench ...`: the benchmarks are tools of a source checkout, not part of the production build (`npm run build`) or
 * the image; `npm run build:bench` compiles them to dist/bench/. They are loaded by path at run time, so that no
 * module of services/ imports bench/ and tsc does not pull them into the production build.
 */
async function benchCommand(args: string[]): Promise<number> {
  const entry = path.join(repoRoot, 'dist', 'bench', 'cli.js');
  if (!existsSync(entry)) {
    throw new UsageError('the benchmarks are not part of this build: in a source checkout, run `npm run build:bench` (or `npm run bench -- ...`)');
  }
  const bench = (await import(pathToFileURL(entry).href)) as { runBench(args: string[], repoRoot: string, env: NodeJS.ProcessEnv): Promise<number> };
  return bench.runBench(args, repoRoot, process.env);
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
  const { block, transactions } = decodeBlock(bytes, { cells: false, transactionBocs: false });
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
