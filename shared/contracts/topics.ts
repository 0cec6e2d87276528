import type { TopicSpec } from '../bus/bus.js';

/**
 * The bus's topics and which contract each carries: the one place their names are made. A topic's messages follow
 * the contract module named beside it; readers and writers of a topic import that module, never each other.
 */
export interface Topics {
  /** raw-block.ts: every block the follower publishes, keyed by shard. */
  rawBlocks: string;
  /** raw-block.ts, plus the dead-letter headers (bus/dead-letter.ts): blocks the decode stage could not decode. */
  rawBlocksDlq: string;
  /** mc-block.ts: one message per masterchain block, once it and every shard block it commits are published. */
  mcBlocks: string;
  /** trace.ts: each completed trace with its transactions, in masterchain order. */
  traces: string;
  /** mc-block.ts, plus the dead-letter headers: masterchain-block messages the trace stage could not read. */
  mcBlocksDlq: string;
  /** actions.ts: each classified trace's actions, in the order the traces topic carried the traces. */
  actions: string;
  /** trace.ts, plus the dead-letter headers: trace messages the action stage could not classify. */
  tracesDlq: string;
}

/** What naming and sizing the topics depends on (a subset of the configuration). */
export interface TopicsConfig {
  readonly topicPrefix: string;
  readonly mode: 'embedded' | 'distributed';
  readonly partitions: number;
}

export function topicNames(config: Pick<TopicsConfig, 'topicPrefix'>): Topics {
  const p = config.topicPrefix;
  return {
    rawBlocks: `${p}.blocks.raw`,
    rawBlocksDlq: `${p}.blocks.raw.dlq`,
    mcBlocks: `${p}.blocks.mc`,
    mcBlocksDlq: `${p}.blocks.mc.dlq`,
    traces: `${p}.traces`,
    tracesDlq: `${p}.traces.dlq`,
    actions: `${p}.actions`,
  };
}

const RAW_BLOCK_MAX_BYTES = 64 * 1024 * 1024;
/** A trace message carries the trace's transactions (a trace of thousands of transactions reaches megabytes). */
const TRACE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Embedded mode runs one decode consumer in the process and saves the follower checkpoint after the store has a
 * group's last block, which needs that group's blocks in order: one partition. Kafka mode spreads shards over
 * the configured partitions so decoders scale by group members. Masterchain-block messages and traces are in
 * masterchain order, which only one partition keeps.
 */
export function topicSpecs(config: TopicsConfig): TopicSpec[] {
  const t = topicNames(config);
  const partitions = config.mode === 'embedded' ? 1 : config.partitions;
  return [
    { name: t.rawBlocks, partitions, maxMessageBytes: RAW_BLOCK_MAX_BYTES },
    { name: t.rawBlocksDlq, partitions: 1, maxMessageBytes: RAW_BLOCK_MAX_BYTES },
    { name: t.mcBlocks, partitions: 1 },
    { name: t.mcBlocksDlq, partitions: 1 },
    { name: t.traces, partitions: 1, maxMessageBytes: TRACE_MAX_BYTES },
    { name: t.tracesDlq, partitions: 1, maxMessageBytes: TRACE_MAX_BYTES },
    { name: t.actions, partitions: 1, maxMessageBytes: TRACE_MAX_BYTES },
  ];
}
