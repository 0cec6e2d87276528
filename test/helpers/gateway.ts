import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe } from 'vitest';
import { STORE_TABLES, type StoreRows, toRows } from '../../services/indexer/rows.js';
import { type GatewayAppConfig, buildApp } from '../../services/gateway/app.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import { createStore } from '../../shared/store/client.js';
import { migrate } from '../../shared/store/migrate.js';
import type { Store } from '../../shared/store/store.js';
import { type DecodedBlock, parseBlock, toRecords } from '../../shared/ton/decode-block.js';
import { describeClickHouse } from './clickhouse.js';
import { describeFixtures, fixturesDir, readFixture } from './fixtures.js';

/**
 * A gateway over a fresh embedded store filled from every real fixture block: decoded with the decoder, mapped with
 * `toRows`, inserted table by table (as test/integration/store.test.ts does). Fixture blocks are isolated, so a
 * shard block's committing masterchain block is unknown: it stands in `master_ref_seqno + 1`, the earliest
 * masterchain block that could commit it.
 */

export const TABLES = STORE_TABLES;

export interface FixtureBlock {
  file: string;
  decoded: DecodedBlock;
  mcSeqno: number;
  rows: StoreRows;
}

export function decodeFixtureBlocks(): FixtureBlock[] {
  const dir = path.join(fixturesDir, 'blocks');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.boc'))
    .sort()
    .map((file) => {
      const bytes = readFixture(`blocks/${file}`);
      const decoded = toRecords(parseBlock(bytes), bytes);
      const b = decoded.block;
      const mcSeqno = b.workchain === -1 ? b.seqno : (b.master_ref_seqno ?? b.min_ref_mc_seqno) + 1;
      return { file, decoded, mcSeqno, rows: toRows(decoded, { mcSeqno, points: true }) };
    });
}

export async function insertRows(store: Store, blocks: readonly FixtureBlock[], tables: readonly (keyof StoreRows)[] = TABLES): Promise<void> {
  for (const t of tables) {
    const rows = blocks.flatMap((b) => b.rows[t] as object[]);
    await store.insert(t, rows);
  }
}

/** A logger that discards everything (the gateway logs errors; tests assert on responses). */
export function silentLogger() {
  return createLogger({
    service: 'test',
    level: 'silent',
    destination: new Writable({ write: (_c, _e, cb) => cb() }),
  });
}

export interface GatewayFixture {
  app: FastifyInstance;
  store: Store;
  blocks: FixtureBlock[];
  close(): Promise<void>;
}

let seq = 0;

/**
 * Opens a store in its own database (and data directory when none is given), fills it from the fixtures and builds
 * the app with `config` (default: no keys, no rate limit, response validation on).
 */
export async function createGatewayFixture(
  config: Partial<GatewayAppConfig> = {},
  opts: { dataDir?: string; tables?: readonly (keyof StoreRows)[]; /** A ClickHouse server instead of chdb. */ clickhouseUrl?: string } = {},
): Promise<GatewayFixture> {
  const ownDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'tonflow-gateway-'));
  const database = `test_gateway_${process.pid}_${Date.now().toString(36)}_${seq++}`;
  const store = await (opts.clickhouseUrl
    ? createStore({ mode: 'server', url: opts.clickhouseUrl, database })
    : createStore({ mode: 'embedded', dataDir, database }));
  await migrate(store);
  const blocks = decodeFixtureBlocks();
  await insertRows(store, blocks, opts.tables);
  const app = await buildApp({
    store,
    logger: silentLogger(),
    metrics: createMetrics({ service: 'gateway', processMetrics: false }),
    // The response cache would answer a test that changes the store and reads again with the answer from before
    // (for up to its check interval); its own tests turn it on.
    config: { apiKeys: [], rpsWithoutKey: 0, testnet: false, validateResponses: true, responseCacheEntries: 0, ...config },
  });
  return {
    app,
    store,
    blocks,
    async close() {
      await app.close();
      await store.command(`DROP DATABASE IF EXISTS ${store.database}`);
      await store.close();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** GET through `inject`, returning status, headers and the parsed JSON body. */
export async function get(app: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'GET', url, headers });
  let body: unknown;
  try {
    body = res.json();
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, headers: res.headers, body: body as any };
}

// ---------------------------------------------------------------------------------------------------------------
// The endpoint suites (services/gateway/routes/*.test.ts): the v3 and v2 endpoints over a store filled from every real
// fixture block, through fastify inject(). Expected values are the independently stated ones wherever the fixtures
// have them: MANIFEST.md block ids, root hashes and BlockInfo fields, the tongo expected JSON (transaction hashes, lts,
// prev hashes, statuses, out message counts), the tonutils (account, lt, now) list of block 71398501 and the pre-block
// ShardAccounts of its 234 accounts, the well-known user-friendly addresses of the elector and of a ton-core test
// account. Every response is also checked against its zod schema by the app itself (validateResponses) and against
// the published OpenAPI document in gateway-openapi.test.ts.
// ---------------------------------------------------------------------------------------------------------------

export const b64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');
export const b64url = (hex: string): string => Buffer.from(hex, 'hex').toString('base64url');
export const raw = (wc: number, hex: string): string => `${wc}:${hex.toUpperCase()}`;
export const MC_SHARD = '8000000000000000';

/** MANIFEST.md: every fixture block with its seqno, shard, gen_utime and (computed upstream or stated) root hash. */
export const MANIFEST_BLOCKS = [
  { wc: -1, shard: MC_SHARD, seqno: 17734191, utime: 1642757054, tx: 6, root: '04c2c26fa7f6f84255d142ff2c4f98666db56879911fc2e83b3a284f20ca48ec' },
  { wc: -1, shard: MC_SHARD, seqno: 24374597, utime: 1666094058, tx: 5, root: '1908d071c508674d205fae80f3793faf9448202166f9189769e45d506d1e0b56' },
  { wc: -1, shard: MC_SHARD, seqno: 34974098, utime: 1703486029, tx: 3, root: 'bdda060f55ae8fb948cb34e1762a4c561ddcc3bed12d517edf24aa01c5a11637' },
  { wc: -1, shard: MC_SHARD, seqno: 46991999, utime: 1745112841, tx: 3, root: 'cbebaa6ac4270c987c90c5ed930ff37f9b73c705999585d6d8c1c5e9fa3dd6e3' },
  { wc: -1, shard: MC_SHARD, seqno: 49383163, utime: 1751303785, tx: 0, root: '4361f91c96b6b770ac0336ce25bbb1118ec5992a6e66d791d20286b3d9860c50' },
  { wc: 0, shard: 'D83800000000000', seqno: 4168601, utime: 1586158624, tx: 0, root: 'ee04f0f82bf1b7f96f441074fb7d6e2b1349b471468c27ff45b149173f8a733b' },
  { wc: 0, shard: '6000000000000000', seqno: 52111590, utime: 1745147839, tx: 30, root: 'd350895e85ffd081f564e5d138f374a9b52b53aee0035b07ce5a5d6388b73b45' },
  { wc: 0, shard: MC_SHARD, seqno: 29836576, utime: 1666094316, tx: 0, root: '129b0f8f95c96555fcd13074ad07ee965fdaa06b29cb5f7aeb45e566b137817b' },
  { wc: 0, shard: MC_SHARD, seqno: 34703989, utime: 1682417974, tx: 7, root: '84753a60efefc7169959fdf34ea21f3fa9f5a85c3a8690db77b1f141e0ff47ee' },
  { wc: 0, shard: MC_SHARD, seqno: 40484416, utime: 1701783346, tx: 479, root: '3e0ec29a7d4a6350193ecc61b3b188aa8ed918fe2c7039735d24e65c18568bbd' },
  { wc: 0, shard: MC_SHARD, seqno: 71398501, utime: 1778681725, tx: 269, root: '244d0a2f58561995bd57943b0db945cb9fa6a5181d501efc334636aa4401c241' },
  { wc: 0, shard: 'A000000000000000', seqno: 54302203, utime: 1751461298, tx: 8, root: '001b96c7f9012c496c0b1d4c19a91ae9947eab7d519041157c7030fe81f2596d' },
  { wc: 0, shard: 'A000000000000000', seqno: 54302208, utime: 1751461310, tx: 11, root: '563d90f5180f129d2e1d5eea6794fecdce9cac3e3b000cd4876068fc5ad1e572' },
  { wc: 0, shard: 'C000000000000000', seqno: 13516764, utime: 1612979175, tx: 449, root: 'f2bd9e70513e9ad395510c37fa075aad0993a0566efd5ec20f3180e4e8e8d68f' },
];

export interface TongoTx {
  account: string;
  lt: string;
  prev_trans_hash: string;
  prev_trans_lt: string;
  now: number;
  out: number;
  orig: string;
  end: string;
}

/** tongo's expected JSON of a block: its transactions and sorted hashes, in our wire forms. */
export function tongo(file: string, wc: number): { txs: TongoTx[]; hashes: string[] } {
  const d = JSON.parse(readFixture(`blocks/${file}`).toString('utf8')) as {
    Accounts: Record<string, { Transactions: Record<string, Record<string, unknown>> }>;
    TxHashes: string[] | null;
  };
  const txs: TongoTx[] = [];
  for (const [acc, a] of Object.entries(d.Accounts)) {
    for (const t of Object.values(a.Transactions)) {
      txs.push({
        account: raw(wc, acc),
        lt: String(t.Lt),
        prev_trans_hash: b64(String(t.PrevTransHash)),
        prev_trans_lt: String(t.PrevTransLt),
        now: Number(t.Now),
        out: Number(t.OutMsgCnt),
        orig: String(t.OrigStatus),
        end: String(t.EndStatus),
      });
    }
  }
  return { txs, hashes: (d.TxHashes ?? []).map(b64) };
}

export const key = (t: { account: string; lt: string }): string => `${t.account}|${t.lt}`;

/** TON Center's transaction order: lt desc (asc), then account ascending. */
export function isLtOrdered(txs: Array<{ lt: string; account: string }>, sort: 'asc' | 'desc'): boolean {
  for (let i = 1; i < txs.length; i++) {
    const a = BigInt(txs[i - 1]!.lt);
    const b = BigInt(txs[i]!.lt);
    if (a === b ? txs[i - 1]!.account > txs[i]!.account : sort === 'desc' ? a < b : a > b) return false;
  }
  return true;
}

/**
 * Every endpoint test, over chdb in this process or over a ClickHouse server (`--clickhouse URL`), with the gateway
 * reading transaction records from the MergeTree tables (the default) or from the point tables first.

/** What an endpoint suite's tests use: the running variant's fixture, and requests to its app. */
export interface GatewaySuite {
  /** The fixture of the variant running (set before the suite's first test). */
  readonly fx: GatewayFixture;
  /** GET on the fixture's app. */
  api(url: string, headers?: Record<string, string>): ReturnType<typeof get>;
  /** A gateway on the fixture store with every cache off: each request reads the store. */
  uncachedApp(pointReads: boolean): Promise<FastifyInstance>;
}

/**
 * Registers `body` (the tests of one endpoint family) three times: over chdb in this process and over a ClickHouse
 * server (TONFLOW_TEST_CLICKHOUSE_URL), with the gateway reading transaction records from the MergeTree tables (the
 * default), and over chdb reading them from the point tables first. The chdb variants share one data directory: the
 * process has one embedded engine, bound to the first directory it opened; each fixture works in a database of its own
 * inside it.
 */
export function describeGatewaySuites(family: string, body: (suite: GatewaySuite) => void): void {
  let sharedDir: string | undefined;
  const chdbDir = (): string => (sharedDir ??= mkdtempSync(path.join(os.tmpdir(), 'tonflow-gateway-')));
  const suite = (opts: { clickhouseUrl?: string; pointReads?: boolean }) => (): void => {
    let fx: GatewayFixture | undefined;
    const s: GatewaySuite = {
      get fx() {
        if (!fx) throw new Error('gateway fixture not ready');
        return fx;
      },
      api: (url, headers) => get(s.fx.app, url, headers),
      uncachedApp: (pointReads) =>
        buildApp({
          store: s.fx.store,
          logger: silentLogger(),
          metrics: createMetrics({ service: 'gateway', processMetrics: false }),
          config: {
            apiKeys: [], rpsWithoutKey: 0, testnet: false, validateResponses: true,
            responseCacheEntries: 0, cacheEntries: 0, txRecordCacheEntries: 0, addressBookTtlMs: 0, pointReads,
          },
        }),
    };
    beforeAll(async () => {
      fx = await createGatewayFixture(
        { pointReads: opts.pointReads ?? false },
        opts.clickhouseUrl ? { clickhouseUrl: opts.clickhouseUrl } : { dataDir: chdbDir() },
      );
    });
    afterAll(async () => {
      await fx?.close();
    });
    body(s);
  };
  describe(`gateway ${family}`, () => {
    afterAll(() => {
      if (sharedDir) rmSync(sharedDir, { recursive: true, force: true });
    });
    describeFixtures('TON Center v3 / v2 over the fixture store', suite({}));
    describeFixtures('TON Center v3 / v2 over the fixture store, point reads on (TONFLOW_STORE_POINT_READS)', suite({ pointReads: true }));
    describeClickHouse('over a ClickHouse server (--clickhouse URL)', (url) => {
      describeFixtures('TON Center v3 / v2 over the fixture store', suite({ clickhouseUrl: url }));
    });
  });
}
