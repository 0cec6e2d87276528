import {
  CompressionTypes,
  Kafka,
  Partitioners,
  logLevel,
  type EachBatchPayload,
  type IHeaders,
  type KafkaMessage,
  type LogEntry,
  type Producer as KafkaJsProducer,
} from 'kafkajs';
import { UpstreamUnavailableError, isRetryable } from '../runtime/errors.js';
import {
  HEADER_SCHEMA_VERSION,
  isPendingBatch,
  type BatchContext,
  type BatchHandler,
  type Bus,
  type Consumer,
  type ConsumerOptions,
  type IncomingMessage,
  type OutgoingMessage,
  type PendingBatch,
  type Producer,
  type TopicSpec,
} from './bus.js';
import { BusClosedError, retryDelayMs, sleep, translateKafkaError, type RetryPolicy } from './errors.js';
import { StallWatch, defaultStallMs, hasBacklog, type PartitionOffsets } from './stall.js';

/**
 * The Kafka adapter of the bus, and the only module that imports kafkajs (house style rule 4): swapping the client
 * (kafkajs has had no release since 2023; kafkajs#1603) touches this file and `errors.ts` only.
 *
 * Delivery follows the interface in `bus.ts` and house style rule 6: `eachBatch` with `eachBatchAutoResolve:
 * false`, an offset resolved and committed only after the handler resolved for it (for a pending batch, once it is
 * durable), so a crash or a rebalance replays the batch. A fetch larger than `maxBatchMessages` is handed over in
 * parts, and a part can be handled while the one before it becomes durable; the fetch's last part is awaited before
 * kafkajs fetches again. kafkajs errors are translated once, in `errors.ts`.
 */

/** The pino-compatible subset the adapter logs through (`(fields, msg)`, as `logger.child({module})` gives). */
export interface KafkaBusLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Consumer group tuning. Defaults suit production; tests shorten them (a broker's minimum session is 6 s). */
export interface KafkaConsumerTuning {
  /** Without a heartbeat for this long, a member is evicted and its partitions reassigned; default 30 s. */
  sessionTimeoutMs?: number;
  /** Heartbeat period, about a third of the session timeout; default 3 s. */
  heartbeatIntervalMs?: number;
  /** How long a rebalance waits for members to rejoin; default 60 s. */
  rebalanceTimeoutMs?: number;
  /** Longest fetch long-poll; it also bounds how long `stop()` waits for an idle fetch. Default 1 s. */
  maxWaitTimeMs?: number;
  /**
   * Bytes fetched per partition per request; default 64 MiB, the most one fetch returns (`maxBytes`). A single larger
   * message still arrives whole (the broker returns at least one record batch, KIP-74), this only bounds how much is
   * fetched behind it. It also bounds what is handled before the adapter waits for it to be durable (the next fetch
   * waits for the last write of this one): bigger batches wait less often, which raised Kafka ingest throughput
   * (bench/RESULTS.md, ingest).
   */
  maxBytesPerPartition?: number;
  /** Bytes per fetch response over all partitions; default 64 MiB. */
  maxBytes?: number;
  /**
   * Batches of different partitions a member hands to its handler at the same time; default 1. With 2, one
   * partition's batch can be decoded while another's is being written, so the store never waits for the next batch.
   * A partition is still never in two handlers at once, and each batch is committed on its own once handled.
   */
  partitionsConsumedConcurrently?: number;
  /**
   * A member that delivered no batch and did not join its group for this long, while messages wait on its partitions,
   * is restarted (`stall.ts`): kafkajs can stop consuming without crashing. Default: the rebalance timeout + the
   * request timeout + the max wait + the session timeout (151 s with the other defaults).
   */
  stallTimeoutMs?: number;
}

/** Options of {@link createKafkaBus}. */
export interface KafkaBusOptions {
  /** Bootstrap brokers, `host:port`. */
  brokers: string[];
  /** Names this process in broker logs and quotas (e.g. the service name). */
  clientId: string;
  logger?: KafkaBusLogger;
  /**
   * kafkajs's per-request retry (each connect, fetch, commit, produce): how long a broker outage is ridden out before
   * an operation fails and the consumer restarts. Defaults: kafkajs's (300 ms initial, 5 retries, 30 s max).
   */
  clientRetry?: { initialRetryTime?: number; maxRetryTime?: number; retries?: number };
  /** TCP connect timeout; default 3 s (kafkajs's 1 s is short for a broker under load). */
  connectionTimeoutMs?: number;
  /** Request timeout; default 60 s: producing a large block with acks=all can take a while. */
  requestTimeoutMs?: number;
  /**
   * Idempotent producer (default true): the broker drops a batch that a retry resent, so a retried send does not
   * duplicate messages. A send retries within `clientRetry` (kafkajs default: 5 retries, ~10-20 s), then rejects
   * with a retryable `UpstreamUnavailableError` for the caller to retry.
   */
  idempotent?: boolean;
  /**
   * A send whose largest value has at least this many bytes is GZIP-compressed; default: never. Block BOCs are mostly
   * hashes and signatures: GZIP shrinks a 500 KB mainnet block by ~17% at ~40 MB/s of CPU on each side
   * (bench/RESULTS.md, ingest), so topics raise `max.message.bytes` for large blocks instead. Set it for payloads
   * that do compress, or where the network costs more than the CPU.
   */
  compressionThresholdBytes?: number;
  /** `max.message.bytes` of topics whose spec has none; default 64 MiB (a large raw block must fit). */
  maxMessageBytesDefault?: number;
  /** Replication factor of created topics; default -1, the broker's `default.replication.factor`. */
  replicationFactor?: number;
  consumer?: KafkaConsumerTuning;
  /** Backoff of batches whose handler threw a retryable error, and of consumer restarts after a retryable crash. */
  retry?: RetryPolicy;
}

const MiB = 1024 * 1024;
const DEFAULT_MAX_MESSAGE_BYTES = 64 * MiB;
const DEFAULT_COMPRESSION_THRESHOLD = Infinity;
const DEFAULT_MAX_BATCH_MESSAGES = 500;

/**
 * Creates a {@link Bus} on a Kafka cluster. Nothing connects until used: `ensureTopics` opens a short-lived admin
 * client, `producer()` connects one shared idempotent producer, and each consumer connects when it runs.
 */
export function createKafkaBus(opts: KafkaBusOptions): Bus {
  const log = opts.logger;
  const tuning = opts.consumer ?? {};
  const requestTimeoutMs = opts.requestTimeoutMs ?? 60_000;
  const sessionTimeoutMs = tuning.sessionTimeoutMs ?? 30_000;
  const heartbeatIntervalMs = tuning.heartbeatIntervalMs ?? 3000;
  const rebalanceTimeoutMs = tuning.rebalanceTimeoutMs ?? 60_000;
  const maxWaitTimeMs = tuning.maxWaitTimeMs ?? 1000;
  const stallMs = tuning.stallTimeoutMs ?? defaultStallMs({ requestTimeoutMs, maxWaitTimeMs, sessionTimeoutMs, rebalanceTimeoutMs });
  const kafka = new Kafka({
    brokers: opts.brokers,
    clientId: opts.clientId,
    connectionTimeout: opts.connectionTimeoutMs ?? 3000,
    requestTimeout: requestTimeoutMs,
    ...(opts.clientRetry ? { retry: opts.clientRetry } : {}),
    // Without a logger, kafkajs's own console logger reports errors only.
    ...(log
      ? { logLevel: logLevel.INFO, logCreator: () => (entry: LogEntry) => forwardLog(log, entry) }
      : { logLevel: logLevel.ERROR }),
  });
  const idempotent = opts.idempotent ?? true;
  const compressionThreshold = opts.compressionThresholdBytes ?? DEFAULT_COMPRESSION_THRESHOLD;

  let closed = false;
  let producerReady: Promise<KafkaJsProducer> | undefined;
  const consumers = new Set<KafkaConsumer>();

  function connectProducer(): Promise<KafkaJsProducer> {
    if (!producerReady) {
      const p = kafka.producer({
        idempotent,
        // KIP-98 asked for one request in flight for idempotence; kafkajs also serialises idempotent produce
        // requests per broker (eosManager broker lock), so more would only queue.
        maxInFlightRequests: idempotent ? 1 : 5,
        // The Java client's murmur2 partitioner (kafkajs 2.x's default, named to silence its migration warning):
        // the memory bus uses the same hash, so a key lands on the same partition number with either adapter.
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      producerReady = p.connect().then(
        () => p,
        (e: unknown) => {
          // A failed connect is retried by the next producer() call rather than remembered.
          producerReady = undefined;
          throw translateKafkaError(e, 'connect producer');
        },
      );
    }
    return producerReady;
  }

  const producer: Producer = {
    async send(topic: string, messages: OutgoingMessage[]) {
      if (closed) throw new BusClosedError(`send to ${topic}`);
      if (messages.length === 0) return;
      const p = await connectProducer();
      // kafkajs compresses a whole request or nothing; one large value makes compressing the request worth it.
      const compress = messages.some((m) => m.value.length >= compressionThreshold);
      try {
        await p.send({
          topic,
          acks: -1,
          compression: compress ? CompressionTypes.GZIP : CompressionTypes.None,
          messages: messages.map((m) => ({
            key: m.key,
            value: m.value,
            headers: { [HEADER_SCHEMA_VERSION]: '1', ...m.headers },
          })),
        });
      } catch (e) {
        throw translateKafkaError(e, `send to ${topic}`);
      }
    },
  };

  class KafkaConsumer implements Consumer {
    private readonly abort = new AbortController();
    private done: Promise<void> | undefined;
    /** The running kafkajs consumer's attempt, ended by stop(), a fatal handler error or a crash. */
    private current: Attempt | undefined;
    /** Resume timers of partitions paused for a retry; cleared when the attempt ends. */
    private readonly resumeTimers = new Set<NodeJS.Timeout>();
    /** Failed deliveries per partition since its last success: the exponent of its backoff. */
    private readonly attempts = new Map<string, number>();

    constructor(private readonly opts: ConsumerOptions) {}

    run(handler: BatchHandler): Promise<void> {
      if (this.done) return Promise.reject(new Error(`consumer of group ${this.opts.groupId}: run() called twice`));
      if (closed) return Promise.reject(new BusClosedError(`consumer of group ${this.opts.groupId}`));
      this.done = this.abort.signal.aborted ? Promise.resolve() : this.loop(handler);
      return this.done;
    }

    async stop(): Promise<void> {
      this.abort.abort();
      this.current?.end({ kind: 'stopped' });
      await this.done?.catch(() => {});
      consumers.delete(this);
    }

    /**
     * Runs kafkajs consumers one after the other until stopped. kafkajs's own restart-on-crash is turned off
     * (`restartOnFailure` → false) so that exactly one place decides: a crash whose translated error is retryable
     * (broker gone, retries exhausted, coordinator moving) starts a fresh consumer after a backoff; one that is not
     * rejects `run`. A consumer whose fetch loop stalled (`stall.ts`) is restarted the same way. A restarted member
     * rejoins the group and resumes from the committed offsets.
     */
    private async loop(handler: BatchHandler): Promise<void> {
      consumers.add(this);
      const { groupId } = this.opts;
      try {
        for (let restarts = 0; !this.abort.signal.aborted; restarts++) {
          const outcome = await this.attempt(handler);
          if (outcome.kind === 'stopped') return;
          if (outcome.kind === 'fatal') throw outcome.error;
          const err = translateKafkaError(outcome.error, `consumer of group ${groupId}`);
          if (!err.retryable) throw err;
          const delay = retryDelayMs(opts.retry, restarts);
          log?.warn({ groupId, err, delayMs: delay, restarts }, 'kafka consumer crashed; restarting');
          await sleep(delay, this.abort.signal);
        }
      } finally {
        consumers.delete(this);
      }
    }

    private async attempt(handler: BatchHandler): Promise<Outcome> {
      const { groupId, topics, fromBeginning = true } = this.opts;
      const current = newAttempt();
      this.current = current;
      const kc = kafka.consumer({
        groupId,
        sessionTimeout: sessionTimeoutMs,
        heartbeatInterval: heartbeatIntervalMs,
        rebalanceTimeout: rebalanceTimeoutMs,
        maxWaitTimeInMs: maxWaitTimeMs,
        maxBytesPerPartition: tuning.maxBytesPerPartition ?? 64 * MiB,
        maxBytes: tuning.maxBytes ?? 64 * MiB,
        retry: { ...opts.clientRetry, restartOnFailure: async () => false },
      });
      // kafkajs emits CRASH after it disconnected the consumer; with restarts off, the attempt is over.
      kc.on(kc.events.CRASH, (ev) => current.end({ kind: 'crash', error: ev.payload.error }));
      // A member that stopped consuming without a crash ends the attempt too, as a retryable failure (stall.ts).
      const watch = new StallWatch(stallMs, Date.now());
      current.watch = watch;
      let assigned: Record<string, number[]> | undefined;
      kc.on(kc.events.GROUP_JOIN, (ev) => {
        assigned = ev.payload.memberAssignment;
        watch.alive(Date.now());
      });
      let asking = false;
      const watchdog = setInterval(
        () => {
          const idle = watch.stalledFor(Date.now());
          if (idle === undefined || current.ended || asking) return;
          asking = true;
          void groupOffsets(groupId, topics)
            .then((offsets) => {
              if (current.ended) return;
              if (!hasBacklog(assigned, offsets)) {
                watch.alive(Date.now());
                return;
              }
              log?.warn({ groupId, idleMs: idle, assigned }, 'kafka consumer stalled: messages waiting and none delivered; restarting');
              const error = new UpstreamUnavailableError('KAFKA_CONSUMER_STALLED', `consumer of group ${groupId}: nothing delivered for ${idle} ms with messages waiting`);
              current.end({ kind: 'stalled', error });
            })
            // The broker could not say (an outage): kafkajs's own errors decide meanwhile; asked again next tick.
            .catch((e: unknown) => log?.debug({ groupId, err: e }, 'stall check: offsets unavailable'))
            .finally(() => (asking = false));
        },
        Math.max(100, Math.min(5000, Math.floor(stallMs / 4))),
      );
      watchdog.unref();
      try {
        await kc.connect();
        await kc.subscribe({ topics, fromBeginning });
        await kc.run({
          eachBatchAutoResolve: false,
          // Commit the resolved offsets as soon as one is resolved (commitOffsetsIfNecessary below); the interval
          // is off so that nothing is committed on a timer.
          autoCommit: true,
          autoCommitInterval: null,
          autoCommitThreshold: 1,
          partitionsConsumedConcurrently: Math.max(1, tuning.partitionsConsumedConcurrently ?? 1),
          eachBatch: (payload) => this.eachBatch(payload, handler, current),
        });
      } catch (e) {
        current.end({ kind: 'crash', error: e });
      }
      // stop() may have come while connecting.
      if (this.abort.signal.aborted) current.end({ kind: 'stopped' });
      const result = await current.outcome;
      clearInterval(watchdog);
      this.current = undefined;
      // Graceful: waits for the batch in the handler (which commits if it resolves), then leaves the group, so the
      // partitions move to other members at once instead of after a session timeout. A stalled consumer may never
      // finish stopping: it is given up after another stall timeout (its eachBatch, should it ever wake, handles
      // nothing: the attempt has ended).
      const disconnected = kc.disconnect().then(
        () => true,
        (e: unknown) => {
          log?.warn({ groupId, err: e }, 'kafka consumer disconnect failed');
          return true;
        },
      );
      if (result.kind !== 'stalled') {
        await disconnected;
      } else {
        const giveUp = new AbortController();
        const inTime = await Promise.race([disconnected, sleep(stallMs, giveUp.signal).then(() => false)]);
        giveUp.abort();
        if (!inTime) log?.warn({ groupId }, 'stalled kafka consumer did not disconnect; abandoned');
      }
      for (const t of this.resumeTimers) clearTimeout(t);
      this.resumeTimers.clear();
      this.attempts.clear();
      return result;
    }

    private async eachBatch(payload: EachBatchPayload, handler: BatchHandler, current: Attempt): Promise<void> {
      current.watch?.enter(Date.now());
      try {
        await this.handleFetched(payload, handler, current);
      } finally {
        current.watch?.leave(Date.now());
      }
    }

    private async handleFetched(payload: EachBatchPayload, handler: BatchHandler, current: Attempt): Promise<void> {
      const { batch, resolveOffset, commitOffsetsIfNecessary, heartbeat, pause, isRunning, isStale } = payload;
      const { topic, partition } = batch;
      const signal = this.abort.signal;
      const key = `${topic}|${partition}`;
      const max = this.opts.maxBatchMessages ?? DEFAULT_MAX_BATCH_MESSAGES;
      const all = batch.messages.map((m) => toIncoming(topic, partition, m));

      // A failed heartbeat (a rebalance began, the coordinator moved) goes back to kafkajs as it was, so that kafkajs
      // rejoins the group; the handler sees our translated (retryable) error.
      let heartbeatError: unknown;
      const ctx: BatchContext = {
        signal,
        heartbeat: async () => {
          try {
            await heartbeat();
          } catch (e) {
            heartbeatError = e;
            throw translateKafkaError(e, 'heartbeat');
          }
        },
      };

      // A handled batch whose effects are not yet durable (PendingBatch): resolved and committed once they are,
      // while the handler already works on the next part of the fetch.
      let pending: { first: string; last: string; durable: Promise<void> } | undefined;
      /**
       * Waits for the pending part and commits it. Resolves with its failure when it did not become durable (the
       * batch's failure, for `failed`); a commit error propagates to kafkajs, as it does for a batch handled outright.
       */
      const settlePending = async (): Promise<{ error: unknown; offset: string } | undefined> => {
        if (!pending) return undefined;
        const p = pending;
        pending = undefined;
        try {
          await p.durable;
        } catch (error) {
          return { error, offset: p.first };
        }
        this.attempts.delete(key);
        resolveOffset(p.last);
        await commitOffsetsIfNecessary();
        return undefined;
      };
      const failed = (e: unknown, offset: string): void => {
        if (heartbeatError !== undefined) throw heartbeatError;
        // Stopping: the handler gave up as the signal asked; the batch is redelivered to the next member.
        if (signal.aborted) return;
        if (isRetryable(e)) {
          // Pause the partition and let kafkajs fetch it again after the backoff: it resumes from the last resolved
          // offset, so the same messages come back; other partitions go on meanwhile, and the group membership
          // stays alive because kafkajs keeps heartbeating between fetches.
          const attempt = this.attempts.get(key) ?? 0;
          this.attempts.set(key, attempt + 1);
          const delay = retryDelayMs(opts.retry, attempt);
          const fields = { groupId: this.opts.groupId, topic, partition, offset, delayMs: delay };
          log?.warn({ ...fields, err: e }, 'batch failed; retrying');
          const resume = pause();
          const timer = setTimeout(() => {
            this.resumeTimers.delete(timer);
            resume();
          }, delay);
          this.resumeTimers.add(timer);
          return;
        }
        // Not retryable: stop consuming (this partition at once) and let run() reject; nothing of it is committed.
        pause();
        current.end({ kind: 'fatal', error: e });
      };

      for (let i = 0; i < all.length; i += max) {
        // Nothing new once stopping, stale (a seek) or failed: what is left stays unresolved and is fetched again.
        if (signal.aborted || current.ended || !isRunning() || isStale()) break;
        const messages = all.slice(i, i + max);
        let outcome: void | PendingBatch;
        try {
          outcome = await handler({ topic, partition, messages }, ctx);
        } catch (e) {
          // The part before this one may still become durable: its commit stands on its own. Should that commit
          // fail (to kafkajs, as any commit error goes), this part's own failure is logged here, not lost.
          let earlier: Awaited<ReturnType<typeof settlePending>>;
          try {
            earlier = await settlePending();
          } catch (commitError) {
            log?.warn({ groupId: this.opts.groupId, topic, partition, offset: messages[0]!.offset, err: e }, 'batch failed while the part before it was being committed');
            throw commitError;
          }
          if (earlier) return failed(earlier.error, earlier.offset);
          return failed(e, messages[0]!.offset);
        }
        // Observed at once, before waiting on the part before it: a rejection surfaces through settlePending, never
        // as unhandled.
        if (isPendingBatch(outcome)) outcome.durable.catch(() => {});
        const earlier = await settlePending();
        if (earlier) return failed(earlier.error, earlier.offset);
        const last = messages[messages.length - 1]!.offset;
        if (isPendingBatch(outcome)) {
          pending = { first: messages[0]!.offset, last, durable: outcome.durable };
        } else {
          this.attempts.delete(key);
          resolveOffset(last);
          await commitOffsetsIfNecessary();
        }
      }
      const lastPart = await settlePending();
      if (lastPart) failed(lastPart.error, lastPart.offset);
    }
  }

  /** The group's committed offsets and the log's offsets of every partition of `topics`, from a short-lived admin client. */
  async function groupOffsets(groupId: string, topics: readonly string[]): Promise<PartitionOffsets[]> {
    const admin = kafka.admin();
    try {
      await admin.connect();
      const out: PartitionOffsets[] = [];
      const groups = await admin.fetchOffsets({ groupId, topics: [...topics] });
      for (const topic of topics) {
        const committed = new Map((groups.find((g) => g.topic === topic)?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
        for (const p of await admin.fetchTopicOffsets(topic)) {
          out.push({ topic, partition: p.partition, high: BigInt(p.high), low: BigInt(p.low), committed: committed.get(p.partition) ?? -1n });
        }
      }
      return out;
    } finally {
      await admin.disconnect().catch(() => {});
    }
  }

  return {
    async ensureTopics(specs: TopicSpec[]) {
      if (closed) throw new BusClosedError('ensureTopics');
      if (specs.length === 0) return;
      const admin = kafka.admin();
      try {
        await admin.connect();
        const existing = new Set(await admin.listTopics());
        const missing = specs.filter((s) => !existing.has(s.name));
        if (missing.length === 0) return;
        // Resolves false (no error) for topics that a concurrent ensureTopics created in between.
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((s) => ({
            topic: s.name,
            numPartitions: s.partitions,
            replicationFactor: opts.replicationFactor ?? -1,
            configEntries: [
              {
                name: 'max.message.bytes',
                value: String(s.maxMessageBytes ?? opts.maxMessageBytesDefault ?? DEFAULT_MAX_MESSAGE_BYTES),
              },
              ...(s.retentionMs !== undefined ? [{ name: 'retention.ms', value: String(s.retentionMs) }] : []),
            ],
          })),
        });
      } catch (e) {
        throw translateKafkaError(e, `ensureTopics ${specs.map((s) => s.name).join(', ')}`);
      } finally {
        await admin.disconnect().catch(() => {});
      }
    },

    async producer() {
      if (closed) throw new BusClosedError('producer');
      await connectProducer();
      return producer;
    },

    consumer(copts: ConsumerOptions) {
      if (copts.topics.length === 0) throw new RangeError(`consumer of group ${copts.groupId}: no topics`);
      return new KafkaConsumer(copts);
    },

    async close() {
      closed = true;
      await Promise.all([...consumers].map((c) => c.stop()));
      const p = producerReady;
      producerReady = undefined;
      if (p) await p.then((kp) => kp.disconnect()).catch(() => {});
    },
  };
}

type Outcome = { kind: 'stopped' } | { kind: 'fatal'; error: unknown } | { kind: 'crash'; error: unknown } | { kind: 'stalled'; error: UpstreamUnavailableError };

/** One kafkajs consumer's life: the first `end` wins (a crash after a stop is still a stop). */
interface Attempt {
  readonly outcome: Promise<Outcome>;
  readonly ended: boolean;
  /** The attempt's liveness; eachBatch marks its batches in and out of the handler. */
  watch?: StallWatch;
  end(o: Outcome): void;
}

function newAttempt(): Attempt {
  let resolve!: (o: Outcome) => void;
  const outcome = new Promise<Outcome>((r) => (resolve = r));
  const a: Attempt & { ended: boolean } = {
    outcome,
    ended: false,
    end(o: Outcome) {
      if (a.ended) return;
      a.ended = true;
      resolve(o);
    },
  };
  return a;
}

function toIncoming(topic: string, partition: number, m: KafkaMessage): IncomingMessage {
  return {
    topic,
    partition,
    offset: m.offset,
    key: m.key === null ? null : m.key.toString('utf8'),
    // A tombstone (null value) is not something tonflow produces; an empty buffer keeps the type simple.
    value: m.value ?? Buffer.alloc(0),
    headers: fromKafkaHeaders(m.headers),
  };
}

/** kafkajs hands headers as Buffers, or arrays when a name repeats; ours are strings and the first value wins. */
function fromKafkaHeaders(h: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  for (const [name, v] of Object.entries(h)) {
    const first = Array.isArray(v) ? v[0] : v;
    if (first !== undefined) out[name] = first.toString();
  }
  return out;
}

function forwardLog(log: KafkaBusLogger, { namespace, level, log: entry }: LogEntry): void {
  const { message, timestamp: _timestamp, logger: _logger, ...fields } = entry;
  const obj = { module: 'kafkajs', namespace, ...fields };
  if (level === logLevel.ERROR) log.error(obj, message);
  else if (level === logLevel.WARN) log.warn(obj, message);
  else if (level === logLevel.INFO) log.debug(obj, message); // kafkajs's INFO is chatty (every join, every stop)
  else log.debug(obj, message);
}
