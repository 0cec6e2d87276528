import type { Bus } from '../../shared/bus/bus.js';
import { configFlags, gatewayConfigSchema, loadConfig, opsHost, parseFlags, redactConfig, tonflowConfigSchema } from '../../shared/runtime/config.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import { createOpsServer } from '../../shared/runtime/ops-server.js';
import { createShutdown, installProcessHandlers } from '../../shared/runtime/shutdown.js';
import { migrate } from '../../shared/store/migrate.js';
import { topicNames, topicSpecs } from '../../shared/contracts/topics.js';
import { awaitSchema, openBus, openSource, openStore, sourceName } from '../common/wiring.js';
import { createStoreCheckpoints } from '../follower/checkpoints.js';
import { startPipeline } from './pipeline.js';
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

  const loops = await startPipeline({
    config,
    roles: { follower: runFollower, decode: runIndexer, traces: runTraces, actions: runActions },
    store,
    bus,
    producer,
    topics,
    checkpoints,
    ...(source ? { source } : {}),
    logger,
    metrics,
    signal: shutdown.signal,
    onClose: (name, closer) => shutdown.add(name, closer),
    hooks: {
      onGroup: (g) => {
        if (g.mcSeqno !== null && (totals.headMcSeqno === null || g.mcSeqno > totals.headMcSeqno)) totals.headMcSeqno = g.mcSeqno;
      },
      onDecodeBatch: (b) => {
        totals.blocks += b.blocks;
        totals.transactions += b.transactions;
        if (b.mcSeqno !== null && (totals.storedMcSeqno === null || b.mcSeqno > totals.storedMcSeqno)) totals.storedMcSeqno = b.mcSeqno;
      },
    },
  });
  ready = true;
  logger.info({ opsPort: config.opsPort }, 'running');
  if (progress) {
    progress.start();
    // Registered last, so closed first: the last line stays on the terminal above whatever the shutdown logs.
    shutdown.add('console', async () => progress.stop());
  }
  // A loop that fails ends the process through the shutdown (exit code by its error's retryable flag).
  for (const loop of Object.values(loops)) loop.catch((e: unknown) => void shutdown.run(e instanceof Error ? e : new Error(String(e))));
  return shutdown.done;
}
