import type { Bus } from '../../shared/bus/bus.js';
import { deadLetter } from '../../shared/bus/dead-letter.js';
import { configFlags, loadConfig, parseFlags, redactConfig, tonflowConfigSchema } from '../../shared/runtime/config.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import { createOpsServer } from '../../shared/runtime/ops-server.js';
import { createShutdown, installProcessHandlers } from '../../shared/runtime/shutdown.js';
import { migrate } from '../../shared/store/migrate.js';
import { awaitSchema, openBus, openSource, openStore, sourceName, topicNames, topicSpecs } from '../common/wiring.js';
import { createStoreCheckpoints } from '../follower/checkpoints.js';
import { follow } from '../follower/follow.js';
import { runDecodeStage } from '../indexer/decode.js';
import { blockToRows } from '../indexer/to-rows.js';
import { createStoreWriter, tableSchema } from '../indexer/sink.js';
import { gatewayConfigSchema, isGatewayConfig, startGateway } from '../gateway/main.js';

export type Role = 'start' | 'follower' | 'indexer';

/**
 * Composition root of the pipeline services: `tonflow start` (follower and decode stage in one process; the
 * embedded default), `tonflow follower` and `tonflow indexer` (one stage each, for Kafka mode). The only place
 * that reads configuration and creates clients; everything below receives its dependencies.
 */
export async function main(role: Role, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  // `start` also runs the gateway, so it reads the gateway's keys too.
  const config =
    role === 'start'
      ? loadConfig(gatewayConfigSchema, { env, flags: parseFlags(argv, configFlags(gatewayConfigSchema)).flags })
      : loadConfig(tonflowConfigSchema, { env, flags: parseFlags(argv, configFlags(tonflowConfigSchema)).flags });
  const logger = createLogger({ service: role === 'start' ? 'tonflow' : role, level: config.logLevel });
  const metrics = createMetrics({ service: role === 'start' ? 'tonflow' : role });
  const shutdown = createShutdown({ logger, graceMs: config.shutdownGraceMs });
  installProcessHandlers({ shutdown, logger });
  logger.info({ role, config: redactConfig(tonflowConfigSchema, config) }, 'starting');
  if (role !== 'start' && config.mode === 'embedded') {
    logger.warn({ role }, 'a single stage on the in-process bus only talks to itself; use --mode distributed with Kafka');
  }

  const runFollower = role !== 'indexer';
  const runIndexer = role !== 'follower';
  let ready = false;

  // Closers run in reverse: registered first, closed last. Clients first, then the loops that use them.
  const store = await openStore(config, logger);
  shutdown.add('store', () => store.close());
  if (config.mode === 'embedded') await migrate(store, { logger: logger.child({ module: 'migrate' }) });
  else await awaitSchema(store, logger, shutdown.signal);
  const bus: Bus = openBus(config, logger, `tonflow-${role}`);
  shutdown.add('bus', () => bus.close());
  await bus.ensureTopics(topicSpecs(config));
  const producer = await bus.producer();
  const topics = topicNames(config);
  const checkpoints = createStoreCheckpoints(store, sourceName(config), { signal: shutdown.signal, logger: logger.child({ module: 'checkpoints' }) });

  const ops = createOpsServer({ port: config.opsPort, metrics, ready: () => ready, logger: logger.child({ module: 'ops' }) });
  await ops.listen();
  shutdown.add('ops', () => ops.close());

  if (isGatewayConfig(config)) {
    const gateway = await startGateway({ config, store, logger, metrics });
    shutdown.add('gateway', () => gateway.close());
  }

  const loops: Array<Promise<void>> = [];
  if (runIndexer) {
    const blocks = metrics.counter({ name: 'decoded_blocks', unit: 'total', help: 'Blocks decoded and stored' });
    const txs = metrics.counter({ name: 'decoded_transactions', unit: 'total', help: 'Transactions decoded and stored' });
    const dlq = metrics.counter({ name: 'dead_lettered_blocks', unit: 'total', help: 'Blocks sent to the dead-letter topic' });
    const consumer = bus.consumer({ groupId: `${config.topicPrefix}.decode`, topics: [topics.rawBlocks] });
    const log = logger.child({ module: 'decode' });
    loops.push(
      runDecodeStage({
        consumer,
        toRows: blockToRows,
        points: config.storePointReads,
        write: createStoreWriter({ store, logger: log }),
        // A store that cannot answer now only costs speed: without the schema the workers hand over row objects.
        schema: await tableSchema(store).catch((err: unknown) => {
          log.warn({ err }, 'table schema unavailable; decode workers will not pre-encode rows');
          return undefined;
        }),
        flushRows: config.batchMaxRows,
        deadLetter: async (msg, error) => {
          log.error({ err: error, partition: msg.partition, offset: msg.offset }, 'block dead-lettered');
          await deadLetter(producer, topics.rawBlocksDlq, msg, error);
        },
        ...(config.mode === 'embedded' ? { checkpoints } : {}),
        onBatch: (b) => {
          blocks.inc(b.blocks);
          txs.inc(b.transactions);
          dlq.inc(b.deadLettered);
          log.debug(b, 'batch stored');
        },
      }),
    );
    // Stop intake first (closed after the follower, before the bus): the running batch finishes and commits.
    shutdown.add('decode stage', () => consumer.stop());
  }
  if (runFollower) {
    const source = await openSource(config, logger, shutdown.signal);
    shutdown.add('source', () => source.close());
    const published = metrics.counter({ name: 'published_blocks', unit: 'total', help: 'Raw blocks published to the bus' });
    const rejected = metrics.counter({ name: 'rejected_blocks', unit: 'total', help: 'Blocks that failed verification, sent to the dead-letter topic' });
    const log = logger.child({ module: 'follower' });
    loops.push(
      follow({
        source,
        producer,
        topic: topics.rawBlocks,
        dlqTopic: topics.rawBlocksDlq,
        checkpoints,
        saveAfterPublish: config.mode === 'distributed',
        signal: shutdown.signal,
        onGroup: (g) => {
          published.inc(g.blocks);
          rejected.inc(g.rejected);
          log.debug(g, 'group published');
        },
      }).then(() => {
        if (!shutdown.signal.aborted) log.info({}, 'source has no more blocks; serving what is stored');
      }),
    );
  }
  ready = true;
  logger.info({ opsPort: config.opsPort }, 'running');
  // A loop that fails ends the process through the shutdown (exit code by its error's retryable flag).
  for (const loop of loops) loop.catch((e: unknown) => void shutdown.run(e instanceof Error ? e : new Error(String(e))));
  return shutdown.done;
}
