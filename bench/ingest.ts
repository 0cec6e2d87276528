import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IncomingMessage, OutgoingMessage, Producer } from '../shared/bus/bus.js';
import { decodeTrace } from '../shared/contracts/trace.js';
import { loadConfig, tonflowConfigSchema, type TonflowConfig } from '../shared/runtime/config.js';
import { createLogger } from '../shared/runtime/logger.js';
import { createMetrics } from '../shared/runtime/metrics.js';
import { exportDevnet } from '../shared/sources/devnet/export.js';
import { migrate } from '../shared/store/migrate.js';
import type { Store } from '../shared/store/store.js';
import { decodeBlock } from '../shared/ton/decode-block.js';
import { topicNames, topicSpecs } from '../shared/contracts/topics.js';
import { openBus, openSource, openStore, sourceName } from '../services/common/wiring.js';
import { createStoreCheckpoints } from '../services/follower/checkpoints.js';
import { POINT_TABLES } from '../services/indexer/rows.js';
import { ACTION_TABLES, TRACES_PER_BATCH, createActionMapper } from '../services/actions/stage.js';
import { startPipeline } from '../services/start/pipeline.js';
import { type TableRows, type WriteChain, createTableWriter, handleBatch } from '../services/stages/stage.js';
import { writeCorpus } from './corpus.js';
import { REFERENCE_TX_PER_S, machineLine, speedLine, speedReference, writeResultsSection } from './results.js';
import { keyValueTableBytes } from './store-size.js';

/**
 * `npm run bench -- ingest`: the pipeline end to end on a corpus of distinct real-format transactions
 * (bench/corpus.ts): files source → follower → bus → decode stage → ClickHouse (chdb in-process), composed as
 * `tonflow start` composes it (services/common/wiring.ts, services/start/pipeline.ts). It runs on the in-process bus
 * (embedded mode), once more without the point tables, and through a Kafka broker (distributed mode) when one is given.
 *
 * The corpus has no masterchain blocks, so no masterchain-block messages: the trace stage would have nothing to do.
 * The trace and action stages run on a devnet export instead (real TVM blocks, every shard block committed by a
 * masterchain block, traces across blocks and shards): once with the decode stage alone, once with all of
 * `tonflow start`'s stages. Their clock stops when the trace stage has handled every masterchain-block message the
 * follower published and the action stage every trace the trace stage published: traces still waiting for a partner
 * transaction outside the export are never published, so they do not hold the clock.
 *
 * The clock starts at the follower's first publish and stops when the store acknowledged the write that holds the
 * last transaction (and, with the trace and action stages, as above). Indexing the corpus directory before that (the
 * files source reads and hashes every block up front, the work a liteserver's BlockIdExt spares) is reported apart.
 * Afterwards each table is merged (OPTIMIZE … FINAL) and its active parts measured in `system.parts`.
 */
export interface IngestBenchOptions {
  /** Minimum number of transactions in the corpus. */
  transactions: number;
  /** Minimum number of transactions of the devnet export the trace and action stages run on. */
  traceTransactions: number;
  /** Folder of the real blocks the corpus is made from (the fixture blocks). */
  fixturesDir: string;
  /** Brokers for the Kafka run; null skips it (reported as not run). */
  kafkaBrokers: string[] | null;
  /** Where the brokers came from, for the report (`KAFKA_BROKERS`, `--kafka`). */
  kafkaOrigin: string;
  /** Where to write the results section; null to skip. */
  resultsFile: string | null;
  command: string;
  /** Progress lines (the CLI sends them to stderr). */
  progress?: (line: string) => void;
  /**
   * Replays of the corpus per pipeline, embedded and Kafka alternating; default {@link DEFAULT_ROUNDS}. The median
   * round is reported: this VM's speed moves by a third within minutes, so one run measures the host's moment.
   */
  rounds?: number;
  /**
   * Where the devnet export is kept (`--devnet-dir`): built there once, and reused by later runs asking for the same
   * number of transactions (the export is a function of that number and its fixed seed). Default: a fresh export in
   * the run's scratch folder.
   */
  devnetDir?: string;
}

export interface TableSize {
  table: string;
  rows: number;
  bytes_on_disk: number;
}

export interface IngestRunResult {
  mode: 'embedded' | 'kafka';
  /** Whether the decode stage also filled the point tables (TONFLOW_STORE_POINT_READS). */
  points: boolean;
  transactions: number;
  blocks: number;
  /** From the first publish to the store's acknowledgement of the last transaction's write. */
  seconds: number;
  tx_per_s: number;
  target_tx_per_s: number;
  /** CPU time of this process (all its threads: decoding, ClickHouse, Kafka client) per transaction in that window. */
  cpu_us_per_tx: number;
  /** Indexing the corpus directory before the first publish (not in `seconds`). */
  index_seconds: number;
  /** Transactions a FINAL read finds afterwards (must equal `transactions`). */
  stored_final: number;
  /** All tables' active parts after OPTIMIZE FINAL, per corpus transaction. */
  bytes_per_tx: number;
  tables: TableSize[];
  peak_rss_mb: number;
  /** 1-minute load average when the run started: other processes compete for the same cores. */
  load_before: number;
  /** Every round's tx/s in run order, when this is the median of several rounds. */
  rounds_tx_per_s?: number[];
  /** With the trace and action stages: what they handled and stored. */
  stages?: StagesResult;
  /** What ClickHouse counted over the clock (system.events). */
  engine: EngineCounters;
}

/** ClickHouse's counters over a run's clock (system.events), the ones that tell what its statements cost it. */
export interface EngineCounters {
  inserts: number;
  selects: number;
  /** Parts the inserts made (tables, materialized views' tables; projections are inside them). */
  parts_inserted: number;
  /** Parts merges read. */
  parts_merged: number;
  /** CPU of the engine's threads: user and system (kernel) seconds. */
  user_s: number;
  system_s: number;
}

export interface StagesResult {
  /** Masterchain-block messages the follower published (each one handled by the trace stage in the clock). */
  mc_blocks: number;
  /** Completed traces the trace stage published (each one classified by the action stage in the clock). */
  traces_published: number;
  /** Rows in `traces` (FINAL) afterwards, by state. */
  traces: number;
  traces_complete: number;
  traces_pending: number;
  /** Transactions with a trace (`trace_transactions` FINAL). */
  traced_transactions: number;
  /** Rows in `actions` (FINAL) afterwards. */
  actions: number;
  /** Messages the trace and action stages dead-lettered (0 expected). */
  dead_lettered: number;
  /** From the first publish to the decode stage's last stored transaction (the stages finish later). */
  decode_seconds: number;
}

export interface IngestBenchResult {
  corpus: { transactions: number; files: number; bytes: number; build_seconds: number };
  /** The default configuration: the decode stage fills the point tables too (TONFLOW_STORE_POINT_READS). */
  embedded: IngestRunResult;
  /** The embedded pipeline with TONFLOW_STORE_POINT_READS=false (MergeTree tables only): what the point tables cost. */
  embedded_tables_only: IngestRunResult;
  kafka: IngestRunResult | { mode: 'kafka'; skipped: string };
  /** The devnet export the trace and action stages run on. */
  devnet_corpus: { transactions: number; blocks: number; mc_blocks: number; bytes: number; build_seconds: number };
  /** The default pipeline (decode stage alone) on the devnet export: what the next costs on top. */
  devnet_decode: IngestRunResult;
  /** `tonflow start`'s pipeline: decode, trace and action stages, on the devnet export. */
  embedded_traces: IngestRunResult;
  /** The real fixture blocks themselves through the embedded pipeline: bytes on disk of real, unrepeated data. */
  real: { transactions: number; blocks: number; bytes_per_tx: number; tables: TableSize[] };
  /** {@link speedReference} before and after the runs (tx/s of the @ton/core baseline). */
  speed: { before: number; after: number };
}

export const DEFAULT_ROUNDS = 3;

/** Embedded ingest with the default configuration (the cell store on): issue 30. */
const EMBEDDED_TARGET = 15_000;
const KAFKA_TARGET = 10_000;
/** Embedded ingest with the trace and action stages on: issue 29. */
const TRACES_TARGET = 12_000;

/** How long a run may store nothing before it fails. */
const STALL_MS = 60_000;
/**
 * The same with the trace and action stages: the action stage reports a batch once all of it is stored, and on the
 * in-process bus a batch is every trace published so far, classified one after another.
 */
const STAGES_STALL_MS = 600_000;

/**
 * The tables the decode stage writes, and those its materialized views fill (`account_transactions`,
 * `account_recent_transactions`, `message_sides`), measured for bytes per transaction.
 */
const TX_TABLES = [
  'transactions',
  'account_transactions',
  'account_recent_transactions',
  'messages',
  'message_contents',
  'message_hash_norms',
  'message_sides',
  'account_states',
  'latest_account_states',
  'blocks',
  'shard_state',
] as const;

/** What the trace and action stages write (0017, 0018, 0023), measured too when they run. */
const STAGE_TABLES = ['traces', 'trace_transactions', 'trace_edges', 'actions'] as const;

/**
 * What both ingest benches set up in `work` before their rounds: the devnet export with traces, and one data
 * directory (chdb binds one per process: every run uses it, each in a database and topics of its own, named after
 * `stamp` and the round).
 */
async function devnetRounds(work: string, opts: Pick<IngestBenchOptions, 'traceTransactions' | 'rounds' | 'devnetDir'>, say: (line: string) => void) {
  const devnetDir = opts.devnetDir ?? path.join(work, 'devnet');
  const devnetCorpus = await keptDevnetCorpus(devnetDir, opts.traceTransactions, say);
  const dataDir = path.join(work, 'data');
  /** One embedded run on the devnet export: the decode stage alone (`devnet`), or with the trace and action stages. */
  const devnetRun = (row: 'devnet' | 'traces', tag: string, stages?: Parameters<typeof runPipeline>[4]) =>
    runPipeline(
      'embedded',
      benchConfig({ corpusDir: devnetDir, dataDir, database: `bench_ingest_${row}_${tag}`, prefix: `tonflow-bench-${row}-${tag}` }),
      devnetCorpus.transactions,
      say,
      stages ?? { traces: row === 'traces' },
    );
  return { devnetDir, devnetCorpus, dataDir, devnetRun, stamp: `${Date.now().toString(36)}${process.pid}`, rounds: opts.rounds ?? DEFAULT_ROUNDS };
}

export async function runIngestBench(opts: IngestBenchOptions): Promise<IngestBenchResult> {
  const say = opts.progress ?? (() => {});
  const work = mkdtempSync(path.join(os.tmpdir(), 'tonflow-bench-ingest-'));
  try {
    const speedBefore = speedReference(opts.fixturesDir);
    say(`machine speed: @ton/core baseline at ${speedBefore} tx/s`);
    const corpusDir = path.join(work, 'corpus');
    const t0 = performance.now();
    const built = writeCorpus({ fromDir: opts.fixturesDir, outDir: corpusDir, transactions: opts.transactions });
    const bytes = readdirSync(corpusDir).reduce((n, f) => n + statSync(path.join(corpusDir, f)).size, 0);
    const corpus = { ...built, bytes, build_seconds: round((performance.now() - t0) / 1000, 1) };
    say(`corpus: ${corpus.transactions} transactions in ${corpus.files} blocks (${mib(bytes)} MiB), built in ${corpus.build_seconds} s`);
    const { devnetCorpus, dataDir, devnetRun, stamp, rounds } = await devnetRounds(work, opts, say);
    const embeddedRuns: IngestRunResult[] = [];
    const tablesOnlyRuns: IngestRunResult[] = [];
    const kafkaRuns: IngestRunResult[] = [];
    const devnetDecodeRuns: IngestRunResult[] = [];
    const tracesRuns: IngestRunResult[] = [];
    // Alternating, so that a change of the host's speed during the bench reaches both pipelines alike.
    for (let i = 0; i < rounds; i++) {
      const tag = `${stamp}_${i}`;
      embeddedRuns.push(
        await runPipeline('embedded', benchConfig({ corpusDir, dataDir, database: `bench_ingest_embedded_${tag}`, prefix: `tonflow-bench-${tag}` }), corpus.transactions, say),
      );
      tablesOnlyRuns.push(
        await runPipeline(
          'embedded',
          benchConfig({ corpusDir, dataDir, database: `bench_ingest_tables_${tag}`, prefix: `tonflow-bench-tables-${tag}`, tablesOnly: true }),
          corpus.transactions,
          say,
        ),
      );
      devnetDecodeRuns.push(await devnetRun('devnet', tag));
      tracesRuns.push(await devnetRun('traces', tag));
      if (opts.kafkaBrokers) {
        kafkaRuns.push(
          await runPipeline(
            'kafka',
            benchConfig({ corpusDir, dataDir, database: `bench_ingest_kafka_${tag}`, prefix: `tonflow-bench-${tag}`, brokers: opts.kafkaBrokers }),
            corpus.transactions,
            say,
          ),
        );
      }
    }
    const embedded = medianRun(embeddedRuns);
    const embeddedTablesOnly = medianRun(tablesOnlyRuns);
    const devnetDecode = medianRun(devnetDecodeRuns);
    const embeddedTraces = medianRun(tracesRuns);
    const kafka: IngestBenchResult['kafka'] =
      kafkaRuns.length > 0 ? medianRun(kafkaRuns) : { mode: 'kafka', skipped: 'no broker given (set KAFKA_BROKERS or pass --kafka host:port)' };
    // The corpus repeats most column values of its originals (only hashes and lts change), which ZSTD compresses far
    // better than real data: measure the real blocks too.
    const realTx = readdirSync(opts.fixturesDir)
      .filter((f) => f.endsWith('.boc'))
      .reduce((n, f) => n + decodeBlock(readFileSync(path.join(opts.fixturesDir, f))).transactions.length, 0);
    const realRun = await runPipeline(
      'embedded',
      benchConfig({ corpusDir: opts.fixturesDir, dataDir, database: `bench_ingest_real_${stamp}`, prefix: `tonflow-bench-real-${stamp}` }),
      realTx,
      () => {},
    );
    const real = { transactions: realTx, blocks: realRun.blocks, bytes_per_tx: realRun.bytes_per_tx, tables: realRun.tables };
    say(`real fixture blocks: ${real.blocks} blocks, ${realTx} transactions, ${real.bytes_per_tx} bytes/tx on disk`);
    const speed = { before: speedBefore, after: speedReference(opts.fixturesDir) };
    const result: IngestBenchResult = {
      corpus,
      embedded,
      embedded_tables_only: embeddedTablesOnly,
      kafka,
      devnet_corpus: devnetCorpus,
      devnet_decode: devnetDecode,
      embedded_traces: embeddedTraces,
      real,
      speed,
    };
    if (opts.resultsFile) writeResultsSection(opts.resultsFile, 'ingest', report(result, opts));
    return result;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * `npm run bench -- ingest --only embedded`: the default embedded row alone (no devnet export, no other pipelines),
 * for A/B runs of the decode stage's cost; prints its rounds and writes nothing to bench/RESULTS.md.
 */
export async function runIngestEmbeddedBench(opts: Pick<IngestBenchOptions, 'transactions' | 'rounds' | 'fixturesDir' | 'progress'>): Promise<IngestRunResult[]> {
  const say = opts.progress ?? (() => {});
  const work = mkdtempSync(path.join(os.tmpdir(), 'tonflow-bench-ingest-'));
  try {
    const corpusDir = path.join(work, 'corpus');
    const built = writeCorpus({ fromDir: opts.fixturesDir, outDir: corpusDir, transactions: opts.transactions });
    say(`corpus: ${built.transactions} transactions in ${built.files} blocks`);
    const dataDir = path.join(work, 'data');
    const stamp = `${Date.now().toString(36)}${process.pid}`;
    const runs: IngestRunResult[] = [];
    for (let i = 0; i < (opts.rounds ?? DEFAULT_ROUNDS); i++) {
      const tag = `${stamp}_${i}`;
      runs.push(await runPipeline('embedded', benchConfig({ corpusDir, dataDir, database: `bench_ingest_embedded_${tag}`, prefix: `tonflow-bench-${tag}` }), built.transactions, say));
    }
    return runs;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The round of median throughput (the lower middle one of an even count), with every round's tx/s; its
 * `stored_final` is the fewest any round stored, so that a round that lost rows shows in the report.
 */
function medianRun(runs: IngestRunResult[]): IngestRunResult {
  const sorted = [...runs].sort((a, b) => a.tx_per_s - b.tx_per_s);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  if (runs.length === 1) return median;
  return { ...median, stored_final: Math.min(...runs.map((r) => r.stored_final)), rounds_tx_per_s: runs.map((r) => r.tx_per_s) };
}

/** {@link buildDevnetCorpus}, or the export a run before built in `devnetDir` for as many transactions (its marker file). */
async function keptDevnetCorpus(devnetDir: string, transactions: number, say: (line: string) => void): Promise<IngestBenchResult['devnet_corpus']> {
  // Beside the folder, not in it: the files source reads every file of the folder as a block.
  const marker = `${devnetDir}.bench-export.json`;
  if (existsSync(marker)) {
    const kept = JSON.parse(readFileSync(marker, 'utf8')) as { asked: number; corpus: IngestBenchResult['devnet_corpus'] };
    if (kept.asked === transactions) {
      say(`devnet corpus: ${kept.corpus.transactions} transactions in ${kept.corpus.blocks} blocks, kept in ${devnetDir}`);
      return kept.corpus;
    }
  }
  rmSync(devnetDir, { recursive: true, force: true });
  rmSync(marker, { force: true });
  const corpus = await buildDevnetCorpus(devnetDir, transactions, say);
  // Written last: an export cut short leaves no marker, and is built again.
  writeFileSync(marker, JSON.stringify({ asked: transactions, corpus }));
  return corpus;
}

/** The devnet export the trace and action stages run on. A fixed seed and genesis time: every run replays the same chain. */
async function buildDevnetCorpus(devnetDir: string, transactions: number, say: (line: string) => void): Promise<IngestBenchResult['devnet_corpus']> {
  const t1 = performance.now();
  const exported = await exportDevnet({ out: devnetDir, transactions, seed: 'tonflow-bench-ingest', genesisUtime: 1_760_000_000 });
  const devnetCorpus = {
    transactions: exported.transactions,
    blocks: exported.blocks,
    mc_blocks: readdirSync(devnetDir).filter((f) => f.startsWith('devnet_-1_')).length,
    bytes: exported.bytes,
    build_seconds: round((performance.now() - t1) / 1000, 1),
  };
  say(`devnet corpus: ${devnetCorpus.transactions} transactions in ${devnetCorpus.blocks} blocks (${devnetCorpus.mc_blocks} masterchain), built in ${devnetCorpus.build_seconds} s`);
  return devnetCorpus;
}

/** The action stage alone (`runIngestTracesBench`): every published trace mapped and written again, batch after batch. */
export interface ActionStageResult {
  traces: number;
  /** Transactions of those traces. */
  transactions: number;
  /** Traces per bus batch, as the in-process bus hands them over. */
  batch: number;
  seconds: number;
  traces_per_s: number;
  tx_per_s: number;
  /** CPU time of this process (all threads, ClickHouse's included) per transaction. */
  cpu_us_per_tx: number;
  /** Statements the store ran for the replay (reads and inserts), per batch. */
  statements_per_batch: number;
}

export interface IngestTracesBenchResult {
  devnet_corpus: IngestBenchResult['devnet_corpus'];
  devnet_decode: IngestRunResult;
  embedded_traces: IngestRunResult;
  /** The action stage alone, measured after the median round of `embedded_traces` on its store. */
  action_stage: ActionStageResult;
  speed: { before: number; after: number };
}

/**
 * `npm run bench -- ingest --only traces`: the two devnet rows of {@link runIngestBench} alone (the decode stage on
 * the devnet export, then `tonflow start`'s stages on it), alternating for `rounds`, and after the last round of the
 * latter the action stage alone: every trace the trace stage published, handed to the action stage's mapping and
 * writer through the stage runner in the in-process bus's batch size, against the store that round filled (the
 * actions written again, identically). Writes its own section of RESULTS.md (`ingest-traces`), leaving `ingest` as
 * the full run left it.
 */
export async function runIngestTracesBench(opts: Omit<IngestBenchOptions, 'transactions' | 'kafkaBrokers' | 'kafkaOrigin'>): Promise<IngestTracesBenchResult> {
  const say = opts.progress ?? (() => {});
  const work = mkdtempSync(path.join(os.tmpdir(), 'tonflow-bench-ingest-'));
  try {
    const speedBefore = speedReference(opts.fixturesDir);
    say(`machine speed: @ton/core baseline at ${speedBefore} tx/s`);
    const { devnetCorpus, devnetRun, stamp, rounds } = await devnetRounds(work, opts, say);
    const decodeRuns: IngestRunResult[] = [];
    const tracesRuns: IngestRunResult[] = [];
    let actionStage: ActionStageResult | undefined;
    for (let i = 0; i < rounds; i++) {
      const tag = `${stamp}_${i}`;
      decodeRuns.push(await devnetRun('devnet', tag));
      const last = i === rounds - 1;
      tracesRuns.push(await devnetRun('traces', tag, { traces: true, ...(last ? { actionStage: (r: ActionStageResult) => (actionStage = r) } : {}) }));
    }
    const result: IngestTracesBenchResult = {
      devnet_corpus: devnetCorpus,
      devnet_decode: medianRun(decodeRuns),
      embedded_traces: medianRun(tracesRuns),
      action_stage: actionStage!,
      speed: { before: speedBefore, after: speedReference(opts.fixturesDir) },
    };
    if (opts.resultsFile) writeResultsSection(opts.resultsFile, 'ingest-traces', tracesReport(result, opts));
    return result;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The action stage alone on `store` (which holds everything the traces need): `traceMessages` mapped and written
 * through the stage runner as the in-process bus would hand them over, one batch after another, the store's
 * statements counted.
 */
async function measureActionStage(store: Store, traceMessages: OutgoingMessage[], logger: ReturnType<typeof createLogger>): Promise<ActionStageResult> {
  let statements = 0;
  const counting = new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      const fn = (v as (...a: unknown[]) => unknown).bind(target);
      if (prop === 'query' || prop === 'queryFields' || prop === 'command' || prop === 'insert' || prop === 'insertEncoded') {
        return (...a: unknown[]) => {
          statements++;
          return fn(...a);
        };
      }
      return fn;
    },
  });
  const write = createTableWriter({ store: counting, logger, tables: ACTION_TABLES });
  const mapper = createActionMapper({ store: counting });
  const incoming: IncomingMessage[] = traceMessages.map((m, i) => ({ topic: 'traces', partition: 0, offset: String(i), key: m.key, value: m.value, headers: m.headers ?? {} }));
  const transactions = incoming.reduce((n, m) => n + decodeTrace(m).transactions.length, 0);
  const chain: WriteChain = {};
  const ctx = { signal: new AbortController().signal, heartbeat: async () => {} };
  let dead = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let last: Promise<void> | undefined;
  let batches = 0;
  for (let i = 0; i < incoming.length; i += TRACES_PER_BATCH) {
    batches++;
    const { durable } = await handleBatch(
      { mapper, write: (rows, signal) => write(withoutPublish(rows), signal), deadLetter: async () => void dead++ },
      { topic: 'traces', partition: 0, messages: incoming.slice(i, i + TRACES_PER_BATCH) },
      ctx,
      chain,
    );
    last = durable;
  }
  await last;
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (dead > 0) throw new Error(`action stage alone: ${dead} traces dead-lettered`);
  return {
    traces: incoming.length,
    transactions,
    batch: TRACES_PER_BATCH,
    seconds: round(seconds, 2),
    traces_per_s: Math.round(incoming.length / seconds),
    tx_per_s: Math.round(transactions / seconds),
    cpu_us_per_tx: round((cpu.user + cpu.system) / transactions, 1),
    statements_per_batch: round(statements / batches, 1),
  };
}

/** A chunk's rows without the action stage's pseudo-table of messages to publish: the replay publishes nothing. */
function withoutPublish(rows: TableRows): TableRows {
  const out: TableRows = new Map();
  for (const [t, r] of rows) if (!t.startsWith('@')) out.set(t, r);
  return out;
}

function tracesReport(r: IngestTracesBenchResult, opts: Pick<IngestBenchOptions, 'command'>): string {
  const t = r.embedded_traces;
  const dd = r.devnet_decode;
  const dc = r.devnet_corpus;
  const st = t.stages;
  const a = r.action_stage;
  const scale = REFERENCE_TX_PER_S / r.speed.before;
  return `## ingest --only traces — devnet export through the decode, trace and action stages (embedded)

Command: \`${opts.command}\`
Machine: ${machineLine()}
${speedLine(r.speed.before, r.speed.after)}
Date: ${new Date().toISOString()}
Corpus: a devnet export (\`exportDevnet\`, fixed seed: ${dc.transactions} transactions on the real TVM in ${dc.blocks} blocks, ${dc.mc_blocks} of them masterchain blocks; built in ${dc.build_seconds} s, ${mib(dc.bytes)} MiB), the two devnet rows of the full \`ingest\` section run alone, alternating. Clock and pipeline as there.

| pipeline | tx/s | target | ratio | seconds | CPU µs/tx (this process) | index s | peak RSS | load avg at start |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${comparedRow('devnet export, embedded, decode stage only (the baseline of the next row)', dd, dd, 'itself', '— (baseline)')}
${runRow('devnet export, embedded with the trace and action stages (`tonflow start`)', t)}

Target: embedded with the trace and action stages ≥ ${TRACES_TARGET} tx/s (issue 29): ${t.tx_per_s} tx/s on this host, **${met(t.tx_per_s >= TRACES_TARGET)}**; scaled to the reference speed by the @ton/core baseline (${REFERENCE_TX_PER_S} / ${r.speed.before}): ${Math.round(t.tx_per_s * scale)} tx/s, **${met(t.tx_per_s * scale >= TRACES_TARGET)}** scaled. Against the decode stage alone on the same export: ${(t.tx_per_s / dd.tx_per_s).toFixed(2)}× its tx/s, ${t.cpu_us_per_tx} against ${dd.cpu_us_per_tx} CPU µs per transaction.

What the trace and action stages stored (the median round): ${st ? `${st.traces} traces (${st.traces_complete} complete, ${st.traces_pending} pending at the end of the export), ${st.traced_transactions} transactions with a trace, ${st.actions} actions; ${st.mc_blocks} masterchain-block messages traced, ${st.traces_published} completed traces published and classified, ${st.dead_lettered} dead-lettered; the decode stage had stored the last transaction at ${st.decode_seconds} s of the ${t.seconds} s.` : 'not measured.'}

ClickHouse over each clock (the median rounds; \`system.events\` of the in-process engine): ${engineLine(dd.engine)} with the decode stage alone; ${engineLine(t.engine)} with the trace and action stages.

The action stage alone, after the last round on its store (every published trace through the stage runner and the action stage's mapping and writer, ${a.batch} traces per batch as the in-process bus hands them over, the actions written again; nothing else running): ${a.traces} traces of ${a.transactions} transactions in ${a.seconds} s = **${a.traces_per_s} traces/s, ${a.tx_per_s} tx/s** (${Math.round(a.tx_per_s * scale)} tx/s scaled), ${a.cpu_us_per_tx} CPU µs per transaction, ${a.statements_per_batch} store statements per batch (reads and inserts).`;
}

/** The configuration `tonflow start` would load with these settings, the others at their defaults. */
function benchConfig(p: { corpusDir: string; dataDir: string; database: string; prefix: string; brokers?: string[]; tablesOnly?: boolean }): TonflowConfig {
  const env: Record<string, string> = {
    TONFLOW_MODE: p.brokers ? 'distributed' : 'embedded',
    TONFLOW_SOURCE: `files:${p.corpusDir}`,
    TONFLOW_DATA: p.dataDir,
    TONFLOW_CLICKHOUSE_DATABASE: p.database,
    TONFLOW_TOPIC_PREFIX: p.prefix,
    TONFLOW_LOG_LEVEL: 'warn',
  };
  if (p.brokers) env.TONFLOW_KAFKA_BROKERS = p.brokers.join(',');
  if (p.tablesOnly) env.TONFLOW_STORE_POINT_READS = 'false';
  return loadConfig(tonflowConfigSchema, { env });
}

/**
 * One replay of a corpus through the pipeline, composed by `startPipeline` as `tonflow start` composes it: the
 * follower and the decode stage, and with `stages.traces` the trace and action stages too.
 */
async function runPipeline(
  mode: 'embedded' | 'kafka',
  config: TonflowConfig,
  expected: number,
  say: (line: string) => void,
  stages: { traces: boolean; actionStage?: (r: ActionStageResult) => void } = { traces: false },
): Promise<IngestRunResult> {
  const label = stages.traces ? `${mode} with traces and actions` : mode;
  const loadBefore = os.loadavg()[0]!;
  const logger = createLogger({ service: 'bench', level: config.logLevel });
  const store = await openStore(config, logger);
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  try {
    await migrate(store);
    const bus = openBus(config, logger, 'tonflow-bench');
    const ac = new AbortController();
    // What `startPipeline` registers to close, run in reverse as the shutdown runs them.
    const closers: Array<() => Promise<void>> = [];
    const closeAll = async (): Promise<void> => {
      for (const close of closers.reverse()) await close().catch(() => {});
      closers.length = 0;
    };
    try {
      await bus.ensureTopics(topicSpecs(config));
      const topics = topicNames(config);
      const checkpoints = createStoreCheckpoints(store, sourceName(config));
      const tIndex = performance.now();
      const source = await openSource(config, logger, ac.signal);
      const indexSeconds = (performance.now() - tIndex) / 1000;
      const producer = await bus.producer();

      // The follower publishes first, so the first send starts the clock; every send is counted by topic, which
      // tells how many masterchain blocks and traces the trace and action stages have to handle.
      let firstPublish = 0;
      let cpuAtFirstPublish: NodeJS.CpuUsage | undefined;
      const sent = new Map<string, number>();
      // The traces published, kept for the action stage's run alone afterwards.
      const traceMessages: OutgoingMessage[] = [];
      const counted: Producer = {
        send(topic: string, messages: OutgoingMessage[]) {
          if (firstPublish === 0) {
            firstPublish = performance.now();
            cpuAtFirstPublish = process.cpuUsage();
          }
          sent.set(topic, (sent.get(topic) ?? 0) + messages.length);
          if (stages.actionStage && topic === topics.traces) traceMessages.push(...messages);
          return producer.send(topic, messages);
        },
      };

      let stored = 0;
      let blocks = 0;
      let decodedAt = 0;
      let followerDone = false;
      let mcHandled = 0;
      let tracesHandled = 0;
      let deadLettered = 0;
      let lastAck = 0;
      let cpu: NodeJS.CpuUsage | undefined;
      let allDone!: () => void;
      const done = new Promise<void>((r) => (allDone = r));
      // Done: every transaction stored; with the trace and action stages, also every masterchain-block message the
      // follower published handled by the trace stage (the follower has ended, so that count is final), then every
      // trace it published (final once it handled its last message) handled by the action stage.
      const check = (): void => {
        if (lastAck !== 0 || stored < expected) return;
        if (decodedAt === 0) decodedAt = performance.now();
        if (stages.traces && !(followerDone && mcHandled >= (sent.get(topics.mcBlocks) ?? 0) && tracesHandled >= (sent.get(topics.traces) ?? 0))) return;
        lastAck = performance.now();
        cpu = process.cpuUsage(cpuAtFirstPublish);
        allDone();
      };
      // The engine's own counters over the clock (system.events: the whole process's engine, which runs this round alone).
      const events0 = await engineEvents(store);
      const events1 = done.then(() => engineEvents(store)).catch(() => events0);
      const loops = await startPipeline({
        config,
        roles: { follower: true, decode: true, traces: stages.traces, actions: stages.traces },
        store,
        bus,
        producer: counted,
        topics,
        checkpoints,
        source,
        logger,
        metrics: createMetrics({ service: 'bench', processMetrics: false }),
        signal: ac.signal,
        onClose: (_name, closer) => closers.push(closer),
        hooks: {
          onDecodeBatch: (b) => {
            stored += b.transactions;
            blocks += b.blocks;
            check();
          },
          onTraceBatch: (b) => {
            mcHandled += b.mcBlocks;
            check();
          },
          onActionBatch: (b) => {
            tracesHandled += b.traces;
            check();
          },
          onDeadLetter: (stage) => {
            if (stage === 'traces') mcHandled++;
            if (stage === 'actions') tracesHandled++;
            if (stage !== 'decode') deadLettered++;
            check();
          },
        },
      });
      const follower = loops.follower!.then(() => {
        followerDone = true;
        check();
      });
      const stageLoops = [loops.decode, loops.traces, loops.actions].filter((l) => l !== undefined);
      // A run that stops making progress (a source that skipped files it could not read, a stage stuck on a store
      // error) fails instead of waiting forever for transactions that will never come.
      let failStall!: (e: Error) => void;
      const stalled = new Promise<never>((_, reject) => (failStall = reject));
      const stallMs = stages.traces ? STAGES_STALL_MS : STALL_MS;
      let lastProgress = -1;
      let lastChange = performance.now();
      const stagesLine = (): string => (stages.traces ? `, ${mcHandled}/${sent.get(topics.mcBlocks) ?? 0} masterchain blocks traced, ${tracesHandled}/${sent.get(topics.traces) ?? 0} traces classified` : '');
      const progress = setInterval(() => {
        say(`  ${label}: ${stored}/${expected} transactions stored${stagesLine()}`);
        const now = stored + mcHandled + tracesHandled;
        if (now !== lastProgress) {
          lastProgress = now;
          lastChange = performance.now();
        } else if (performance.now() - lastChange > stallMs) {
          failStall(new Error(`${label}: no progress for ${stallMs / 1000} s at ${stored}/${expected} transactions stored${stagesLine()} (see the warnings above)`));
        }
      }, 5000);
      try {
        await Promise.race([
          done,
          stalled,
          ...stageLoops.map((l) => l.then(() => Promise.reject(new Error(`${label}: a stage stopped before the corpus was handled`)))),
          follower.then(() => done),
        ]);
      } catch (e) {
        // Stop the follower and the stages so that the process can exit with the error.
        ac.abort();
        await closeAll();
        await Promise.allSettled([follower, ...stageLoops]);
        throw e;
      } finally {
        clearInterval(progress);
      }
      await follower;
      await closeAll();
      await Promise.all(stageLoops);

      const engine = engineCounters(events0, await events1);
      const seconds = (lastAck - firstPublish) / 1000;
      const txPerS = Math.round(expected / seconds);
      const cpuPerTx = cpu ? (cpu.user + cpu.system) / expected : 0;
      say(`${label}: ${expected} transactions in ${seconds.toFixed(2)} s = ${txPerS} tx/s (${cpuPerTx.toFixed(0)} µs CPU/tx, load ${loadBefore.toFixed(1)})`);
      say(`  ClickHouse: ${engineLine(engine)}`);
      const [final] = await store.query<{ n: string }>('SELECT count() AS n FROM transactions FINAL');
      const stagesResult = stages.traces
        ? await stagesOf(store, { mc_blocks: sent.get(topics.mcBlocks) ?? 0, traces_published: sent.get(topics.traces) ?? 0, dead_lettered: deadLettered, decode_seconds: round((decodedAt - firstPublish) / 1000, 2) })
        : undefined;
      if (stagesResult) {
        say(`  ${stagesResult.traces} traces (${stagesResult.traces_complete} complete, ${stagesResult.traces_pending} pending), ${stagesResult.actions} actions; decode done at ${stagesResult.decode_seconds} s`);
      }
      if (stages.actionStage) {
        const a = await measureActionStage(store, traceMessages, logger);
        say(`  action stage alone: ${a.traces} traces (${a.transactions} transactions) in ${a.seconds} s = ${a.traces_per_s} traces/s, ${a.tx_per_s} tx/s, ${a.statements_per_batch} statements per batch`);
        stages.actionStage(a);
      }
      const tables = await tableSizes(store, stages.traces ? [...TX_TABLES, ...STAGE_TABLES] : TX_TABLES);
      const bytes = tables.reduce((n, t) => n + t.bytes_on_disk, 0);
      return {
        mode,
        points: config.storePointReads,
        transactions: expected,
        blocks,
        seconds: round(seconds, 2),
        tx_per_s: txPerS,
        target_tx_per_s: stages.traces ? TRACES_TARGET : mode === 'embedded' ? EMBEDDED_TARGET : KAFKA_TARGET,
        cpu_us_per_tx: round(cpuPerTx, 1),
        index_seconds: round(indexSeconds, 1),
        stored_final: Number(final?.n ?? 0),
        bytes_per_tx: Math.round(bytes / expected),
        tables,
        peak_rss_mb: Math.round(peakRss / 2 ** 20),
        load_before: round(loadBefore, 1),
        engine,
        ...(stagesResult ? { stages: stagesResult } : {}),
      };
    } finally {
      ac.abort();
      await closeAll();
      await bus.close();
    }
  } finally {
    clearInterval(sampler);
    await store.command(`DROP DATABASE IF EXISTS \`${store.database}\``).catch(() => {});
    await store.close();
  }
}

function engineLine(e: EngineCounters): string {
  return `${e.inserts} inserts making ${e.parts_inserted} parts, ${e.selects} selects, ${e.parts_merged} parts merged, ${e.user_s} s user and ${e.system_s} s system CPU`;
}

async function engineEvents(store: Store): Promise<Map<string, number>> {
  return new Map((await store.query<{ event: string; value: string }>('SELECT event, toString(value) AS value FROM system.events')).map((r) => [r.event, Number(r.value)]));
}

function engineCounters(before: Map<string, number>, after: Map<string, number>): EngineCounters {
  const d = (event: string): number => (after.get(event) ?? 0) - (before.get(event) ?? 0);
  return {
    inserts: d('InsertQuery'),
    selects: d('SelectQuery'),
    parts_inserted: d('InsertedCompactParts') + d('InsertedWideParts'),
    parts_merged: d('MergeSourceParts'),
    user_s: round(d('UserTimeMicroseconds') / 1e6, 1),
    system_s: round(d('SystemTimeMicroseconds') / 1e6, 1),
  };
}

/** What the trace and action stages stored, read back (FINAL) after the run. */
async function stagesOf(store: Store, counted: Pick<StagesResult, 'mc_blocks' | 'traces_published' | 'dead_lettered' | 'decode_seconds'>): Promise<StagesResult> {
  const states = await store.query<{ state: string; n: string }>('SELECT toString(state) AS state, count() AS n FROM traces FINAL GROUP BY state');
  const count = async (sql: string): Promise<number> => Number((await store.query<{ n: string }>(sql))[0]?.n ?? 0);
  const of = (state: string): number => Number(states.find((r) => r.state === state)?.n ?? 0);
  return {
    ...counted,
    traces: states.reduce((n, r) => n + Number(r.n), 0),
    traces_complete: of('complete'),
    traces_pending: of('pending'),
    traced_transactions: await count('SELECT count() AS n FROM trace_transactions FINAL'),
    actions: await count('SELECT count() AS n FROM actions FINAL'),
  };
}

/**
 * Active parts of the decode stage's tables once everything is merged (OPTIMIZE … FINAL), then its key → value
 * tables, which have no parts (bench/store-size.ts).
 */
async function tableSizes(store: Store, merged: readonly string[]): Promise<TableSize[]> {
  for (const t of merged) await store.command(`OPTIMIZE TABLE ${t} FINAL`);
  const rows = await store.query<{ table: string; rows: string; bytes: string }>(
    `SELECT table, sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts
     WHERE database = {db:String} AND active AND table IN {tables:Array(String)} GROUP BY table`,
    { db: store.database, tables: [...merged] },
  );
  const parts = merged.map((table) => {
    const r = rows.find((x) => x.table === table);
    return { table, rows: Number(r?.rows ?? 0), bytes_on_disk: Number(r?.bytes ?? 0) };
  });
  const points: TableSize[] = [];
  for (const [table, bytes] of await keyValueTableBytes(store)) {
    const [c] = await store.query<{ n: string }>(`SELECT count() AS n FROM ${table}`);
    // Without TONFLOW_STORE_POINT_READS the decode stage's stay empty: not part of what the run stored (0015's is
    // filled either way).
    if (Number(c?.n ?? 0) > 0) points.push({ table, rows: Number(c!.n), bytes_on_disk: bytes });
  }
  return [...parts, ...points];
}

const round = (x: number, digits: number): number => Number(x.toFixed(digits));
const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
const met = (ok: boolean): string => (ok ? 'met' : 'NOT met');

/** A run with no target of its own (an option, a baseline): its ratio to the run it is compared with. */
function comparedRow(label: string, t: IngestRunResult, against: IngestRunResult, what: string, targetCell: string): string {
  const rounds = t.rounds_tx_per_s ? ` (median; rounds ${t.rounds_tx_per_s.join(', ')})` : '';
  return `| ${label} | **${t.tx_per_s}**${rounds} | ${targetCell} | ${(t.tx_per_s / against.tx_per_s).toFixed(2)}× ${what} | ${t.seconds} | ${t.cpu_us_per_tx} | ${t.index_seconds} | ${t.peak_rss_mb} MiB | ${t.load_before} |`;
}

function runRow(label: string, r: IngestRunResult): string {
  const rounds = r.rounds_tx_per_s ? ` (median; rounds ${r.rounds_tx_per_s.join(', ')})` : '';
  return `| ${label} | **${r.tx_per_s}**${rounds} | ${r.target_tx_per_s} | ${(r.tx_per_s / r.target_tx_per_s).toFixed(2)}× (${met(r.tx_per_s >= r.target_tx_per_s)}) | ${r.seconds} | ${r.cpu_us_per_tx} | ${r.index_seconds} | ${r.peak_rss_mb} MiB | ${r.load_before} |`;
}

function report(r: IngestBenchResult, opts: IngestBenchOptions): string {
  const e = r.embedded;
  const k = 'skipped' in r.kafka ? null : r.kafka;
  const note: Record<string, string> = {
    transactions: 'distinct per copy',
    messages: 'distinct per copy',
    blocks: 'distinct per copy',
    shard_state: 'none: the corpus has no masterchain blocks',
    key_block_configs: 'none: the corpus has no masterchain blocks',
    transaction_bocs: 'distinct per copy (API v2 `data`, 0017)',
    account_transactions: 'distinct per copy (filled from transactions by a materialized view, 0011)',
    account_recent_transactions: 'one state per account and part (filled from transactions by a materialized view, 0012)',
    message_contents: "external-in messages' bodies distinct per copy, the others shared by the copies (the originals' rows)",
    message_hash_norms: 'distinct per copy (external-in messages)',
    message_sides: 'distinct per copy (filled from messages by materialized views, 0010; 4-16 KiB compressed blocks since 0013; external-in messages only since 0016)',
    transaction_documents: 'distinct per copy (key → value, RocksDB files)',
    transaction_hash_points: 'distinct per copy (key → value, RocksDB files)',
    message_side_points: 'distinct per copy (key → value, RocksDB files; filled from messages by a materialized view, 0015)',
    cells: "the cell store (0025): whole cells of the touched accounts' states, once per hash (key → value, RocksDB files); the copies' states are the originals', so mostly shared",
  };
  const cells = e.tables.find((t) => t.table === 'cells');
  const realCells = r.real.tables.find((t) => t.table === 'cells');
  const cellsLine = cells
    ? `The cell store (0025 \`cells\`) is on in the default pipeline: the decode stage writes it (${(cells.bytes_on_disk / e.transactions).toFixed(1)} bytes per corpus transaction on disk, ${realCells ? (realCells.bytes_on_disk / r.real.transactions).toFixed(1) : '—'} per real fixture transaction; in the table list below), so the embedded row is issue 30's "ingest with the cell store on".`
    : 'The cell store (0025 `cells`) stayed empty in the default pipeline: the embedded row does NOT measure ingest with the cell store on.';
  const t = r.embedded_traces;
  const st = t.stages;
  const dd = r.devnet_decode;
  const dc = r.devnet_corpus;
  const targets = [
    `- embedded, default configuration (cell store and point tables on) ≥ ${EMBEDDED_TARGET} tx/s (issue 30): ${e.tx_per_s} tx/s, **${met(e.tx_per_s >= EMBEDDED_TARGET && cells !== undefined)}**`,
    `- embedded with the trace and action stages ≥ ${TRACES_TARGET} tx/s (issue 29): ${t.tx_per_s} tx/s, **${met(t.tx_per_s >= TRACES_TARGET)}**`,
    `- Kafka ≥ ${KAFKA_TARGET} tx/s: ${k ? `${k.tx_per_s} tx/s, **${met(k.tx_per_s >= KAFKA_TARGET)}**` : '**not run** (no broker)'}`,
  ].join('\n');
  const tableRows = e.tables
    .map((t) => {
      const real = r.real.tables.find((x) => x.table === t.table);
      const realPerTx = real ? (real.bytes_on_disk / r.real.transactions).toFixed(1) : '—';
      return `| ${t.table} | ${t.rows} | ${t.bytes_on_disk} | ${(t.bytes_on_disk / e.transactions).toFixed(1)} | ${note[t.table] ?? 'shared by the copies: the originals\' rows'} | ${real?.rows ?? 0} | ${realPerTx} |`;
    })
    .join('\n');
  return `## ingest — files → bus → decode (and trace, action) stages → ClickHouse, end to end

Command: \`${opts.command}\`
Machine: ${machineLine()}
${speedLine(r.speed.before, r.speed.after)}
Date: ${new Date().toISOString()}
Corpus: ${r.corpus.transactions} distinct real-format transactions in ${r.corpus.files} block BOCs (${mib(r.corpus.bytes)} MiB), written by \`bench/corpus.ts\` from the fixture shard blocks (each copy with its seqno, every transaction lt and every internal and external-out message created_lt rewritten, and 64 bits of every external-in message's body after its opcode, so new transaction and message hashes and (account, lt) keys; account states and the other bodies are the originals').
Pipeline: composed by \`startPipeline\` (services/start/pipeline.ts) as \`tonflow start\` composes it (files source, follower, bus, decode stage; the trace and action stages where the row says so), ClickHouse in-process (chdb); Kafka: ${k ? `a broker at ${opts.kafkaBrokers!.join(',')} (${opts.kafkaOrigin}), follower and decode stage in this process` : 'not run'}.
Clock: from the follower's first publish to the store's acknowledgement of the write holding the last transaction. Not in it: indexing the corpus directory (the files source reads and hashes every block before the first publish; a liteserver hands the hashes over), and the final OPTIMIZE.
Trace and action stages: the corpus has no masterchain blocks, so no masterchain-block messages for the trace stage; those two rows replay a devnet export instead (\`exportDevnet\`, fixed seed: ${dc.transactions} transactions on the real TVM in ${dc.blocks} blocks, ${dc.mc_blocks} of them masterchain blocks each committing a basechain block, traces across blocks and shards; built in ${dc.build_seconds} s, ${mib(dc.bytes)} MiB). Their clock ends when the trace stage has handled every masterchain-block message the follower published and the action stage every trace the trace stage published; traces still waiting for a transaction outside the export are never published and do not hold it.
Rounds: ${e.rounds_tx_per_s ? `${e.rounds_tx_per_s.length} replays of each corpus per pipeline, the pipelines alternating${k ? ' (Kafka last)' : ''}, each into a fresh database${k ? ' and fresh topics' : ''}; each row is the median round (its tx/s, CPU, memory and bytes), and lists every round's tx/s in run order. The host's speed moves within minutes, so the spread of the rounds is part of the result` : 'one replay of the corpus per pipeline'}.

| pipeline | tx/s | target | ratio | seconds | CPU µs/tx (this process) | index s | peak RSS | load avg at start |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${runRow('embedded: in-process bus, chdb (default configuration: point tables and cell store on)', e)}
${comparedRow('embedded with `TONFLOW_STORE_POINT_READS=false` (MergeTree tables only)', r.embedded_tables_only, e, "the default's", '— (option)')}
${comparedRow('devnet export, embedded, decode stage only (the baseline of the next row)', dd, e, "the default's on the corpus", '— (baseline)')}
${runRow('devnet export, embedded with the trace and action stages (`tonflow start`)', t)}
${k ? runRow('Kafka: broker + kafkajs, chdb (default configuration)', k) : `| Kafka | not run: ${(r.kafka as { skipped: string }).skipped} | ${KAFKA_TARGET} | — | — | — | — | — | — |`}

Targets:
${targets}

${cellsLine}

What the trace and action stages stored (the median round): ${st ? `${st.traces} traces (${st.traces_complete} complete, ${st.traces_pending} pending at the end of the export), ${st.traced_transactions} transactions with a trace, ${st.actions} actions; ${st.mc_blocks} masterchain-block messages traced, ${st.traces_published} completed traces published and classified, ${st.dead_lettered} dead-lettered. The decode stage had stored the last transaction at ${st.decode_seconds} s of the ${t.seconds} s; against the decode stage alone on the same export: ${(t.tx_per_s / dd.tx_per_s).toFixed(2)}× its tx/s, ${t.cpu_us_per_tx} against ${dd.cpu_us_per_tx} CPU µs per transaction, ${t.bytes_per_tx} against ${dd.bytes_per_tx} bytes per transaction on disk (the trace tables and \`actions\` included).` : 'not measured.'}

What the point tables (0008/0009) cost (rounds alternate the default and the option, so both see the same host; the option still writes the cell store): ${e.cpu_us_per_tx} against ${r.embedded_tables_only.cpu_us_per_tx} CPU µs per transaction without them, and on disk ${e.tables
  .filter((t) => POINT_TABLES.has(t.table) && t.table !== 'cells')
  .map((t) => `${t.table} ${(t.bytes_on_disk / e.transactions).toFixed(0)}`)
  .join(' + ')} of the ${e.bytes_per_tx} bytes per corpus transaction below (RocksDB files after a compaction). What they buy: the api section.

Transactions a FINAL read found after each run (the fewest of the rounds): ${e.stored_final} of ${e.transactions} embedded${k ? `, ${k.stored_final} of ${k.transactions} through Kafka` : ''}, ${t.stored_final} of ${t.transactions} of the devnet export with the trace and action stages.
The machine has ${os.cpus().length} cores for everything: the decode worker thread (decode, rows, rows → TabSeparated bytes), the stage's own thread (bus, inserts), ClickHouse's insert and merge threads${k ? ', the Kafka client, and the broker (its CPU is not in the column)' : ''}; a load average above ${os.cpus().length} at the start means other processes were competing for them.

Bytes on disk after OPTIMIZE FINAL (\`system.parts\` for the MergeTree tables, the RocksDB files of the key → value tables after a compaction; every table the decode stage writes): **${e.bytes_per_tx} bytes per transaction** for the corpus, **${r.real.bytes_per_tx} bytes per transaction** for the ${r.real.blocks} real fixture blocks (${r.real.transactions} transactions) through the same embedded pipeline.
The two bound the real figure: the copies repeat every column value of their originals but hashes and lts, which ZSTD compresses far better than real data, and share bodies and states outright; the fixture blocks are real but few, so their parts carry fixed per-part overhead and give ZSTD little to work with.

| table | corpus rows | corpus bytes | corpus bytes/tx | | real rows | real bytes/tx |
|---|---:|---:|---:|---|---:|---:|
${tableRows}`;
}
