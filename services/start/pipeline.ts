import type { Bus, IncomingMessage, Producer } from '../../shared/bus/bus.js';
import { deadLetter } from '../../shared/bus/dead-letter.js';
import { mcBlockSeqno } from '../../shared/contracts/mc-block.js';
import { rawBlockMcSeqno } from '../../shared/contracts/raw-block.js';
import type { Topics } from '../../shared/contracts/topics.js';
import type { TonflowConfig } from '../../shared/runtime/config.js';
import type { Logger } from '../../shared/runtime/logger.js';
import type { Metrics } from '../../shared/runtime/metrics.js';
import type { BlockSource } from '../../shared/sources/source.js';
import type { Store } from '../../shared/store/store.js';
import { TRACES_PER_BATCH, runActionStage } from '../actions/stage.js';
import { type CheckpointStore, follow } from '../follower/follow.js';
import { runStateFill } from '../follower/fill-states.js';
import { runDecodeStage } from '../indexer/decode.js';
import { createStoreWriter, tableSchema } from '../indexer/sink.js';
import { blockToRows } from '../indexer/to-rows.js';
import { type GatedCheckpoints, createGatedCheckpoints, createProgressGate, loadProgress, runTraceStage } from '../traces/stage.js';

/**
 * The pipeline's loops as `tonflow start` and the single-stage commands run them: the follower, the decode stage,
 * the trace stage and the action stage, each on its consumer group, with their metrics, dead-letter topics and (in
 * embedded mode) the follower checkpoint gated on the trace stage. Shared by services/start/main.ts and the ingest
 * benchmark, so the benchmark measures what `tonflow start` runs.
 */

/** Which loops run. The follower needs {@link PipelineDeps.source}. */
export interface PipelineRoles {
  follower: boolean;
  decode: boolean;
  traces: boolean;
  actions: boolean;
}

/** The running loops, by role; each resolves when its consumer stops or its source ends, and rejects with what stopped it. */
export type PipelineLoops = Partial<Record<keyof PipelineRoles | 'stateFill', Promise<void>>>;

/** What the loops report, besides their metrics (the progress console, the ingest benchmark). */
export interface PipelineHooks {
  onGroup?: (info: { mcSeqno: number | null; blocks: number; bytes: number; rejected: number }) => void;
  onDecodeBatch?: (info: { blocks: number; transactions: number; deadLettered: number; ms: number; mcSeqno: number | null }) => void;
  onTraceBatch?: (info: { mcBlocks: number; transactions: number; ms: number }) => void;
  /** The trace stage recorded a masterchain block done (its traces stored and published). */
  onTraceProgress?: (mcSeqno: number) => void;
  onActionBatch?: (info: { traces: number; actions: number; ms: number }) => void;
  /** A stage sent a message to its dead-letter topic (after the send), with the error that made it poison. */
  onDeadLetter?: (stage: 'decode' | 'traces' | 'actions', msg: IncomingMessage, error: unknown) => void;
}

export interface PipelineDeps {
  config: TonflowConfig;
  roles: PipelineRoles;
  store: Store;
  bus: Bus;
  /** Publishes the follower's blocks, the stages' outputs and dead letters. */
  producer: Producer;
  topics: Topics;
  checkpoints: CheckpointStore;
  source?: BlockSource;
  logger: Logger;
  metrics: Metrics;
  signal: AbortSignal;
  /** Registers a closer (the shutdown's `add`, shared/runtime/shutdown.ts): closers run in reverse order. */
  onClose: (name: string, closer: () => Promise<void>) => void;
  hooks?: PipelineHooks;
}

/**
 * Starts the loops `roles` names, stages before the follower (the in-process bus delivers only to consumer groups
 * that exist when a message is published), and returns them. Closers go to `onClose`; run in reverse they stop the
 * follower's source first, then the decode, action and trace stages' intake.
 */
export async function startPipeline(deps: PipelineDeps): Promise<PipelineLoops> {
  const { config, roles, store, bus, producer, topics, metrics, hooks } = deps;
  const loops: PipelineLoops = {};
  // Embedded mode keeps no message across a restart, so the follower's checkpoint may only pass a masterchain block
  // once every stage of the process is done with it: the decode stage hands it over, and it is saved once the trace
  // stage stored that block's traces (traces/stage.ts GatedCheckpoints; the decode stage does not wait for that).
  let gatedCheckpoints: GatedCheckpoints | undefined;
  if (roles.traces) {
    const initial = await loadProgress(store).catch(() => null);
    const gate = createProgressGate(initial);
    if (config.mode === 'embedded' && roles.decode) {
      const gated = createGatedCheckpoints({ gate, save: (c) => deps.checkpoints.save(c), logger: deps.logger.child({ module: 'checkpoints' }), signal: deps.signal });
      gatedCheckpoints = gated;
      // Closed after the gate (closers run in reverse): the gate's close lets its waits go, and nothing is then saved
      // past the trace stage's last stored block.
      deps.onClose('follower checkpoints', () => gated.close());
    }
    deps.onClose('trace gate', async () => gate.close());
    const mcBlocks = metrics.counter({ name: 'traced_mc_blocks', unit: 'total', help: 'Masterchain blocks whose traces are assembled and stored' });
    const txs = metrics.counter({ name: 'traced_transactions', unit: 'total', help: 'Transactions assigned to traces' });
    const dlq = metrics.counter({ name: 'dead_lettered_mc_blocks', unit: 'total', help: 'Masterchain-block messages sent to the dead-letter topic' });
    const done = metrics.gauge({ name: 'trace_progress', unit: 'mc_seqno', help: 'Last masterchain block whose traces are stored and published' });
    if (initial !== null) done.set(initial);
    const consumer = bus.consumer({ groupId: `${config.topicPrefix}.traces`, topics: [topics.mcBlocks] });
    const log = deps.logger.child({ module: 'traces' });
    loops.traces = runTraceStage({
      consumer,
      store,
      producer,
      tracesTopic: topics.traces,
      flushRows: config.batchMaxRows,
      logger: log,
      deadLetter: async (msg, error) => {
        log.error({ err: error, partition: msg.partition, offset: msg.offset }, 'masterchain block message dead-lettered');
        await deadLetter(producer, topics.mcBlocksDlq, msg, error);
        // Nothing more will come of that block: the follower's checkpoint must not wait for it.
        const mc = mcBlockSeqno(msg);
        if (mc !== null) gate.reached(mc);
        hooks?.onDeadLetter?.('traces', msg, error);
      },
      counters: { messages: mcBlocks, items: txs, deadLettered: dlq },
      onProgress: (mc) => {
        gate.reached(mc);
        done.set(mc);
        hooks?.onTraceProgress?.(mc);
      },
      onBatch: (b) => {
        hooks?.onTraceBatch?.(b);
        log.debug(b, 'traces stored');
      },
    });
    deps.onClose('trace stage', () => consumer.stop());
  }
  if (roles.actions) {
    const traces = metrics.counter({ name: 'classified_traces', unit: 'total', help: 'Traces classified into actions' });
    const actions = metrics.counter({ name: 'classified_actions', unit: 'total', help: 'Actions stored and published' });
    const dlq = metrics.counter({ name: 'dead_lettered_traces', unit: 'total', help: 'Trace messages sent to the dead-letter topic' });
    const consumer = bus.consumer({ groupId: `${config.topicPrefix}.actions`, topics: [topics.traces], maxBatchMessages: TRACES_PER_BATCH });
    const log = deps.logger.child({ module: 'actions' });
    loops.actions = runActionStage({
      consumer,
      store,
      producer,
      actionsTopic: topics.actions,
      logger: log,
      deadLetter: async (msg, error) => {
        log.error({ err: error, partition: msg.partition, offset: msg.offset }, 'trace message dead-lettered');
        await deadLetter(producer, topics.tracesDlq, msg, error);
        hooks?.onDeadLetter?.('actions', msg, error);
      },
      counters: { messages: traces, items: actions, deadLettered: dlq },
      onBatch: (b) => {
        hooks?.onActionBatch?.(b);
        log.debug(b, 'actions stored');
      },
    });
    deps.onClose('action stage', () => consumer.stop());
  }
  if (roles.decode) {
    const blocks = metrics.counter({ name: 'decoded_blocks', unit: 'total', help: 'Blocks decoded and stored' });
    const txs = metrics.counter({ name: 'decoded_transactions', unit: 'total', help: 'Transactions decoded and stored' });
    const dlq = metrics.counter({ name: 'dead_lettered_blocks', unit: 'total', help: 'Blocks sent to the dead-letter topic' });
    const consumer = bus.consumer({ groupId: `${config.topicPrefix}.decode`, topics: [topics.rawBlocks] });
    const log = deps.logger.child({ module: 'decode' });
    const gated = gatedCheckpoints;
    loops.decode = runDecodeStage({
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
        hooks?.onDeadLetter?.('decode', msg, error);
      },
      ...(config.mode === 'embedded'
        ? {
            checkpoints: {
              save: async (checkpoint, from) => {
                if (gated) gated.save(checkpoint, rawBlockMcSeqno(from));
                else await deps.checkpoints.save(checkpoint);
              },
            },
          }
        : {}),
      counters: { messages: blocks, items: txs, deadLettered: dlq },
      onBatch: (b) => {
        hooks?.onDecodeBatch?.(b);
        log.debug(b, 'batch stored');
      },
    });
    // Stop intake first (closed after the follower, before the bus): the running batch finishes and commits.
    deps.onClose('decode stage', () => consumer.stop());
  }
  if (roles.follower) {
    const source = deps.source;
    if (!source) throw new Error('the follower needs a block source');
    // Closed before the decode stage (closers run in reverse): the follower stops first.
    deps.onClose('source', () => source.close());
    const published = metrics.counter({ name: 'published_blocks', unit: 'total', help: 'Raw blocks published to the bus' });
    const rejected = metrics.counter({ name: 'rejected_blocks', unit: 'total', help: 'Blocks that failed verification, sent to the dead-letter topic' });
    const log = deps.logger.child({ module: 'follower' });
    loops.follower = follow({
      source,
      producer,
      topic: topics.rawBlocks,
      mcTopic: topics.mcBlocks,
      dlqTopic: topics.rawBlocksDlq,
      checkpoints: deps.checkpoints,
      saveAfterPublish: config.mode === 'distributed',
      signal: deps.signal,
      onGroup: (g) => {
        published.inc(g.blocks);
        rejected.inc(g.rejected);
        hooks?.onGroup?.(g);
        log.debug(g, 'group published');
      },
    }).then(() => {
      if (!deps.signal.aborted) log.info({}, 'source has no more blocks; serving what is stored');
    });
    if (source.accountStatesAt) {
      // Code and data no block carried whole, fetched from the source once (services/follower/fill-states.ts).
      const accountStatesAt = source.accountStatesAt.bind(source);
      loops.stateFill = runStateFill({ store: deps.store, source: { accountStatesAt }, producer, topic: topics.rawBlocks, logger: deps.logger.child({ module: 'state-fill' }), signal: deps.signal });
    }
  }
  return loops;
}
