import { Cell } from '@ton/core';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { type Topics, topicNames, topicSpecs } from '../../shared/contracts/topics.js';
import { openBus, openSource, openStore, sourceName } from '../../services/common/wiring.js';
import { createStoreCheckpoints } from '../../services/follower/checkpoints.js';
import { follow } from '../../services/follower/follow.js';
import { runDecodeStage } from '../../services/indexer/decode.js';
import { createInlineDecoder } from '../../services/indexer/decode-pool.js';
import { createStoreWriter, tableSchema } from '../../services/indexer/sink.js';
import type { TableRows } from '../../services/indexer/decode.js';
import { type EncodedRows, encodeRows } from '../../shared/store/tsv.js';
import { POINT_TABLES, STORE_TABLES } from '../../services/indexer/rows.js';
import { blockToRows } from '../../services/indexer/to-rows.js';
import { HEADER_ERROR_CODE, HEADER_SOURCE_OFFSET, HEADER_SOURCE_TOPIC, type Batch, type Bus, type Consumer, type IncomingMessage } from '../../shared/bus/bus.js';
import { deadLetter } from '../../shared/bus/dead-letter.js';
import { encodeRawBlock } from '../../shared/contracts/raw-block.js';
import { createFilesSource } from '../../shared/sources/files.js';
import { crc32c } from '../../shared/ton/boc/crc32c.js';
import { loadConfig, tonflowConfigSchema, type TonflowConfig } from '../../shared/runtime/config.js';
import { errorCode, isRetryable, UpstreamUnavailableError } from '../../shared/runtime/errors.js';
import { createLogger, type Logger } from '../../shared/runtime/logger.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import { buildApp } from '../../services/gateway/app.js';
import { migrate } from '../../shared/store/migrate.js';
import type { Store } from '../../shared/store/store.js';
import { decodeBlock, parseBlock } from '../../shared/ton/decode-block.js';
import { collect, waitFor } from '../helpers/bus-contract.js';
import { describeFixtures, fixturePath, fixturesDir, readFixture, repoRoot } from '../helpers/fixtures.js';
import { describeClickHouse, startPrivateClickHouse } from '../helpers/clickhouse.js';
import { describeKafka, withAdmin } from '../helpers/kafka.js';
import { patience } from '../helpers/patience.js';

/*
 * The pipeline end to end on real components: files source → follower → bus → decode stage → ClickHouse (chdb),
 * composed from the same wiring functions as `tonflow start` (services/common/wiring.ts, follow, runDecodeStage,
 * createStoreWriter). Embedded on the in-process bus, and through a real Kafka broker. Expected values come from
 * outside the code under test: MANIFEST.md (root hashes, per-block transaction counts), tongo's golden TxHashes and
 * tonutils' (account, lt) list. Fault injection (a corrupt block, a store that refuses inserts) is applied on top of
 * the real components, never instead of them.
 */

const BLOCKS_DIR = path.join(fixturesDir, 'blocks');
const TABLES = STORE_TABLES;

/** One fixture block as MANIFEST.md describes it (its "@ton/core: yes" line). */
interface ManifestBlock {
  file: string;
  workchain: number;
  shard: string;
  seqno: number;
  rootHash: string;
  tx: number;
}

function manifestBlocks(): ManifestBlock[] {
  const text = readFileSync(path.join(fixturesDir, 'MANIFEST.md'), 'utf8');
  const out: ManifestBlock[] = [];
  const re =
    /### `blocks\/([^`]+\.boc)`[^\n]*\n(?:\*[^\n]*\n)*?\* @ton\/core: yes - mainnet wc=(-?\d+) shard=([0-9a-f]{16}) seqno=(\d+) [^\n]*?root_hash=([0-9a-f]{64}); cells=\d+; tx=(\d+)/g;
  for (const m of text.matchAll(re)) {
    out.push({ file: m[1]!, workchain: Number(m[2]), shard: m[3]!, seqno: Number(m[4]), rootHash: m[5]!, tx: Number(m[6]) });
  }
  return out;
}

/** MANIFEST.md, key block 46991999: "shard_hashes wc0: 2000..=52077744, 6000..=52097945, a000..=51731388, e000..=51757085". */
const KEYBLOCK_SHARDS = [
  { shard: '2000000000000000', seqno: 52077744 },
  { shard: '6000000000000000', seqno: 52097945 },
  { shard: 'a000000000000000', seqno: 51731388 },
  { shard: 'e000000000000000', seqno: 51757085 },
];

const hexToB64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');
const b64ToHex = (b64: string): string => Buffer.from(b64, 'base64').toString('hex');
const shardDecimal = (hex: string): string => BigInt(`0x${hex}`).toString();

// ---------------------------------------------------------------------------------------------------------------
// A pipeline, wired as services/start/main.ts wires it
// ---------------------------------------------------------------------------------------------------------------

let dataDir = '';
let counter = 0;

function testConfig(p: { source: string; brokers?: string[]; database?: string; clickhouse?: string }): TonflowConfig {
  const env: Record<string, string> = {
    TONFLOW_MODE: p.brokers ? 'distributed' : 'embedded',
    TONFLOW_SOURCE: `files:${p.source}`,
    TONFLOW_DATA: dataDir,
    TONFLOW_CLICKHOUSE_DATABASE: p.database ?? `pipeline_${process.pid}_${Date.now().toString(36)}_${++counter}`,
    TONFLOW_TOPIC_PREFIX: `tonflow-pipeline-${process.pid}-${Date.now().toString(36)}-${counter}-${randomBytes(3).toString('hex')}`,
    TONFLOW_LOG_LEVEL: 'warn',
  };
  if (p.brokers) env.TONFLOW_KAFKA_BROKERS = p.brokers.join(',');
  if (p.clickhouse) env.TONFLOW_CLICKHOUSE = p.clickhouse;
  return loadConfig(tonflowConfigSchema, { env });
}

interface Stored {
  batches: number;
  blocks: number;
  transactions: number;
  deadLettered: number;
}

interface Stage {
  consumer: Consumer;
  done: Promise<void>;
  stored: Stored;
}

interface Pipeline {
  config: TonflowConfig;
  store: Store;
  bus: Bus;
  topics: Topics;
  /** The first decode stage (more can be started with `startStage`). */
  stage: Stage;
  follower: Promise<void>;
  published: { groups: number; blocks: number };
  logs: string[];
  startStage(storeForRows?: Store): Stage;
  waitStored(blocks: number, what?: string, timeoutMs?: number): Promise<void>;
  /** Stops everything; drops the database unless another pipeline of the test still uses it. */
  close(opts?: { keepDatabase?: boolean }): Promise<void>;
}

/** A logger whose JSON lines are kept for assertions (pino writes each line with one `write`). */
function capturingLogger(lines: string[]): Logger {
  return createLogger({ service: 'pipeline-test', level: 'info', destination: { write: (s: string) => void lines.push(s) } });
}

/**
 * Starts the decode stage (consumer first, as an in-process bus requires) and then the follower, exactly as
 * `tonflow start` does. `storeForRows` replaces the store the stage writes rows through (fault injection); the
 * checkpoint store and everything else use the real one.
 */
async function startPipeline(
  config: TonflowConfig,
  opts: { storeForRows?: (real: Store) => Store; /** Start no decode stage: the test calls startStage() itself. */ deferStage?: boolean } = {},
): Promise<Pipeline> {
  const logs: string[] = [];
  const logger = capturingLogger(logs);
  const store = await openStore(config, logger);
  await migrate(store);
  const bus = openBus(config, logger, 'tonflow-pipeline-test');
  await bus.ensureTopics(topicSpecs(config));
  const producer = await bus.producer();
  const topics = topicNames(config);
  const ac = new AbortController();
  const checkpoints = createStoreCheckpoints(store, sourceName(config), { signal: ac.signal, logger });
  const stages: Stage[] = [];

  const startStage = (storeForRows: Store = opts.storeForRows ? opts.storeForRows(store) : store): Stage => {
    const consumer = bus.consumer({ groupId: `${config.topicPrefix}.decode`, topics: [topics.rawBlocks] });
    const stored: Stored = { batches: 0, blocks: 0, transactions: 0, deadLettered: 0 };
    const log = logger.child({ module: 'decode' });
    const done = runDecodeStage({
      consumer,
      toRows: blockToRows,
      write: createStoreWriter({ store: storeForRows, logger: log }),
      deadLetter: (msg, error) => deadLetter(producer, topics.rawBlocksDlq, msg, error),
      ...(config.mode === 'embedded' ? { checkpoints } : {}),
      onBatch: (b) => {
        stored.batches++;
        stored.blocks += b.blocks;
        stored.transactions += b.transactions;
        stored.deadLettered += b.deadLettered;
      },
    });
    done.catch(() => {});
    const stage = { consumer, done, stored };
    stages.push(stage);
    return stage;
  };

  if (!opts.deferStage) startStage();
  const source = await openSource(config, logger, ac.signal);
  const published = { groups: 0, blocks: 0 };
  const follower = follow({
    source,
    producer,
    topic: topics.rawBlocks,
    mcTopic: topics.mcBlocks,
    checkpoints,
    saveAfterPublish: config.mode === 'distributed',
    signal: ac.signal,
    onGroup: (g) => {
      published.groups++;
      published.blocks += g.blocks;
    },
  });
  follower.catch(() => {});

  let closed = false;
  return {
    config,
    store,
    bus,
    topics,
    get stage() {
      if (!stages[0]) throw new Error('no decode stage started yet');
      return stages[0];
    },
    follower,
    published,
    logs,
    startStage,
    async waitStored(blocks, what = `${blocks} blocks stored`, timeoutMs = 45_000) {
      const total = (): number => stages.reduce((n, s) => n + s.stored.blocks + s.stored.deadLettered, 0);
      await waitFor(() => total() >= blocks, timeoutMs, what);
    },
    async close({ keepDatabase = false } = {}) {
      if (closed) return;
      closed = true;
      ac.abort();
      for (const s of stages) await s.consumer.stop();
      await follower.catch(() => {});
      await source.close();
      await bus.close();
      if (!keepDatabase) await store.command(`DROP DATABASE IF EXISTS \`${store.database}\``).catch(() => {});
      await store.close();
    },
  };
}

/** count() and a content hash of every table under FINAL: what a reader can see. */
async function finalSnapshot(store: Store): Promise<Record<string, { rows: string; hash: string }>> {
  const out: Record<string, { rows: string; hash: string }> = {};
  for (const t of TABLES) {
    // Key → value tables (0008) hold one row per key already; they take no FINAL.
    const from = POINT_TABLES.has(t) ? t : `${t} FINAL`;
    const [r] = await store.query<{ rows: string; hash: string }>(`SELECT count() AS rows, toString(sum(cityHash64(*))) AS hash FROM ${from}`);
    out[t] = r!;
  }
  return out;
}

/** Every check of the stored fixture blocks against values from outside the code under test. */
async function expectFixtureBlocksStored(store: Store): Promise<void> {
  const manifest = manifestBlocks();
  expect(manifest).toHaveLength(14);
  expect(manifest.reduce((n, b) => n + b.tx, 0)).toBe(1270);

  const blocks = await store.query<{ workchain: number; shard: string; seqno: number; root_hash: string; mc_block_seqno: number | null; tx_count: number }>(
    'SELECT workchain, toString(shard) AS shard, seqno, root_hash, mc_block_seqno, tx_count FROM blocks FINAL ORDER BY workchain, shard, seqno',
  );
  expect(blocks).toHaveLength(14);
  const txPerBlock = new Map(
    (
      await store.query<{ wc: number; shard: string; seqno: number; n: string }>(
        'SELECT block_workchain AS wc, toString(block_shard) AS shard, block_seqno AS seqno, count() AS n FROM transactions FINAL GROUP BY wc, shard, seqno',
      )
    ).map((r) => [`${r.wc}:${r.shard}:${r.seqno}`, Number(r.n)]),
  );
  for (const m of manifest) {
    const b = blocks.find((x) => x.workchain === m.workchain && x.shard === shardDecimal(m.shard) && x.seqno === m.seqno);
    expect(b, `block ${m.file}`).toBeDefined();
    expect(b!.root_hash, `root hash of ${m.file}`).toBe(hexToB64(m.rootHash));
    expect(b!.tx_count, `tx_count of ${m.file}`).toBe(m.tx);
    expect(txPerBlock.get(`${m.workchain}:${shardDecimal(m.shard)}:${m.seqno}`) ?? 0, `transactions of ${m.file}`).toBe(m.tx);
    // A masterchain block is its own masterchain block; the fixture shard blocks are committed by masterchain blocks
    // the directory does not have, so the files source cannot know theirs.
    expect(b!.mc_block_seqno, `mc_block_seqno of ${m.file}`).toBe(m.workchain === -1 ? m.seqno : null);
  }
  const [tx] = await store.query<{ n: string; mc_ok: string; shard_null: string }>(
    `SELECT count() AS n,
            countIf(block_workchain = -1 AND mc_block_seqno = block_seqno) AS mc_ok,
            countIf(block_workchain != -1 AND mc_block_seqno IS NULL) AS shard_null
     FROM transactions FINAL`,
  );
  const mcTx = manifest.filter((m) => m.workchain === -1).reduce((n, m) => n + m.tx, 0);
  expect(tx).toEqual({ n: '1270', mc_ok: String(mcTx), shard_null: String(1270 - mcTx) });

  // What the v2 block operations print (0014): the hashes each block names itself. Previous blocks' against MANIFEST
  // (tongo block_test.go, ton_lib block_info.rs); the state root against @ton/core's level-0 hash of the state update's
  // new side.
  const headers = await store.query<{ workchain: number; seqno: number; state_root_hash: string; prev: Array<{ root_hash: string; file_hash: string }> }>(
    'SELECT workchain, seqno, state_root_hash, prev_block_hashes AS prev FROM blocks FINAL',
  );
  const header = (workchain: number, seqno: number) => headers.find((h) => h.workchain === workchain && h.seqno === seqno)!;
  expect(header(0, 13516764).prev.map((p) => [b64ToHex(p.root_hash), b64ToHex(p.file_hash)])).toEqual([
    ['617f643f15a42f28018e3e3c89f14b952a0d67fa90968ae5360a51b96c6a1c42', '563aa5f3d51585b95c0c89bf6c4e39455f4c121269521c1c5b6dc07f03c5d230'],
    ['032b1bf3016c9b71816c52f207c4cd79d75541f78eacb11cac2ea7b77d2a603d', '8dcab64721513f3db73a081dd61cdf51d7fec79347ab348d43ffb8bc052a8db3'],
  ]);
  expect(b64ToHex(header(0, 52111590).prev[0]!.root_hash)).toMatch(/^e05bbe4312f8/);
  expect(b64ToHex(header(-1, 46991999).prev[0]!.file_hash)).toMatch(/^2e58dcf8/);
  for (const m of manifest) {
    const update = Cell.fromBoc(readFixture(`blocks/${m.file}`))[0]!.refs[2]!;
    expect(header(m.workchain, m.seqno).state_root_hash, `state root of ${m.file}`).toBe(update.refs[1]!.hash(0).toString('base64'));
  }

  // tongo's golden TxHashes (hex) for the blocks that have them.
  for (const [file, seqno] of [
    ['mainnet_0_8000000000000000_40484416.tongo-expected.json', 40484416],
    ['mainnet_-1_8000000000000000_17734191.tongo-expected.json', 17734191],
  ] as const) {
    const expected = (JSON.parse(readFixture(`blocks/${file}`).toString('utf8')) as { TxHashes: string[] }).TxHashes;
    const rows = await store.query<{ hash: string }>('SELECT hash FROM transactions FINAL WHERE block_seqno = {seqno:UInt32}', { seqno });
    expect(rows.map((r) => b64ToHex(r.hash)).sort(), `tx hashes of block ${seqno}`).toEqual([...expected].map((h) => h.toLowerCase()).sort());
  }

  // tonutils' (account, lt) list of block 71398501.
  const meta = JSON.parse(readFixture('blocks/mainnet_0_8000000000000000_71398501.meta.json').toString('utf8')) as {
    transaction_configs: Array<{ account: string; lt: number }>;
  };
  const fat = await store.query<{ account: string; lt: string }>(
    'SELECT account, toString(lt) AS lt FROM transactions FINAL WHERE block_seqno = 71398501 AND block_workchain = 0',
  );
  expect(fat.map((r) => `${r.account.toLowerCase()}@${r.lt}`).sort()).toEqual(
    meta.transaction_configs.map((t) => `${t.account.toLowerCase()}@${t.lt}`).sort(),
  );

  // The key block's shard_state: the shard blocks it commits, as MANIFEST.md lists them.
  const shards = await store.query<{ workchain: number; shard: string; seqno: number }>(
    'SELECT workchain, toString(shard) AS shard, seqno FROM shard_state FINAL WHERE mc_seqno = 46991999 ORDER BY shard_state.shard',
  );
  expect(shards).toEqual(KEYBLOCK_SHARDS.map((s) => ({ workchain: 0, shard: shardDecimal(s.shard), seqno: s.seqno })));
}

// ---------------------------------------------------------------------------------------------------------------
// Fault injection on top of the real components
// ---------------------------------------------------------------------------------------------------------------

/**
 * The real store, except that `insert` throws a retryable `UpstreamUnavailableError` while `failing` is set (as a
 * ClickHouse outage does after the adapter translated it). Everything that is not refused reaches the real store.
 */
function refusingStore(real: Store): Store & { failing: boolean; refused: number } {
  const s = {
    failing: true,
    refused: 0,
    get database() {
      return real.database;
    },
    get pointReadSettings() {
      return real.pointReadSettings;
    },
    command: (q: string, p?: Record<string, unknown>) => real.command(q, p),
    query: <T,>(q: string, p?: Record<string, unknown>, o?: { timeoutMs?: number }) => real.query<T>(q, p, o),
    queryFields: (q: string, columns: number, p?: Record<string, unknown>, o?: { timeoutMs?: number }) => real.queryFields(q, columns, p, o),
    close: () => real.close(),
    columnTypes: (table: string) => real.columnTypes(table),
    async insert(table: string, rows: readonly object[]) {
      if (s.failing) {
        s.refused++;
        throw new UpstreamUnavailableError('STORE_UNAVAILABLE', `insert into ${table}: injected outage (attempt ${s.refused})`);
      }
      await real.insert(table, rows);
    },
    async insertEncoded(table: string, rows: EncodedRows | readonly EncodedRows[]) {
      if (s.failing) {
        s.refused++;
        throw new UpstreamUnavailableError('STORE_UNAVAILABLE', `insert into ${table}: injected outage (attempt ${s.refused})`);
      }
      await real.insertEncoded(table, rows);
    },
  };
  return s;
}

/** Three shard blocks in generation-time order, the middle one with its first transaction's TL-B tag broken. */
const CORRUPT_SET = [
  'mainnet_0_8000000000000000_29836576_empty.boc', // 0 tx, utime 1666094316 → offset 0
  'mainnet_0_8000000000000000_34703989_nft.boc', // 7 tx, utime 1682417974 → offset 1, corrupted
  'mainnet_0_8000000000000000_40484416.boc', // 479 tx, utime 1701783346 → offset 2
];

/**
 * A copy of a real block whose first transaction cell starts with 0000 instead of `transaction$0111` (block.tlb), the
 * BOC's CRC32C recomputed: the files source indexes it like any block (header, hashes), decoding fails.
 */
function corruptBlock(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  const { boc, transactions } = parseBlock(bytes);
  const bit = boc.dataOff[transactions[0]!.cell]! * 8;
  for (let i = bit; i < bit + 4; i++) out[i >> 3] = out[i >> 3]! & ~(0x80 >> (i & 7));
  if (out.readUInt32BE(0) === 0xb5ee9c72 && (out[4]! & 0x40) !== 0) out.writeUInt32LE(crc32c(out, 0, out.length - 4), out.length - 4);
  return out;
}

function writeCorruptSet(): { dir: string; bad: Buffer; expectedCode: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-pipeline-corrupt-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(fixturePath(`blocks/${CORRUPT_SET[0]}`), path.join(dir, CORRUPT_SET[0]!));
  copyFileSync(fixturePath(`blocks/${CORRUPT_SET[2]}`), path.join(dir, CORRUPT_SET[2]!));
  const bad = corruptBlock(readFixture(`blocks/${CORRUPT_SET[1]}`));
  writeFileSync(path.join(dir, CORRUPT_SET[1]!), bad);
  // What the decoder says about these bytes, independently of the pipeline.
  let expectedCode = '';
  try {
    decodeBlock(bad);
  } catch (e) {
    expectedCode = errorCode(e);
  }
  expect(expectedCode).toMatch(/^[A-Z][A-Z0-9_]+$/);
  return { dir, bad, expectedCode };
}

async function expectCorruptBlockDeadLettered(p: Pipeline, bad: Buffer, expectedCode: string, timeoutMs: number): Promise<void> {
  await p.waitStored(3, 'three blocks handled (two stored, one dead-lettered)');
  expect(p.stage.stored).toMatchObject({ blocks: 2, transactions: 479, deadLettered: 1 });
  const dlq = collect(p.bus, { groupId: `${p.config.topicPrefix}.dlq-reader`, topics: [p.topics.rawBlocksDlq] });
  onTestFinished(() => dlq.consumer.stop());
  await waitFor(() => dlq.received.length >= 1, timeoutMs, 'the dead letter');
  // Nothing more arrives: the stage has handled all three blocks, so the dead-letter topic is complete.
  await new Promise((r) => setTimeout(r, 300));
  expect(dlq.received).toHaveLength(1);
  const [msg] = dlq.received;
  expect(msg!.headers[HEADER_ERROR_CODE]).toBe(expectedCode);
  expect(msg!.headers[HEADER_SOURCE_OFFSET]).toBe('1');
  expect(msg!.headers[HEADER_SOURCE_TOPIC]).toBe(p.topics.rawBlocks);
  // The dead letter is the message as it was: key and block bytes unchanged, replayable.
  expect(msg!.value.equals(bad)).toBe(true);
  expect(msg!.key).toBe('0:8000000000000000');
  const [counts] = await p.store.query<{ blocks: string; txs: string }>(
    'SELECT (SELECT count() FROM blocks FINAL) AS blocks, (SELECT count() FROM transactions FINAL) AS txs',
  );
  expect(counts).toEqual({ blocks: '2', txs: '479' });
}

// ---------------------------------------------------------------------------------------------------------------

beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-pipeline-'));
});

afterAll(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describeFixtures('pipeline, embedded (in-process bus, chdb)', () => {
  it('stores every fixture block and transaction with the values MANIFEST.md, tongo and tonutils give; a replay changes nothing a FINAL read sees', async () => {
    const config = testConfig({ source: BLOCKS_DIR });
    const again = (): TonflowConfig => testConfig({ source: BLOCKS_DIR, database: config.clickhouseDatabase });
    const first = await startPipeline(config);
    onTestFinished(() => first.close());
    await first.waitStored(14);
    await first.follower;
    expect(first.published).toEqual({ groups: 14, blocks: 14 });
    expect(first.stage.stored).toMatchObject({ blocks: 14, transactions: 1270, deadLettered: 0 });
    await expectFixtureBlocksStored(first.store);
    // Data BOCs the state updates hold whole reach the store, and each hashes to its recorded data hash.
    const withData = await first.store.query<{ data_hash: string; data_boc: string }>(
      'SELECT data_hash, data_boc FROM account_states FINAL WHERE data_boc IS NOT NULL',
    );
    expect(withData.length).toBeGreaterThan(0);
    for (const r of withData) expect(Cell.fromBase64(r.data_boc).hash().toString('base64')).toBe(r.data_hash);
    const before = await finalSnapshot(first.store);

    // The decode stage saved the follower's checkpoint once the last group was stored: a restart resumes after it
    // and publishes nothing.
    const resumed = await startPipeline(again());
    try {
      await resumed.follower;
      expect(resumed.published).toEqual({ groups: 0, blocks: 0 });
    } finally {
      await resumed.close({ keepDatabase: true });
    }

    // Replay: the same blocks from the start (the checkpoint forgotten), into the same tables.
    await first.store.command('TRUNCATE TABLE follower_checkpoints');
    const replay = await startPipeline(again());
    try {
      await replay.waitStored(14, 'the replay');
      await replay.follower;
      expect(replay.published).toEqual({ groups: 14, blocks: 14 });
      expect(replay.stage.stored).toMatchObject({ blocks: 14, transactions: 1270 });
    } finally {
      await replay.close({ keepDatabase: true });
    }
    expect(await finalSnapshot(first.store)).toEqual(before);
    const [rows] = await first.store.query<{ all: string; final: string }>(
      'SELECT (SELECT count() FROM transactions) AS all, (SELECT count() FROM transactions FINAL) AS final',
    );
    console.info(`replay: transactions count() ${rows!.all} rows in parts, count() FINAL ${rows!.final}`);
    expect(Number(rows!.all)).toBeGreaterThanOrEqual(1270);
    expect(rows!.final).toBe('1270');
    await first.close();
  });

  it('rebuilds code an account\'s own state pruned from the cells stored for another account, and the v3 endpoint returns it', async () => {
    // Block 52111590 touches jetton wallet 0:6625…; its state update prunes the wallet's code (unchanged), so its
    // state row has only the code hash. The same block deploys another wallet of that code (0:7A90…, nonexist →
    // active), whose new state carries the code whole. tongo names the hash: jetton_wallet_governed.
    const account = '0:662553701B106DA52C4D5AF9A59E5A0BAF0B718430197F769669319F53CBAE57';
    const tongo = JSON.parse(readFileSync(path.join(fixturesDir, 'contracts/tongo_interface_code_hashes.json'), 'utf8')) as Array<{ interface: string; code_hash: string }>;
    const governed = tongo.find((e) => e.interface === 'jetton_wallet_governed')!.code_hash;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-fullstate-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    for (const f of ['mainnet_0_8000000000000000_71398501.boc', 'mainnet_0_6000000000000000_52111590.boc']) copyFileSync(path.join(BLOCKS_DIR, f), path.join(dir, f));
    const p = await startPipeline(testConfig({ source: dir }));
    onTestFinished(() => p.close());
    await p.waitStored(2);
    await p.follower;

    const [row] = await p.store.query<{ code_hash: string; code_boc: string | null }>(
      'SELECT code_hash, code_boc FROM latest_account_states FINAL WHERE account = {account:String}',
      { account },
    );
    expect(b64ToHex(row!.code_hash)).toBe(governed);
    expect(row!.code_boc).toBeNull();
    const [cells] = await p.store.query<{ n: string; bytes: string }>('SELECT count() AS n, sum(length(hash) + length(record)) AS bytes FROM cells');
    expect(Number(cells!.n)).toBeGreaterThan(0);

    const app = await buildApp({
      store: p.store,
      logger: createLogger({ service: 'test', level: 'silent' }),
      metrics: createMetrics({ service: 'gateway', processMetrics: false }),
      config: { apiKeys: [], rpsWithoutKey: 0, testnet: false, validateResponses: true, responseCacheEntries: 0 },
    });
    onTestFinished(() => app.close());
    const res = await app.inject({ method: 'GET', url: `/api/v3/accountStates?address=${account}&include_boc=true` });
    expect(res.statusCode).toBe(200);
    const [state] = res.json().accounts as Array<{ code_hash: string; code_boc?: string }>;
    expect(state!.code_boc).toBeDefined();
    expect(Cell.fromBase64(state!.code_boc!).hash().toString('hex')).toBe(governed);
    expect(b64ToHex(state!.code_hash)).toBe(governed);
  });

  it('dead-letters a corrupt block with x-error-code and x-source-offset and stores the blocks around it', async () => {
    const { dir, bad, expectedCode } = writeCorruptSet();
    const p = await startPipeline(testConfig({ source: dir }));
    onTestFinished(() => p.close());
    await expectCorruptBlockDeadLettered(p, bad, expectedCode, 5000);
  });

  it('retries a store that refuses inserts with backoff, commits nothing meanwhile, and stores every row once it recovers', async () => {
    let refusing: ReturnType<typeof refusingStore> | undefined;
    const p = await startPipeline(testConfig({ source: BLOCKS_DIR }), { storeForRows: (real) => (refusing = refusingStore(real)) });
    onTestFinished(() => p.close());
    await waitFor(() => refusing!.refused >= 4, 20_000, 'four refused inserts');
    const retries = p.logs.map((l) => JSON.parse(l) as { msg: string; attempt?: number; delayMs?: number }).filter((l) => l.msg === 'retrying after failure');
    expect(retries.length).toBeGreaterThanOrEqual(3);
    expect(retries.slice(0, 3).map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(p.stage.stored.batches).toBe(0);

    // Nothing was committed: a new member of the group, once the stuck one leaves, is handed the same batch from
    // the first offset.
    await p.stage.consumer.stop();
    const peeked: Batch[] = [];
    const peek = p.bus.consumer({ groupId: `${p.config.topicPrefix}.decode`, topics: [p.topics.rawBlocks] });
    const peeking = peek.run(async (batch, ctx) => {
      peeked.push(batch);
      // Hold the batch without resolving (resolving would commit it) until stopped.
      await new Promise((r) => ctx.signal.addEventListener('abort', r, { once: true }));
      throw new Error('peek only');
    });
    await waitFor(() => peeked.length > 0, 5000, 'the redelivered batch');
    expect(peeked[0]!.messages[0]!.offset).toBe('0');
    await peek.stop();
    await peeking.catch(() => {});
    const [empty] = await p.store.query<{ n: string }>('SELECT count() AS n FROM transactions');
    expect(empty!.n).toBe('0');

    // The store recovers: a stage of the same group stores everything, once.
    refusing!.failing = false;
    const second = p.startStage(refusing);
    await waitFor(() => second.stored.blocks >= 14, 30_000, 'all blocks after the recovery');
    await expectFixtureBlocksStored(p.store);
  });
});

describeFixtures('decode workers (compiled, as `tonflow start|indexer` runs them)', () => {
  it('map each block to the same rows as the stage\'s own thread and pass a poison block\'s error on with its code', async () => {
    // Worker threads run the compiled entry, so this uses dist/ (built by `npm test` before vitest starts).
    const dist = path.join(repoRoot, 'dist', 'services', 'indexer', 'decode-pool.js');
    expect(existsSync(dist), 'dist/ is built (npm run build)').toBe(true);
    const pool = (await import(pathToFileURL(dist).href)) as typeof import('../../services/indexer/decode-pool.js');
    const decoder = pool.createWorkerDecoder(2);
    onTestFinished(() => decoder.close());
    const inline = createInlineDecoder(blockToRows);
    const source = await createFilesSource({ dir: BLOCKS_DIR });
    const messages: IncomingMessage[] = [];
    for await (const g of source.groups(null, new AbortController().signal)) {
      for (const b of g.blocks) {
        const out = encodeRawBlock(b, g.checkpoint);
        messages.push({ topic: 't', partition: 0, offset: String(messages.length), key: out.key, value: out.value, headers: out.headers ?? {} });
      }
    }
    expect(messages).toHaveLength(14);
    const viaWorkers = await Promise.all(messages.map((m) => decoder.decode(m)));
    for (let i = 0; i < messages.length; i++) expect(viaWorkers[i]).toEqual(await inline.decode(messages[i]!));
    expect(viaWorkers.reduce((n, d) => n + d.transactions, 0)).toBe(1270);
    // Point tables only with TONFLOW_STORE_POINT_READS (RowsMapOptions.points).
    expect(viaWorkers.map((d) => (d.rows.transaction_documents as object[]).length + (d.rows.transaction_hash_points as object[]).length)).toEqual(messages.map(() => 0));

    // With the store's column types the workers send each table's rows as TabSeparated bytes instead: exactly what
    // the store would have encoded from the thread's row objects.
    const store = await openStore(testConfig({ source: BLOCKS_DIR, database: `test_workers_${Date.now()}` }), capturingLogger([]));
    onTestFinished(() => store.close());
    await migrate(store);
    const schema = await tableSchema(store);
    // With the point tables too: the option reaches the workers.
    const encoding = pool.createWorkerDecoder(1, schema, { points: true });
    onTestFinished(() => encoding.close());
    const inlinePoints = createInlineDecoder(blockToRows, { points: true });
    let encodedTables = 0;
    const chunk: TableRows = new Map();
    for (const m of messages) {
      const [got, objects] = await Promise.all([encoding.decode(m), inlinePoints.decode(m)]);
      for (const [table, rows] of Object.entries(objects.rows)) {
        const expected = Array.isArray(rows) ? encodeRows(rows, schema.get(table)!) : rows;
        expect(got.rows[table], table).toEqual(expected ?? rows);
        if (expected) encodedTables++;
      }
      for (const [table, rows] of Object.entries(got.rows)) {
        const list = chunk.get(table) ?? { objects: [], encoded: [] };
        if (Array.isArray(rows)) list.objects.push(...rows);
        else list.encoded.push(rows);
        chunk.set(table, list);
      }
    }
    expect(encodedTables).toBeGreaterThan(14 * 3);
    // The stage's writer stores the encoded parts of all 14 blocks (one insert per table).
    await createStoreWriter({ store, logger: capturingLogger([]) })(chunk, new AbortController().signal);
    await expectFixtureBlocksStored(store);
    // One point row per transaction; the cell store holds each state cell once, however many blocks carried it.
    const distinctCells = new Set(
      readdirSync(BLOCKS_DIR)
        .filter((f) => f.endsWith('.boc'))
        .flatMap((f) => decodeBlock(readFixture(`blocks/${f}`)).cells.map((c) => c.hash)),
    ).size;
    expect(distinctCells).toBeGreaterThan(0);
    for (const t of POINT_TABLES) {
      const n = t === 'cells' ? String(distinctCells) : '1270';
      expect(await store.query(`SELECT count() AS n FROM ${t}`), t).toEqual([{ n }]);
    }

    const bad = corruptBlock(readFixture(`blocks/${CORRUPT_SET[1]}`));
    const poison: IncomingMessage = { ...messages.find((m) => m.headers['x-block-id'] === '0:8000000000000000:34703989')!, value: bad };
    const [fromWorker, fromThread] = await Promise.all([decoder.decode(poison).catch((e: unknown) => e), inline.decode(poison).catch((e: unknown) => e)]);
    expect(errorCode(fromWorker)).toBe(errorCode(fromThread));
    expect(isRetryable(fromWorker)).toBe(false);
    expect((fromWorker as Error).message).toBe((fromThread as Error).message);
  });
});

describeKafka('pipeline through Kafka (real broker, chdb)', (brokers) => {
  describeFixtures('fixture blocks', () => {
    it('stores every fixture block through the broker and commits every offset after the store acknowledged it', () =>
      expectStoredThroughKafka(testConfig({ source: BLOCKS_DIR, brokers }), brokers));

    it('dead-letters a corrupt block to the real dead-letter topic with x-error-code and x-source-offset', async () => {
      const { dir, bad, expectedCode } = writeCorruptSet();
      const p = await startPipeline(testConfig({ source: dir, brokers }));
      onTestFinished(() => p.close());
      // One key (one shard), so all three blocks share a partition and keep offsets 0, 1, 2.
      await expectCorruptBlockDeadLettered(p, bad, expectedCode, 30_000);
    });

    it('retries a refusing store with backoff and commits no offset until the store has the rows', async () => {
      let refusing: ReturnType<typeof refusingStore> | undefined;
      const config = testConfig({ source: BLOCKS_DIR, brokers });
      const p = await startPipeline(config, { storeForRows: (real) => (refusing = refusingStore(real)) });
      onTestFinished(() => p.close());
      await p.follower;
      await waitFor(() => refusing!.refused >= 4, 45_000, 'four refused inserts');
      const group = `${config.topicPrefix}.decode`;
      // The admin client's view of the group: not a single committed offset while inserts fail.
      expect(await committed(brokers, group, p.topics.rawBlocks)).toEqual(new Map());
      expect(retryLogs(p).slice(0, 3).map((r) => r.attempt)).toEqual([1, 2, 3]);

      refusing!.failing = false;
      await p.waitStored(14, 'all blocks after the recovery', 45_000);
      await expectFixtureBlocksStored(p.store);
      await expect.poll(() => caughtUp(brokers, group, p.topics.rawBlocks), { timeout: patience(15_000), interval: 250 }).toBe(true);
    });
  });
});

describeKafka('pipeline distributed: Kafka and a ClickHouse server (--clickhouse URL)', (brokers) => {
  describeClickHouse('server', (url) => {
    describeFixtures('fixture blocks', () => {
      it('stores every fixture block through the broker into the server and commits every offset after it acknowledged', async () => {
        const config = testConfig({ source: BLOCKS_DIR, brokers, clickhouse: url });
        expect(config.clickhouse).toBe(url);
        await expectStoredThroughKafka(config, brokers);
      });

      it('rides out a killed ClickHouse server: retries with backoff, commits nothing meanwhile, stores every row once after the restart', async () => {
        const server = await startPrivateClickHouse();
        onTestFinished(() => server.stop());
        const config = testConfig({ source: BLOCKS_DIR, brokers, clickhouse: server.url });
        const p = await startPipeline(config, { deferStage: true });
        onTestFinished(() => p.close());
        // Every block waits in the broker; then the store dies (kill -9, no clean shutdown) and the stage starts.
        await p.follower;
        expect(p.published).toEqual({ groups: 14, blocks: 14 });
        await server.kill();
        const stage = p.startStage();
        await waitFor(() => retryLogs(p, 'insert into').length >= 3, 45_000, 'three insert retries against the dead server');
        const group = `${config.topicPrefix}.decode`;
        expect(await committed(brokers, group, p.topics.rawBlocks)).toEqual(new Map());
        expect(stage.stored.blocks).toBe(0);

        await server.start();
        await p.waitStored(14, 'all blocks after the server came back', 90_000);
        await expectFixtureBlocksStored(p.store);
        await expect.poll(() => caughtUp(brokers, group, p.topics.rawBlocks), { timeout: patience(30_000), interval: 250 }).toBe(true);
      });

      it('waits out a store that is down when the follower starts, instead of exiting or skipping its checkpoint', async () => {
        const server = await startPrivateClickHouse();
        onTestFinished(() => server.stop());
        const config = testConfig({ source: BLOCKS_DIR, brokers, clickhouse: server.url });
        const p = await startPipeline(config);
        onTestFinished(() => p.close());
        await server.kill();
        await waitFor(() => retryLogs(p, 'load follower checkpoint').length >= 3, 45_000, 'three checkpoint retries against the dead server');
        await server.start();
        await p.waitStored(14, 'all blocks once the store is back', 90_000);
        await p.follower;
        expect(p.published).toEqual({ groups: 14, blocks: 14 });
        await expectFixtureBlocksStored(p.store);
        const [cp] = await p.store.query<{ n: string }>('SELECT count() AS n FROM follower_checkpoints FINAL');
        expect(cp).toEqual({ n: '1' });
      });
    });
  });
});

/** Runs the fixture blocks through a Kafka pipeline: all stored with their independent values, every offset committed. */
async function expectStoredThroughKafka(config: TonflowConfig, brokers: string[]): Promise<void> {
  const p = await startPipeline(config);
  onTestFinished(() => p.close());
  await p.waitStored(14, '14 blocks through Kafka', 60_000);
  expect(p.published).toEqual({ groups: 14, blocks: 14 });
  await expectFixtureBlocksStored(p.store);
  await expect.poll(() => caughtUp(brokers, `${config.topicPrefix}.decode`, p.topics.rawBlocks), { timeout: patience(15_000), interval: 250 }).toBe(true);
}

/** The pipeline's "retrying after failure" log lines, those whose `what` starts with `what` when given. */
function retryLogs(p: Pipeline, what?: string): Array<{ attempt?: number; what?: string }> {
  return p.logs
    .map((l) => JSON.parse(l) as { msg: string; attempt?: number; what?: string })
    .filter((l) => l.msg === 'retrying after failure' && (what === undefined || l.what?.startsWith(what) === true));
}

/** The group's committed offsets of `topic` by partition, from an independent admin client. */
async function committed(brokers: string[], groupId: string, topic: string): Promise<Map<number, string>> {
  return withAdmin(brokers, async (admin) => {
    const [res] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return new Map((res?.partitions ?? []).filter((p) => p.offset !== '-1').map((p) => [p.partition, p.offset]));
  });
}

/** True when the group has committed every partition of `topic` up to its end. */
async function caughtUp(brokers: string[], groupId: string, topic: string): Promise<boolean> {
  const ends = await withAdmin(brokers, (admin) => admin.fetchTopicOffsets(topic));
  const done = await committed(brokers, groupId, topic);
  return ends.every((e) => e.high === '0' || done.get(e.partition) === e.high);
}
