import { existsSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NonRetryableError } from '../shared/runtime/errors.js';
import { createClassifier, parseCorpusTrace } from '../shared/ton/actions/index.js';
import type { Classifier, Trace } from '../shared/ton/actions/index.js';
import { machineLine, writeResultsSection } from './results.js';

/**
 * `npm run bench -- traces`: action-classification throughput on one core, in transactions per second, over the
 * recorded mainnet traces of TON Center's action corpus (fixtures/action-corpus/traces). The JSON is parsed once
 * before timing; each round classifies every trace (trace tree, matchers, rows) and counts its transactions.
 */

export interface TracesBenchResult {
  /** Transactions per second of this process's CPU time (user + system): one core's rate, whatever else runs. */
  tx_per_cpu_s: number;
  /** Transactions per wall-clock second (lower when other processes share the core). */
  tx_per_s: number;
  tx_per_s_min: number;
  tx_per_s_max: number;
  traces: number;
  transactions: number;
  actions: number;
  rounds: number;
  seconds: number;
}

class TracesBenchUsage extends NonRetryableError {
  constructor(message: string) {
    super('USAGE', `${message}\nusage: tonflow bench traces [--json] [--seconds N] [--dir DIR]`);
  }
}

export function runTracesBench(opts: { dir: string; seconds: number }): TracesBenchResult {
  const corpus: { trace: Trace; classifier: Classifier }[] = [];
  for (const f of readdirSync(opts.dir).filter((x) => x.endsWith('.json')).sort()) {
    const { trace, repo } = parseCorpusTrace(JSON.parse(readFileSync(path.join(opts.dir, f), 'utf8')));
    corpus.push({ trace, classifier: createClassifier(repo) });
  }
  const transactions = corpus.reduce((n, c) => n + c.trace.transactions.length, 0);
  let actions = 0;
  const pass = (): number => {
    let rows = 0;
    for (const c of corpus) rows += c.classifier.classify(c.trace).length;
    return rows;
  };
  actions = pass(); // warm-up
  const rates: number[] = [];
  const cpuRates: number[] = [];
  const end = performance.now() + opts.seconds * 1000;
  while (performance.now() < end) {
    let tx = 0;
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    do {
      pass();
      tx += transactions;
    } while (performance.now() - t0 < 1000);
    const c = process.cpuUsage(c0);
    rates.push((tx * 1000) / (performance.now() - t0));
    cpuRates.push((tx * 1e6) / Math.max(1, c.user + c.system));
  }
  const sorted = [...rates].sort((a, b) => a - b);
  const cpuSorted = [...cpuRates].sort((a, b) => a - b);
  return {
    tx_per_cpu_s: Math.round(cpuSorted[Math.floor(cpuSorted.length / 2)]!),
    tx_per_s: Math.round(sorted[Math.floor(sorted.length / 2)]!),
    tx_per_s_min: Math.round(sorted[0]!),
    tx_per_s_max: Math.round(sorted[sorted.length - 1]!),
    traces: corpus.length,
    transactions,
    actions,
    rounds: rates.length,
    seconds: opts.seconds,
  };
}

/** The `bench traces` command: parses its options, runs, writes the `traces` section of bench/RESULTS.md. */
export function benchTracesCommand(opts: string[], repoRoot: string): number {
  const known = new Set(['--json', '--seconds', '--dir']);
  for (const o of opts) if (o.startsWith('--') && !known.has(o)) throw new TracesBenchUsage(`unknown option ${o}`);
  const value = (name: string): string | undefined => {
    const i = opts.indexOf(name);
    if (i < 0) return undefined;
    const v = opts[i + 1];
    if (v === undefined || v.startsWith('--')) throw new TracesBenchUsage(`${name} needs a value`);
    return v;
  };
  const seconds = Number(value('--seconds') ?? '5');
  if (!Number.isFinite(seconds) || seconds <= 0) throw new TracesBenchUsage('--seconds must be a positive number');
  const dir = path.resolve(value('--dir') ?? path.join(repoRoot, '..', 'shared', 'fixtures', 'action-corpus', 'traces'));
  if (!existsSync(dir)) throw new TracesBenchUsage(`trace folder ${dir} not found (pass --dir DIR)`);
  const r = runTracesBench({ dir, seconds });
  const command = `npm run bench -- traces${opts.length ? ' ' + opts.join(' ') : ''}`;
  writeResultsSection(
    path.join(repoRoot, 'bench', 'RESULTS.md'),
    'traces',
    `## traces — action classification

Command: \`${command}\`
Machine: ${machineLine()}
Date: ${new Date().toISOString()}
Corpus: ${r.traces} recorded mainnet traces of TON Center's action corpus, ${r.transactions} transactions, ${r.actions} actions; JSON parsed before timing; one thread; rounds of about 1 s (${r.rounds} in ${r.seconds} s) after a warm-up pass, median round.

**${r.tx_per_cpu_s} tx per CPU second** (the process's user + system time: one core's rate even when other processes share it; target ≥ 20,000: ${r.tx_per_cpu_s >= 20000 ? 'met' : 'NOT met'}); ${r.tx_per_s} tx per wall second (${r.tx_per_s_min} to ${r.tx_per_s_max} over the rounds; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores at the end).`,
  );
  if (!opts.includes('--json')) process.stdout.write(`traces: ${r.tx_per_cpu_s} tx per CPU second, ${r.tx_per_s} tx/s wall over ${r.transactions} transactions in ${r.traces} traces (bench/RESULTS.md updated)\n`);
  process.stdout.write(JSON.stringify(r) + '\n');
  return 0;
}
