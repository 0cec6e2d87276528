import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { decodeBlock } from '../shared/ton/decode-block.js';
import { Boc } from '../shared/ton/boc/reader.js';
import { baselineDecode } from './baseline-toncore.js';
import { machineLine, writeResultsSection } from './results.js';

export interface DecodeBenchOptions {
  /** Folder of block BOCs (the fixture blocks by default). */
  dir: string;
  /** Minimum measured time per contender. */
  seconds: number;
  /** Where to write the results section; null to skip. */
  resultsFile: string | null;
  command: string;
}

export interface DecodeBenchResult {
  tx_per_s: number;
  cells_per_s: number;
  /** Same decode when the source supplies the block's root and file hash (a liteserver's BlockIdExt): what the decode stage runs. */
  tx_per_s_known_root: number;
  /**
   * The v3 records and states alone (no transaction BOCs, no cell-store cells): the outputs the decoder had before
   * API v2 `data` (0020) and the cell store (0025), for a like-for-like regression check. Root hash computed.
   */
  tx_per_s_records: number;
  /** As `tx_per_s_records`, root hash from the source. */
  tx_per_s_records_known_root: number;
  /** Median over the rounds of (records-only decode ÷ baseline). */
  ratio_records: number;
  /** Median over the rounds of (records-only decode with the root hash from the source ÷ baseline). */
  ratio_records_known_root: number;
  baseline_tx_per_s: number;
  baseline_cells_per_s: number;
  /** Median over the rounds of (tonflow ÷ baseline) in the same round. */
  ratio: number;
  ratio_min: number;
  ratio_max: number;
  /** Slowest and fastest round of the full decode (tx_per_s is the median round). */
  tx_per_s_min: number;
  tx_per_s_max: number;
  rounds: number;
  blocks: number;
  transactions: number;
  cells: number;
  bytes: number;
  peak_rss_mb: number;
  peak_heap_mb: number;
  seconds: number;
}

interface Corpus {
  files: Array<{ name: string; bytes: Buffer; rootHash: Uint8Array; fileHash: Uint8Array }>;
  transactions: number;
  cells: number;
  bytes: number;
}

function loadCorpus(dir: string): Corpus {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.boc'))
    .sort()
    .map((name) => {
      const bytes = readFileSync(path.join(dir, name));
      const boc = Boc.parse(bytes);
      boc.hashAll();
      return { name, bytes, rootHash: boc.hash(boc.root).slice(), fileHash: new Uint8Array(32) };
    });
  let transactions = 0;
  let cells = 0;
  let bytes = 0;
  for (const f of files) {
    transactions += decodeBlock(f.bytes).transactions.length;
    cells += Boc.parse(f.bytes).count;
    bytes += f.bytes.length;
  }
  return { files, transactions, cells, bytes };
}

/** Passes per second of each contender in one round, and the pass counts behind them. */
interface Round {
  rates: number[];
}

/**
 * Runs the contenders in alternating rounds of about one second each until each has had `seconds` of time (after
 * one warm-up pass of each). This machine is a VM whose speed moves by 2-3x within minutes (other tenants), so
 * contenders measured one after the other can see different machines; rounds side by side see the same one, and
 * the per-round ratio is what the report rests on.
 */
function measureRounds(seconds: number, passes: Array<() => void>, sample: () => void): Round[] {
  for (const pass of passes) pass();
  const rounds: Round[] = [];
  const slice = Math.min(1, seconds);
  const spent = passes.map(() => 0);
  while (spent.some((s) => s < seconds * 1000)) {
    const rates = passes.map((pass, i) => {
      const t0 = performance.now();
      let n = 0;
      do {
        pass();
        sample();
        n++;
      } while (performance.now() - t0 < slice * 1000);
      const ms = performance.now() - t0;
      spent[i]! += ms;
      return n / (ms / 1000);
    });
    rounds.push({ rates });
  }
  return rounds;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The baseline's tx/s on the host of the earlier decode runs (2026-11-24 20:08 UTC): the yardstick for absolute rates. */
const REFERENCE_BASELINE = 1442;

/** The decoder's outputs before transaction BOCs (0020) and the cell store (0025): records and states only. */
const RECORDS_ONLY = { cells: false, transactionBocs: false } as const;

/**
 * Decodes every block of the corpus to v3 records (root hash included, which means hashing every cell) and, in
 * the same process, runs the @ton/core baseline over the same bytes. Single-threaded: one core.
 */
export function runDecodeBench(opts: DecodeBenchOptions): DecodeBenchResult {
  const corpus = loadCorpus(opts.dir);
  let peakRss = 0;
  let peakHeap = 0;
  const sample = (): void => {
    const m = process.memoryUsage();
    if (m.rss > peakRss) peakRss = m.rss;
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
  };
  let sink = 0;
  const rounds = measureRounds(
    opts.seconds,
    [
      () => {
        for (const f of corpus.files) sink += decodeBlock(f.bytes).transactions.length;
      },
      () => {
        for (const f of corpus.files) sink += decodeBlock(f.bytes, { rootHash: f.rootHash, fileHash: f.fileHash }).transactions.length;
      },
      () => {
        for (const f of corpus.files) sink += baselineDecode(f.bytes);
      },
      () => {
        for (const f of corpus.files) sink += decodeBlock(f.bytes, RECORDS_ONLY).transactions.length;
      },
      () => {
        for (const f of corpus.files) sink += decodeBlock(f.bytes, { ...RECORDS_ONLY, rootHash: f.rootHash, fileHash: f.fileHash }).transactions.length;
      },
    ],
    sample,
  );
  if (sink === 0 && corpus.transactions > 0) throw new Error('benchmark decoded nothing');
  const ours = median(rounds.map((r) => r.rates[0]!));
  const knownRoot = median(rounds.map((r) => r.rates[1]!));
  const baseline = median(rounds.map((r) => r.rates[2]!));
  const records = median(rounds.map((r) => r.rates[3]!));
  const recordsKnownRoot = median(rounds.map((r) => r.rates[4]!));
  const ratios = rounds.map((r) => r.rates[0]! / r.rates[2]!);
  const oursTx = rounds.map((r) => Math.round(r.rates[0]! * corpus.transactions));
  const result: DecodeBenchResult = {
    tx_per_s: Math.round(ours * corpus.transactions),
    cells_per_s: Math.round(ours * corpus.cells),
    tx_per_s_known_root: Math.round(knownRoot * corpus.transactions),
    tx_per_s_records: Math.round(records * corpus.transactions),
    tx_per_s_records_known_root: Math.round(recordsKnownRoot * corpus.transactions),
    ratio_records: Number(median(rounds.map((r) => r.rates[3]! / r.rates[2]!)).toFixed(1)),
    ratio_records_known_root: Number(median(rounds.map((r) => r.rates[4]! / r.rates[2]!)).toFixed(1)),
    baseline_tx_per_s: Math.round(baseline * corpus.transactions),
    baseline_cells_per_s: Math.round(baseline * corpus.cells),
    ratio: Number(median(ratios).toFixed(1)),
    ratio_min: Number(Math.min(...ratios).toFixed(1)),
    ratio_max: Number(Math.max(...ratios).toFixed(1)),
    tx_per_s_min: Math.min(...oursTx),
    tx_per_s_max: Math.max(...oursTx),
    rounds: rounds.length,
    blocks: corpus.files.length,
    transactions: corpus.transactions,
    cells: corpus.cells,
    bytes: corpus.bytes,
    peak_rss_mb: Math.round(peakRss / 2 ** 20),
    peak_heap_mb: Math.round(peakHeap / 2 ** 20),
    seconds: opts.seconds,
  };
  if (opts.resultsFile) writeResultsSection(opts.resultsFile, 'decode', report(result, opts));
  return result;
}

function report(r: DecodeBenchResult, opts: DecodeBenchOptions): string {
  const pass = (ok: boolean): string => (ok ? 'met' : 'NOT met');
  return `## decode — block BOC → TON Center v3 records

Command: \`${opts.command}\`
Machine: ${machineLine()}
Date: ${new Date().toISOString()}
Corpus: ${r.blocks} real mainnet blocks from \`${path.relative(process.cwd(), opts.dir) || opts.dir}\` — ${r.transactions} transactions, ${r.cells} cells, ${(r.bytes / 2 ** 20).toFixed(2)} MiB; one thread; the five contenders take turns in rounds of about 1 s (${r.rounds} rounds, ${r.seconds} s each in all) after one warm-up pass each, and each figure is the median round.

| contender | tx/s | ratio to the baseline (median of rounds) |
|---|---:|---:|
| tonflow \`decodeBlock\`, every output the decode stage writes (v3 records incl. the root hash over every cell, account states, each transaction's BOC for API v2, the touched accounts' cells for the cell store) | ${r.tx_per_s} | ${r.ratio}× |
| the same with the root hash supplied by the source (liteserver BlockIdExt): what the decode stage runs | ${r.tx_per_s_known_root} | ${(r.tx_per_s_known_root / Math.max(1, r.baseline_tx_per_s)).toFixed(1)}× |
| tonflow \`decodeBlock\`, v3 records and states only (\`{ cells: false, transactionBocs: false }\`: the outputs of the decoder before 0020/0025), root hash computed | ${r.tx_per_s_records} | ${r.ratio_records}× |
| the same with the root hash from the source | ${r.tx_per_s_records_known_root} | ${r.ratio_records_known_root}× |
| @ton/core baseline (\`Cell.fromBoc\` + \`loadTransaction\` on every transaction, same blocks, same run) | ${r.baseline_tx_per_s} | 1× |

Ratio (full decode incl. root hash): **${r.ratio}×** the baseline, median of the per-round ratios (${r.ratio_min}× to ${r.ratio_max}×; target ≥ 20×: ${pass(r.ratio >= 20)}); **${r.tx_per_s} tx/s** in the median round, ${r.tx_per_s_min} to ${r.tx_per_s_max} over the rounds (target ≥ 30,000: ${pass(r.tx_per_s >= 30000)}).
Host speed: the @ton/core baseline is the yardstick (${r.baseline_tx_per_s} tx/s here; ${REFERENCE_BASELINE} tx/s on the 2026-11-24 host of the earlier runs), so the absolute target is met on that host's speed when ${r.tx_per_s} × ${REFERENCE_BASELINE} ÷ ${r.baseline_tx_per_s} = ${Math.round((r.tx_per_s * REFERENCE_BASELINE) / Math.max(1, r.baseline_tx_per_s))} ≥ 30,000: ${pass((r.tx_per_s * REFERENCE_BASELINE) / Math.max(1, r.baseline_tx_per_s) >= 30000)}.
Why rounds: this VM's speed moves by 2-3x within minutes (a fixed integer loop measured 0.54 s to 1.8 s in one minute), so absolute rates say as much about the host's other tenants as about the code; the ratio between contenders that take turns second by second does not.
With the root hash from the source: **${r.tx_per_s_known_root} tx/s** (${(r.tx_per_s_known_root / Math.max(1, r.baseline_tx_per_s)).toFixed(1)}× the baseline).
The root hash of a block covers its state update, so computing it hashes every cell of the BOC (${r.cells} here, ${r.cells_per_s} cells/s in the first row); that is the difference between each pair of rows.
The records-only rows do the work the decoder did before transaction BOCs and the cell store were added, so they are the like-for-like regression check against earlier runs of this section; the first two rows' difference from them is the price of those two outputs.
Peak memory during the tonflow run: RSS ${r.peak_rss_mb} MiB, heap ${r.peak_heap_mb} MiB.`;
}
