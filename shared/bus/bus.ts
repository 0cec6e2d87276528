/**
 * The message bus every stage talks to. Two adapters implement it: `memory.ts` (one process, the embedded
 * default) and `kafka.ts` (the only importer of kafkajs). It knows nothing of TON.
 *
 * Delivery is at-least-once: a consumer commits a batch's offsets only after its handler resolved, so a crash
 * before that replays the batch. Handlers must therefore be idempotent (the store's tables are).
 */

export interface OutgoingMessage {
  /** Partitioning key: messages with the same key keep their order. */
  key: string | null;
  value: Buffer;
  headers?: Record<string, string>;
}

export interface IncomingMessage {
  topic: string;
  partition: number;
  /** Decimal offset within the partition. */
  offset: string;
  key: string | null;
  value: Buffer;
  headers: Record<string, string>;
}

export interface TopicSpec {
  name: string;
  partitions: number;
  /** Largest message the topic must accept (raw mainnet blocks reach several MiB). */
  maxMessageBytes?: number;
  retentionMs?: number;
}

/** The messages of one partition, in offset order. */
export interface Batch {
  topic: string;
  partition: number;
  messages: IncomingMessage[];
}

export interface BatchContext {
  /** Aborted when the consumer is stopping: finish or give up the batch quickly (it will be redelivered). */
  signal: AbortSignal;
  /** Keeps group membership alive during a long batch (a no-op in memory). */
  heartbeat(): Promise<void>;
}

/**
 * What a handler may resolve with when it is done with a batch's messages but their effects are still on the way to
 * the store (its last write in flight). The consumer commits the batch only once `durable` resolves, and meanwhile
 * may hand the handler the partition's next batch, so that a stage keeps working across batch boundaries instead of
 * idling while each batch's last write completes. `durable` rejecting is the batch failing: a retryable error
 * redelivers it (and whatever followed it uncommitted), anything else stops the consumer.
 *
 * The consumer awaits each pending batch before committing a later one, so commits stay in offset order; a handler
 * that returns pending batches must itself keep their writes in order (the decode stage chains them).
 */
export interface PendingBatch {
  durable: Promise<void>;
}

export function isPendingBatch(v: unknown): v is PendingBatch {
  return typeof v === 'object' && v !== null && (v as PendingBatch).durable instanceof Promise;
}

/**
 * Handles one batch. Resolving commits the batch (with a {@link PendingBatch}: once it is durable); throwing a
 * retryable error retries the same batch with backoff; throwing anything else stops the consumer (`run` rejects).
 * Poison messages are the handler's to dead-letter.
 */
export type BatchHandler = (batch: Batch, ctx: BatchContext) => Promise<void | PendingBatch>;

export interface ConsumerOptions {
  /** One group per stage: members of a group share the partitions. */
  groupId: string;
  topics: string[];
  /** Where a group without committed offsets starts; default true (from the beginning). */
  fromBeginning?: boolean;
  /** Upper bound of messages per handler call. */
  maxBatchMessages?: number;
}

export interface Consumer {
  /** Consumes until `stop()` (resolves) or a non-retryable handler error (rejects). */
  run(handler: BatchHandler): Promise<void>;
  /** Stops intake, lets the running batch finish (and commit), then leaves the group. */
  stop(): Promise<void>;
}

export interface Producer {
  /** Resolves once the bus has the messages (acks from all in-sync replicas for Kafka). */
  send(topic: string, messages: OutgoingMessage[]): Promise<void>;
}

export interface Bus {
  /** Creates missing topics with the given partitions and limits; existing topics are left as they are. */
  ensureTopics(specs: TopicSpec[]): Promise<void>;
  producer(): Promise<Producer>;
  consumer(opts: ConsumerOptions): Consumer;
  /** Closes producers and consumers the bus created (consumers are stopped first). */
  close(): Promise<void>;
}

/** Headers every tonflow message carries. */
export const HEADER_SCHEMA_VERSION = 'x-schema-version';
/** Dead-letter headers (house style: the error and where the message came from). */
export const HEADER_ERROR_CODE = 'x-error-code';
export const HEADER_ERROR_MESSAGE = 'x-error-message';
export const HEADER_SOURCE_TOPIC = 'x-source-topic';
export const HEADER_SOURCE_PARTITION = 'x-source-partition';
export const HEADER_SOURCE_OFFSET = 'x-source-offset';
