import { randomBytes } from 'node:crypto';
import type { Bus } from '../../shared/bus/bus.js';
import { type Topics, topicNames, topicSpecs } from '../../shared/contracts/topics.js';
import { loadConfig, tonflowConfigSchema, type TonflowConfig } from '../../shared/runtime/config.js';
import type { Logger } from '../../shared/runtime/logger.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import { migrate } from '../../shared/store/migrate.js';
import type { Store } from '../../shared/store/store.js';
import { openBus, openSource, openStore, sourceName } from '../../services/common/wiring.js';
import { createStoreCheckpoints } from '../../services/follower/checkpoints.js';
import { startPipeline } from '../../services/start/pipeline.js';

/**
 * A block directory through the pipeline embedded, composed by `startPipeline` as `tonflow start` composes it (files
 * source → follower → in-process bus → decode stage, and the trace and action stages → chdb), in a database and
 * topics of its own: the setup of the stages' integration tests.
 *
 * `openEmbedded` opens and migrates the store and the bus; readers of the stages' topics subscribe then (the
 * in-process bus delivers to the groups that exist when a message is published), before `start` runs the loops.
 */
export interface EmbeddedPipeline {
  config: TonflowConfig;
  store: Store;
  bus: Bus;
  topics: Topics;
  /** Starts the follower and the decode stage, and the trace and action stages as asked. */
  start(stages: { traces: boolean; actions: boolean }): Promise<PipelineRun>;
  /** Stops what runs, closes the bus; then drops the database and closes the store unless `keepStore`. */
  close(opts?: { keepStore?: boolean }): Promise<void>;
}

export interface PipelineRun {
  /** The last masterchain block whose traces are stored (-1 before the first). */
  readonly traced: number;
  /** The errors of the messages the stages dead-lettered. */
  readonly poison: readonly unknown[];
  /** Stops the loops (the follower first, as the shutdown does) and waits for them. */
  stop(): Promise<void>;
}

/**
 * `name` (letters, digits, `_`) prefixes the database and the topics; `dataDir` is chdb's directory (one per
 * process: a test file passes the same one to every call, or one per call).
 */
export async function openEmbedded(opts: { dir: string; dataDir: string; name: string; logger: Logger }): Promise<EmbeddedPipeline> {
  const tag = randomBytes(3).toString('hex');
  const config = loadConfig(tonflowConfigSchema, {
    env: {
      TONFLOW_MODE: 'embedded',
      TONFLOW_SOURCE: `files:${opts.dir}`,
      TONFLOW_DATA: opts.dataDir,
      TONFLOW_CLICKHOUSE_DATABASE: `${opts.name}_${process.pid}_${tag}`,
      TONFLOW_TOPIC_PREFIX: `tonflow-${opts.name}-${tag}`,
    },
  });
  const { logger } = opts;
  const store = await openStore(config, logger);
  const bus = openBus(config, logger, `${opts.name}-test`);
  const ac = new AbortController();
  let running: PipelineRun | undefined;
  const dispose = async (keepStore: boolean): Promise<void> => {
    await running?.stop().catch(() => {});
    ac.abort();
    await bus.close();
    if (keepStore) return;
    await store.command(`DROP DATABASE IF EXISTS \`${store.database}\``).catch(() => {});
    await store.close();
  };
  try {
    await migrate(store);
    await bus.ensureTopics(topicSpecs(config));
  } catch (e) {
    await dispose(false);
    throw e;
  }
  const topics = topicNames(config);
  return {
    config,
    store,
    bus,
    topics,
    async start(stages) {
      const producer = await bus.producer();
      const checkpoints = createStoreCheckpoints(store, sourceName(config), { signal: ac.signal, logger });
      const source = await openSource(config, logger, ac.signal);
      const closers: Array<() => Promise<void>> = [];
      let traced = -1;
      const poison: unknown[] = [];
      const loops = await startPipeline({
        config,
        roles: { follower: true, decode: true, ...stages },
        store,
        bus,
        producer,
        topics,
        checkpoints,
        source,
        logger,
        metrics: createMetrics({ service: 'test', processMetrics: false }),
        signal: ac.signal,
        onClose: (_name, closer) => closers.push(closer),
        hooks: {
          onTraceProgress: (mc) => void (traced = Math.max(traced, mc)),
          onDeadLetter: (_stage, _msg, error) => void poison.push(error),
        },
      });
      // A loop's failure shows when the run is stopped; until then the test waits on what it stores.
      for (const loop of Object.values(loops)) loop.catch(() => {});
      let stopped: Promise<void> | undefined;
      const run: PipelineRun = {
        get traced() {
          return traced;
        },
        poison,
        stop() {
          stopped ??= (async () => {
            for (const close of closers.reverse()) await close();
            await Promise.all(Object.values(loops));
          })();
          return stopped;
        },
      };
      running = run;
      return run;
    },
    close: (o) => dispose(o?.keepStore === true),
  };
}
