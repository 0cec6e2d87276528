import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { STORE_TABLES, type StoreRows, toRows } from '../../services/indexer/rows.js';
import { type GatewayAppConfig, buildApp } from '../../services/gateway/app.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import { createStore } from '../../shared/store/client.js';
import { migrate } from '../../shared/store/migrate.js';
import type { Store } from '../../shared/store/store.js';
import { type DecodedBlock, parseBlock, toRecords } from '../../shared/ton/decode-block.js';
import { fixturesDir, readFixture } from './fixtures.js';

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
