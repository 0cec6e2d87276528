import type { Bus } from '../../shared/bus/bus.js';
import { deadLetter } from '../../shared/bus/dead-letter.js';
import { configFlags, gatewayConfigSchema, loadConfig, opsHost, parseFlags, redactConfig, tonflowConfigSchema } from '../../shared/runtime/config.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import { createOpsServer } from '../../shared/runtime/ops-server.js';
import { createShutdown, installProcessHandlers } from '../../shared/runtime/shutdown.js';
import { migrate } from '../../shared/store/migrate.js';
import { topicNames, topicSpecs } from '../../shared/contracts/topics.js';
import { awaitSchema, openBus, openSource, openStore, sourceName } from '../common/wiring.js';
import { createStoreCheckpoints } from '../follower/checkpoints.js';
import { follow } from '../follower/follow.js';
import { runStateFill } from '../follower/fill-states.js';
import { mcBlockSeqno } from '../../shared/contracts/mc-block.js';
import { rawBlockMcSeqno } from '../../shared/contracts/raw-block.js';
import { runDecodeStage } from '../indexer/decode.js';
import { type ProgressGate, createProgressGate, loadProgress, runTraceStage } from '../traces/stage.js';
import { runActionStage } from '../actions/stage.js';
import { blockToRows } from '../indexer/to-rows.js';
import { createStoreWriter, tableSchema } from '../indexer/sink.js';
import { type ProgressSample, apiUrlOf, consoleLogLevel, createProgressConsole, resolveLogFormat } from './console.js';
import { isGatewayConfig, startGateway } from '../gateway/main.js';

export type Role = 'start' | 'follower' | 'indexer' | 'traces' | 'actions';

/**
 * Composition root of the pipeline services: `tonflow start` (follower, decode, trace and action stages in one
 * process; the embedded default), `tonflow follower`, `tonflow indexer`, `tonflow traces` and `tonflow actions`
 * (one stage each, for Kafka mode). The only place that reads configuration and creates clients; everything below receives its dependencies.
 */
export async function main(role: Role, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  // `start` also runs the gateway, so it reads the gateway's keys too.
  const config =
    role === 'start'
      ? loadConfig(gatewayConfigSchema, { env, flags: parseFlags(argv, configFlags(gatewayConfigSchema)).flags })
      : loadConfig(tonflowConfigSchema, { env, flags: parseFlags(argv, configFlags(tonflowConfigSchema)).flags });
  const format = resolveLogFormat(config.logFormat, process.stdout.isTTY);
  // `start` on a console: a progress line, and log lines (warnings and worse) as text above it. Other commands on a
  // console: log lines as text.
  const progress = role === 'start' && format === 'console' ? createProgressConsole({ out: process.stdout, sample: () => sample() }) : undefined;
  const logger = createLogger({
    service: role === 'start' ? 'tonflow' : role,
    level: progress ? consoleLogLevel(config.logLevel) : config.logLevel,
    pretty: format === 'console',
    ...(progress ? { destination: progress.logStream } : {}),
  });
  // What the progress line shows: totals the stages report.
  const totals = { blocks: 0, transactions: 0, storedMcSeqno: null as number | null, headMcSeqno: null as number | null };
  const sample = (): ProgressSample => ({ at: performance.now(), ...totals });
  const metrics = createMetrics({ service: role === 'start' ? 'tonflow' : role });
  const shutdown = createShutdown({ logger, graceMs: config.shutdownGraceMs });
  installProcessHandlers({ shutdown, logger });
  // The gateway's schema knows every key's secrecy (TONFLOW_API_KEYS too, which `start` reads).
  logger.info({ role, config: redactConfig(gatewayConfigSchema, config as never) }, 'starting');
  if (role !== 'start' && config.mode === 'embedded') {
    logger.warn({ role }, 'a single stage on the in-process bus only talks to itself; use --mode distributed with Kafka');
  }

  const runFollower = role === 'start' || role === 'follower';
  const runIndexer = role === 'start' || role === 'indexer';
  const runTraces = role === 'start' || role === 'traces';
  const runActions = role === 'start' || role === 'actions';
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

  const ops = createOpsServer({ port: config.opsPort, host: opsHost(config), metrics, ready: () => ready, logger: logger.child({ module: 'ops' }) });
  await ops.listen();
  shutdown.add('ops', () => ops.close());

  // Opened before the gateway, which sends messages through it and asks it for account states.
  const source = runFollower ? await openSource(config, logger, shutdown.signal) : undefined;
  if (isGatewayConfig(config)) {
    const gateway = await startGateway({ config, store, logger, metrics, ...(source ? { source } : {}) });
    shutdown.add('gateway', () => gateway.close());
    if (progress) progress.apiUrl = apiUrlOf(config.host, gateway.port);
  }

  const loops: Array<Promise<void>> = [];
  // Embedded mode keeps no message across a restart, so the follower's checkpoint may only pass a masterchain block
  // once every stage of the process is done with it: the decode stage saves it, after the trace stage stored that
  // block's traces (which it does only after the decode stage stored the block: no wait in a circle).
  let traceGate: ProgressGate | undefined;
  if (runTraces) {
    const initial = await loadProgress(store).catch(() => null);
    traceGate = createProgressGate(initial);
    shutdown.add('trace gate', async () => traceGate?.close());
    const mcBlocks = metrics.counter({ name: 'traced_mc_blocks', unit: 'total', help: 'Masterchain blocks whose traces are assembled and stored' });
    const txs = metrics.counter({ name: 'traced_transactions', unit: 'total', help: 'Transactions assigned to traces' });
    const dlq = metrics.counter({ name: 'dead_lettered_mc_blocks', unit: 'total', help: 'Masterchain-block messages sent to the dead-letter topic' });
    const done = metrics.gauge({ name: 'trace_progress', unit: 'mc_seqno', help: 'Last masterchain block whose traces are stored and published' });
    if (initial !== null) done.set(initial);
    const consumer = bus.consumer({ groupId: `${config.topicPrefix}.traces`, topics: [topics.mcBlocks] });
    const log = logger.child({ module: 'traces' });
    const gate = traceGate;
    loops.push(
      runTraceStage({
        consumer,
        store,
        producer,
        tracesTopic: topics.traces,
        logger: log,
        deadLetter: async (msg, error) => {
          log.error({ err: error, partition: msg.partition, offset: msg.offset }, 'masterchain block message dead-lettered');
          await deadLetter(producer, topics.mcBlocksDlq, msg, error);
          // Nothing more will come of that block: the follower's checkpoint must not wait for it.
          const mc = mcBlockSeqno(msg);
          if (mc !== null) gate.reached(mc);
        },
        counters: { messages: mcBlocks, items: txs, deadLettered: dlq },
        onProgress: (mc) => {
          gate.reached(mc);
          done.set(mc);
        },
        onBatch: (b) => log.debug(b, 'traces stored'),
      }),
    );
    shutdown.add('trace stage', () => consumer.stop());
  }
  if (runActions) {
    const traces = metrics.counter({ name: 'classified_traces', unit: 'total', help: 'Traces classified into actions' });
    const actions = metrics.counter({ name: 'classified_actions', unit: 'total', help: 'Actions stored and published' });
    const dlq = metrics.counter({ name: 'dead_lettered_traces', unit: 'total', help: 'Trace messages sent to the dead-letter topic' });
    const consumer = bus.consumer({ groupId: `${config.topicPrefix}.actions`, topics: [topics.traces] });
    const log = logger.child({ module: 'actions' });
    loops.push(
      runActionStage({
        consumer,
        store,
        producer,
        actionsTopic: topics.actions,
        logger: log,
        deadLetter: async (msg, error) => {
          log.error({ err: error, partition: msg.partition, offset: msg.offset }, 'trace message dead-lettered');
          await deadLetter(producer, topics.tracesDlq, msg, error);
        },
        counters: { messages: traces, items: actions, deadLettered: dlq },
        onBatch: (b) => log.debug(b, 'actions stored'),
      }),
    );
    shutdown.add('action stage', () => consumer.stop());
  }
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
        ...(config.mode === 'embedded'
          ? {
              checkpoints: {
                save: async (checkpoint, from) => {
                  const mc = rawBlockMcSeqno(from);
                  if (traceGate && mc !== null) await traceGate.wait(mc, shutdown.signal);
                  await checkpoints.save(checkpoint);
                },
              },
            }
          : {}),
        counters: { messages: blocks, items: txs, deadLettered: dlq },
        onBatch: (b) => {
          totals.blocks += b.blocks;
          totals.transactions += b.transactions;
          if (b.mcSeqno !== null && (totals.storedMcSeqno === null || b.mcSeqno > totals.storedMcSeqno)) totals.storedMcSeqno = b.mcSeqno;
          log.debug(b, 'batch stored');
        },
      }),
    );
    // Stop intake first (closed after the follower, before the bus): the running batch finishes and commits.
    shutdown.add('decode stage', () => consumer.stop());
  }
  if (source) {
    // Closed before the decode stage (closers run in reverse): the follower stops first.
    shutdown.add('source', () => source.close());
    const published = metrics.counter({ name: 'published_blocks', unit: 'total', help: 'Raw blocks published to the bus' });
    const rejected = metrics.counter({ name: 'rejected_blocks', unit: 'total', help: 'Blocks that failed verification, sent to the dead-letter topic' });
    const log = logger.child({ module: 'follower' });
    loops.push(
      follow({
        source,
        producer,
        topic: topics.rawBlocks,
        mcTopic: topics.mcBlocks,
        dlqTopic: topics.rawBlocksDlq,
        checkpoints,
        saveAfterPublish: config.mode === 'distributed',
        signal: shutdown.signal,
        onGroup: (g) => {
          published.inc(g.blocks);
          if (g.mcSeqno !== null && (totals.headMcSeqno === null || g.mcSeqno > totals.headMcSeqno)) totals.headMcSeqno = g.mcSeqno;
          rejected.inc(g.rejected);
          log.debug(g, 'group published');
        },
      }).then(() => {
        if (!shutdown.signal.aborted) log.info({}, 'source has no more blocks; serving what is stored');
      }),
    );
    if (source.accountStatesAt) {
      // Code and data no block carried whole, fetched from the source once (services/follower/fill-states.ts).
      const accountStatesAt = source.accountStatesAt.bind(source);
      loops.push(runStateFill({ store, source: { accountStatesAt }, producer, topic: topics.rawBlocks, logger: logger.child({ module: 'state-fill' }), signal: shutdown.signal }));
    }
  }
  ready = true;
  logger.info({ opsPort: config.opsPort }, 'running');
  if (progress) {
    progress.start();
    // Registered last, so closed first: the last line stays on the terminal above whatever the shutdown logs.
    shutdown.add('console', async () => progress.stop());
  }
  // A loop that fails ends the process through the shutdown (exit code by its error's retryable flag).
  for (const loop of loops) loop.catch((e: unknown) => void shutdown.run(e instanceof Error ? e : new Error(String(e))));
  return shutdown.done;
}
