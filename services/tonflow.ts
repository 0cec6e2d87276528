#!/usr/bin/env -S node --max-semi-space-size=64
// A 64 MiB young generation: decoding allocates many short-lived records per block, and with V8's default
// (16 MiB) they survive into the old generation and cost full collections (see bench/RESULTS.md).
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
  migrate                       apply pending ClickHouse migrations and exit
  decode-block FILE.boc         decode a block BOC to {"block": <v3 Block>, "transactions": [<v3 Transaction>...]}
  bench decode [--json] [--seconds N] [--dir DIR]
                                block decoding throughput vs the @ton/core baseline; writes bench/RESULTS.md
`;

/** Exit codes: 0 ok, 1 unexpected failure, 2 bad input or usage. */
class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'decode-block':
      return decodeBlockCommand(rest);
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
    case 'gateway':
      throw new UsageError('"gateway" is not built yet: the TON Center API arrives with its own issue');
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

async function benchCommand(args: string[]): Promise<number> {
  const [which, ...opts] = args;
  if (which !== 'decode') throw new UsageError(`usage: tonflow bench decode [--json] [--seconds N] [--dir DIR]`);
  const json = opts.includes('--json');
  const seconds = Number(flag(opts, '--seconds') ?? '5');
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError('--seconds must be a positive number');
  const dir = path.resolve(flag(opts, '--dir') ?? path.join(repoRoot, '..', 'shared', 'fixtures', 'blocks'));
  if (!existsSync(dir)) throw new UsageError(`block folder ${dir} not found (pass --dir DIR)`);
  const { runDecodeBench } = await import('../bench/decode.js');
  const result = runDecodeBench({
    dir,
    seconds,
    resultsFile: path.join(repoRoot, 'bench', 'RESULTS.md'),
    command: `npm run bench -- decode${opts.length ? ' ' + opts.join(' ') : ''}`,
  });
  if (!json) {
    process.stdout.write(
      `decode: ${result.tx_per_s} tx/s, ${result.cells_per_s} cells/s; @ton/core baseline ${result.baseline_tx_per_s} tx/s; ` +
        `${result.ratio}x; peak RSS ${result.peak_rss_mb} MiB (bench/RESULTS.md updated)\n`,
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
