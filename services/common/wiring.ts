import path from 'node:path';
import type { Bus } from '../../shared/bus/bus.js';
import { createKafkaBus } from '../../shared/bus/kafka.js';
import { createMemoryBus } from '../../shared/bus/memory.js';
import type { TonflowConfig } from '../../shared/runtime/config.js';
import { UpstreamUnavailableError } from '../../shared/runtime/errors.js';
import { retry } from '../../shared/runtime/retry.js';
import { loadMigrations } from '../../shared/store/migrate.js';
import type { Logger } from '../../shared/runtime/logger.js';
import { createFilesSource } from '../../shared/sources/files.js';
import { createLiteserverSource, loadGlobalConfig } from '../../shared/sources/liteserver/index.js';
import type { BlockSource } from '../../shared/sources/source.js';
import { createStore } from '../../shared/store/client.js';
import type { Store } from '../../shared/store/store.js';

/**
 * Building blocks the composition roots share. Each takes the validated configuration as an argument; none reads
 * the environment.
 */

export function openBus(config: TonflowConfig, logger: Logger, clientId: string): Bus {
  // Batches large enough that a stage writes big parts and rarely waits at a batch boundary (ingest bench).
  if (config.mode === 'embedded') return createMemoryBus({ partitionsDefault: 1, maxBatchBytes: 64 * 1024 * 1024 });
  return createKafkaBus({
    brokers: [...(config.kafkaBrokers ?? [])],
    clientId: config.kafkaClientId ?? clientId,
    logger: logger.child({ module: 'kafka' }),
    // Two partitions in flight: the decode stage decodes one partition's batch while writing another's. A fetch
    // waits at most TONFLOW_BATCH_MAX_MS for more messages: the time bound of a batch that is not full.
    consumer: { partitionsConsumedConcurrently: 2, maxWaitTimeMs: config.batchMaxMs },
  });
}

export async function openStore(config: TonflowConfig, logger: Logger): Promise<Store> {
  const storeLogger = logger.child({ module: 'store' });
  if (config.clickhouse !== undefined) {
    return createStore(
      {
        mode: 'server',
        url: config.clickhouse,
        database: config.clickhouseDatabase,
        ...(config.clickhouseUser !== undefined ? { username: config.clickhouseUser } : {}),
        ...(config.clickhousePassword !== undefined ? { password: config.clickhousePassword } : {}),
      },
      { logger: storeLogger },
    );
  }
  return createStore(
    { mode: 'embedded', dataDir: path.resolve(config.data), database: config.clickhouseDatabase, readConnections: config.storeReadConnections },
    { logger: storeLogger },
  );
}

/** A stable name for the source, under which the follower keeps its checkpoint. */
export function sourceName(config: TonflowConfig): string {
  const s = config.source;
  return s.type === 'files' ? `files:${path.resolve(s.dir)}` : s.type === 'liteserver' ? s.network : 'devnet';
}

export async function openSource(config: TonflowConfig, logger: Logger, signal: AbortSignal): Promise<BlockSource> {
  const s = config.source;
  const log = logger.child({ module: 'source' });
  switch (s.type) {
    case 'files':
      return createFilesSource({
        dir: path.resolve(s.dir),
        onSkip: (file, reason) => log.warn({ file, reason }, 'file is not a block, skipped'),
        onGap: (missing, committedBy) => log.warn({ missing, committedBy }, 'committed shard block missing from the directory'),
        onReject: (file, err) => log.error({ file, block: err.id, code: err.code, reason: err.message }, 'block file fails verification; dead-lettered'),
        onConflict: (block, files, kept) => log.warn({ block, files, kept }, 'different block files claim one block id'),
        onDuplicate: (file, of) => log.info({ file, of }, 'same block as another file (same root hash), replayed once'),
        onVerified: (summary) => log.info(summary, 'block files verified against the hashes the chain states'),
        onSnapshot: (info) => log.info(info, 'state snapshot read; its accounts are stored with the first group'),
      });
    case 'liteserver': {
      const location = config.liteserverConfig;
      const globalConfig = location === undefined ? undefined : await loadGlobalConfig(location, { signal });
      return createLiteserverSource({
        network: s.network,
        ...(globalConfig !== undefined ? { globalConfig } : {}),
        fromSeqno: config.fromSeqno ?? null,
        logger: log,
      });
    }
    case 'devnet': {
      // Loaded on demand: the devnet brings the TVM emulator (WASM), which no other source needs.
      const { createDevnetSource } = await import('../../shared/sources/devnet/source.js');
      return createDevnetSource({
        dataDir: path.join(path.resolve(config.data), 'devnet'),
        blockMs: config.devnetBlockMs,
        traffic: config.devnetTraffic,
        tps: config.devnetTps,
        ...(config.devnetSeed !== undefined ? { seed: config.devnetSeed } : {}),
        onTick: (tick, ms) => log.debug({ mcSeqno: tick.mcSeqno, transactions: tick.blocks.reduce((n, b) => n + b.transactions.length, 0), ms }, 'devnet block sealed'),
        onError: (err) => log.error({ err }, 'devnet stopped'),
      });
    }
  }
}

/**
 * Stages of a distributed deployment do not migrate (several replicas would race; migrate.ts has no lock): the
 * migrate job does, before a rollout. A stage waits, with backoff, until the schema it was built for is there.
 */
export async function awaitSchema(store: Store, logger: Logger, signal: AbortSignal): Promise<void> {
  const want = loadMigrations().reduce((v, m) => Math.max(v, m.version), 0);
  await retry(
    async () => {
      let have = 0;
      try {
        const rows = await store.query<{ v: string | number }>('SELECT max(version) AS v FROM schema_migrations');
        have = Number(rows[0]?.v ?? 0);
      } catch {
        have = 0;
      }
      if (have < want) {
        throw new UpstreamUnavailableError('SCHEMA_NOT_MIGRATED', `database ${store.database} is at migration ${have}, this build needs ${want}: run tonflow migrate`);
      }
    },
    { what: 'wait for the schema', signal, logger, maxMs: 5000 },
  );
}
