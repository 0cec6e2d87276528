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
  /** Same decode when the source supplies the block's root and file hash (a liteserver's BlockIdExt). */
  tx_per_s_known_root: number;
  baseline_tx_per_s: number;
  baseline_cells_per_s: number;
  ratio: number;
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

/** Runs `pass` over the corpus until `seconds` have passed (after one warm-up pass); returns passes per second. */
function measure(seconds: number, pass: () => void, sample: () => void): number {
  pass();
  const deadline = performance.now() + seconds * 1000;
  const t0 = performance.now();
  let passes = 0;
  do {
    pass();
    sample();
    passes++;
  } while (performance.now() < deadline);
  return passes / ((performance.now() - t0) / 1000);
}

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
  const ours = measure(
    opts.seconds,
    () => {
      for (const f of corpus.files) sink += decodeBlock(f.bytes).transactions.length;
    },
    sample,
  );
  const knownRoot = measure(
    opts.seconds,
    () => {
      for (const f of corpus.files) sink += decodeBlock(f.bytes, { rootHash: f.rootHash, fileHash: f.fileHash }).transactions.length;
    },
    sample,
  );
  const baseline = measure(
    opts.seconds,
    () => {
      for (const f of corpus.files) sink += baselineDecode(f.bytes);
    },
    () => {},
  );
  if (sink === 0 && corpus.transactions > 0) throw new Error('benchmark decoded nothing');
  const result: DecodeBenchResult = {
    tx_per_s: Math.round(ours * corpus.transactions),
    cells_per_s: Math.round(ours * corpus.cells),
    tx_per_s_known_root: Math.round(knownRoot * corpus.transactions),
    baseline_tx_per_s: Math.round(baseline * corpus.transactions),
    baseline_cells_per_s: Math.round(baseline * corpus.cells),
    ratio: Number((ours / baseline).toFixed(1)),
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
Corpus: ${r.blocks} real mainnet blocks from \`${path.relative(process.cwd(), opts.dir) || opts.dir}\` — ${r.transactions} transactions, ${r.cells} cells, ${(r.bytes / 2 ** 20).toFixed(2)} MiB; ${r.seconds} s per contender after one warm-up pass, one thread.

| contender | tx/s | cells/s |
|---|---:|---:|
| tonflow \`decodeBlock\` (full v3 records: Block incl. root hash over every cell, Transactions with messages, bodies as BOC) | ${r.tx_per_s} | ${r.cells_per_s} |
| tonflow \`decodeBlock\` with the root hash supplied by the source (liteserver BlockIdExt): the state update is never walked | ${r.tx_per_s_known_root} | — |
| @ton/core baseline (\`Cell.fromBoc\` + \`loadTransaction\` on every transaction, same blocks, same run) | ${r.baseline_tx_per_s} | ${r.baseline_cells_per_s} |

Ratio (full decode incl. root hash): **${r.ratio}×** the baseline (target ≥ 20×: ${pass(r.ratio >= 20)}); **${r.tx_per_s} tx/s** (target ≥ 30,000: ${pass(r.tx_per_s >= 30000)}).
With the root hash from the source: **${r.tx_per_s_known_root} tx/s** (${(r.tx_per_s_known_root / Math.max(1, r.baseline_tx_per_s)).toFixed(1)}× the baseline).
The root hash of a block covers its state update, so computing it hashes every cell of the BOC (${r.cells} here); that is the difference between the two rows.
Peak memory during the tonflow run: RSS ${r.peak_rss_mb} MiB, heap ${r.peak_heap_mb} MiB.`;
}
