import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../services/gateway/app.js';
import { createStoreCheckpoints } from '../../services/follower/checkpoints.js';
import { follow } from '../../services/follower/follow.js';
import { runDecodeStage } from '../../services/indexer/decode.js';
import { createStoreWriter } from '../../services/indexer/sink.js';
import { blockToRows } from '../../services/indexer/to-rows.js';
import { createMemoryBus } from '../../shared/bus/memory.js';
import type { Bus, Consumer, OutgoingMessage, Producer } from '../../shared/bus/bus.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import type { SealedTick } from '../../shared/sources/devnet/chain.js';
import { type DevnetSource, createDevnetSource } from '../../shared/sources/devnet/source.js';
import { createStore } from '../../shared/store/client.js';
import { migrate } from '../../shared/store/migrate.js';
import type { Store } from '../../shared/store/store.js';
import type { Tvm } from '../../shared/tvm/executor.js';
import { createTvmPool } from '../../shared/tvm/pool.js';
import { silentLogger } from './gateway.js';

/** A devnet-backed tonflow in-process, its gateway on a real loopback socket. */
export interface DevnetTonflow {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  source: DevnetSource;
  store: Store;
  app: FastifyInstance;
  /** Publishes messages to the raw-block topic the decode stage reads (account-state messages of the fill path). */
  publish(messages: OutgoingMessage[]): Promise<void>;
  /** Seals the devnet's next block and resolves once the store holds it; answers the sealed tick. */
  sealAndIndex(): Promise<SealedTick>;
  close(): Promise<void>;
}

export interface DevnetTonflowOptions {
  /** Names the temp dir, the database and the topics; also the devnet's seed. */
  seed: string;
  walletsPerKind: number;
  /** The devnet sends its zerostate's accounts with the first group (default true; createDevnetSource genesisStates). */
  genesisStates?: boolean;
}

/**
 * The devnet (the real TVM) → follower → in-process bus → decode stage → chdb store → gateway with its TVM on a
 * worker pool, as the client compatibility suites drive it. Blocks are sealed on demand (`sealAndIndex`) at the
 * real clock's time: clients sign transfers valid for a minute from now, which the wallets check against the
 * chain's time. The first block is sealed and indexed before this resolves.
 */
export async function startDevnetTonflow(opts: DevnetTonflowOptions): Promise<DevnetTonflow> {
  const name = opts.seed.replace(/[^a-z0-9]/gi, '_');
  const dir = await mkdtemp(path.join(tmpdir(), `tonflow-${name}-`));
  const ac = new AbortController();
  let stored = 0;
  let wake: () => void = () => {};
  let lastTick: SealedTick | null = null;
  let loops: Array<Promise<void>> = [];
  let consumer: Consumer | undefined;
  let source: DevnetSource | undefined;
  let store: Store | undefined;
  let bus: Bus | undefined;
  let tvm: Tvm | undefined;
  let app: FastifyInstance | undefined;
  let producer: Producer | undefined;
  let topic = '';

  const close = async (): Promise<void> => {
    ac.abort();
    await app?.close();
    await tvm?.close();
    await consumer?.stop();
    await Promise.allSettled(loops);
    await source?.close();
    await bus?.close();
    if (store) {
      await store.command(`DROP DATABASE IF EXISTS ${store.database}`);
      await store.close();
    }
    await rm(dir, { recursive: true, force: true });
  };

  try {
    source = await createDevnetSource({
      dataDir: path.join(dir, 'devnet'),
      blockMs: 0,
      traffic: 'none',
      seed: opts.seed,
      walletsPerKind: opts.walletsPerKind,
      ...(opts.genesisStates !== undefined ? { genesisStates: opts.genesisStates } : {}),
      onTick: (t) => (lastTick = t),
    });
    store = await createStore({ mode: 'embedded', dataDir: path.join(dir, 'store'), database: `${name}_${process.pid}_${Date.now().toString(36)}` });
    await migrate(store);
    bus = createMemoryBus({ partitionsDefault: 1 });
    topic = `${opts.seed}.blocks.raw`;
    await bus.ensureTopics([
      { name: topic, partitions: 1, maxMessageBytes: 64 * 1024 * 1024 },
      { name: `${topic}.mc`, partitions: 1 },
    ]);
    producer = await bus.producer();
    const logger = silentLogger();
    const checkpoints = createStoreCheckpoints(store, 'devnet', { signal: ac.signal, logger });
    consumer = bus.consumer({ groupId: `${opts.seed}.decode`, topics: [topic] });
    loops = [
      runDecodeStage({
        consumer,
        toRows: blockToRows,
        write: createStoreWriter({ store, logger }),
        deadLetter: async (_m, e) => {
          throw e;
        },
        checkpoints,
        decodeWorkers: 0,
        onBatch: (b) => {
          stored += b.blocks;
          wake();
        },
      }),
      follow({ source, producer, topic, mcTopic: `${topic}.mc`, checkpoints, saveAfterPublish: false, signal: ac.signal }),
    ];
    for (const l of loops) l.catch(() => {});
    tvm = createTvmPool({ workers: 1, timeoutMs: 120_000 });
    app = await buildApp({
      store,
      logger,
      metrics: createMetrics({ service: 'gateway', processMetrics: false }),
      config: { apiKeys: [], rpsWithoutKey: 0, testnet: false, validateResponses: true, responseCacheEntries: 0 },
      tvm: { tvm, source },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (e) {
    await close();
    throw e;
  }
  const addr = app.server.address();
  const src = source;

  /** Resolves once the store holds every block sealed so far (two per masterchain seqno). */
  const indexed = async (): Promise<void> => {
    while (stored < src.head * 2) await new Promise<void>((r) => (wake = r));
  };
  const sealAndIndex = async (): Promise<SealedTick> => {
    await src.sealNext();
    await indexed();
    return lastTick!;
  };
  const net: DevnetTonflow = {
    endpoint: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`,
    source: src,
    store,
    app,
    publish: (messages) => producer!.send(topic, messages),
    sealAndIndex,
    close,
  };
  try {
    await sealAndIndex();
  } catch (e) {
    await close();
    throw e;
  }
  return net;
}
