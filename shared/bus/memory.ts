import { isRetryable } from '../runtime/errors.js';
import {
  HEADER_SCHEMA_VERSION,
  isPendingBatch,
  type Batch,
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
import { BusClosedError, MessageTooLargeError, retryDelayMs, type RetryPolicy } from './errors.js';

/**
 * The in-process bus of the embedded mode. It keeps Kafka's semantics so that a stage behaves the same on both
 * adapters (the shared contract suite in `test/helpers/bus-contract.ts` runs against each):
 * - topics have partitions; a message goes to `murmur2(key) % partitions` (the Java client's and kafkajs's default
 *   partitioner, so a key lands on the same partition number as on Kafka); keyless messages go round-robin;
 * - offsets are per partition, committed per consumer group after the handler resolved; a group resumes after its
 *   last commit, also with a new consumer object; each group sees every message;
 * - the partitions of a topic are shared by the members of a group (round-robin assignment, redone when a member
 *   joins or leaves); a partition is never in two handlers of one group at once;
 * - a batch whose handler threw a retryable error is retried with backoff, its partition paused meanwhile (the
 *   member's other partitions go on); anything else stops the consumer.
 *
 * Where it must differ, memory is the bound: Kafka keeps messages for a retention time, this bus keeps them until
 * every group that subscribed to the topic has committed past them. So a group that subscribes late starts at the
 * earliest message still held (as a Kafka group does after retention removed older segments): in one process, start
 * the consumers before the producers. And a producer waits (backpressure, house style rule 7) while the slowest group
 * of a topic lags by more than `maxUnconsumedBytes`; with no group yet, everything held counts.
 */
export interface MemoryBusOptions {
  /** Partitions of a topic created implicitly by a send or a subscription (Kafka's `num.partitions`); default 1. */
  partitionsDefault?: number;
  /** Unconsumed bytes a topic may hold for its slowest group before `send` waits; default 256 MiB. */
  maxUnconsumedBytes?: number;
  /** `maxMessageBytes` of topics whose spec has none and of implicit topics; default 64 MiB, as on Kafka. */
  maxMessageBytesDefault?: number;
  /** Upper bound of one batch's bytes (Kafka's `maxBytesPerPartition`); a single larger message still goes alone. */
  maxBatchBytes?: number;
  /** Backoff of retried batches. */
  retry?: RetryPolicy;
  /** Monotonic milliseconds for retry pauses; `performance.now` unless a test scripts the clock. */
  clock?: () => number;
}

const MiB = 1024 * 1024;
/** Default `maxUnconsumedBytes`: a few dozen large raw blocks, far more than a stage needs to stay busy. */
export const DEFAULT_MAX_UNCONSUMED_BYTES = 256 * MiB;
const DEFAULT_MAX_MESSAGE_BYTES = 64 * MiB;
const DEFAULT_MAX_BATCH_BYTES = 16 * MiB;
const DEFAULT_MAX_BATCH_MESSAGES = 500;

/**
 * Kafka's default partitioner hash: murmur2 over the key's UTF-8 bytes, as in the Java client
 * (`org.apache.kafka.common.utils.Utils#murmur2`) and kafkajs (`src/producer/partitioners/default/murmur2.js`).
 * `Math.imul` gives the 32-bit wrap-around of Java's `int` arithmetic.
 */
export function murmur2(data: Buffer): number {
  const length = data.length;
  const m = 0x5bd1e995;
  let h = (0x9747b28c ^ length) | 0;
  const length4 = length >>> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k = data[i4]! | (data[i4 + 1]! << 8) | (data[i4 + 2]! << 16) | (data[i4 + 3]! << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  const rest = length & 3;
  const tail = length - rest;
  if (rest === 3) h ^= data[tail + 2]! << 16;
  if (rest >= 2) h ^= data[tail + 1]! << 8;
  if (rest >= 1) {
    h ^= data[tail]!;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** The partition Kafka's default partitioner picks for `key` among `partitions` (`toPositive(murmur2) % n`). */
export function partitionForKey(key: string, partitions: number): number {
  return (murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff) % partitions;
}

interface StoredMessage {
  offset: number;
  key: string | null;
  value: Buffer;
  headers: Record<string, string>;
  /** Bytes counted against `maxUnconsumedBytes`: key, value and headers. */
  size: number;
  /** Bytes appended to the partition before this message: makes "bytes from offset N to the end" O(1). */
  bytesBefore: number;
}

/** One partition's log: an append-only array with a moving head, trimmed from the front. */
class PartitionLog {
  private messages: StoredMessage[] = [];
  private head = 0;
  /** Offset of the earliest message held (Kafka's log start offset); equals `endOffset` when empty. */
  startOffset = 0;
  /** Offset the next message gets (Kafka's log end offset). */
  endOffset = 0;
  private totalBytes = 0;

  append(m: Omit<StoredMessage, 'offset' | 'bytesBefore'>): void {
    this.messages.push({ ...m, offset: this.endOffset, bytesBefore: this.totalBytes });
    this.endOffset++;
    this.totalBytes += m.size;
  }

  /** Bytes held from `offset` (clamped to the log start) to the end. */
  bytesFrom(offset: number): number {
    if (offset >= this.endOffset) return 0;
    const first = this.messages[this.head + Math.max(0, offset - this.startOffset)]!;
    return this.totalBytes - first.bytesBefore;
  }

  /** Up to `maxMessages` messages from `offset`, at most `maxBytes` of them unless the first alone is larger. */
  read(offset: number, maxMessages: number, maxBytes: number): StoredMessage[] {
    const out: StoredMessage[] = [];
    let bytes = 0;
    for (let i = this.head + (offset - this.startOffset); i < this.messages.length && out.length < maxMessages; i++) {
      const m = this.messages[i]!;
      if (out.length > 0 && bytes + m.size > maxBytes) break;
      out.push(m);
      bytes += m.size;
    }
    return out;
  }

  /** Drops messages below `offset`. */
  trimBefore(offset: number): void {
    const n = Math.min(offset, this.endOffset) - this.startOffset;
    if (n <= 0) return;
    for (let i = this.head; i < this.head + n; i++) this.messages[i] = undefined as unknown as StoredMessage;
    this.head += n;
    this.startOffset += n;
    // Compacting only when the dead prefix dominates keeps trimming amortised O(1) per message.
    if (this.head > 1024 && this.head * 2 > this.messages.length) {
      this.messages = this.messages.slice(this.head);
      this.head = 0;
    }
  }
}

interface MemoryTopic {
  name: string;
  partitions: PartitionLog[];
  maxMessageBytes: number;
  /** Round-robin position for keyless messages. */
  nextKeyless: number;
  /** Producers waiting for the slowest group to consume. */
  spaceWaiters: Set<() => void>;
}

/** A one-slot wake-up: `notify` before `wait` is remembered, so no wake-up is lost between check and wait. */
class Notifier {
  private waiter: (() => void) | undefined;
  private pending = false;
  notify(): void {
    const w = this.waiter;
    if (w) {
      this.waiter = undefined;
      w();
    } else {
      this.pending = true;
    }
  }
  wait(): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => (this.waiter = resolve));
  }
}

interface TopicPartition {
  topic: string;
  partition: number;
}

/** A map key for a topic-partition (NUL cannot occur in a Kafka topic name). */
function tpKey(tp: TopicPartition): string {
  return `${tp.topic}\0${tp.partition}`;
}

interface Member {
  topics: string[];
  assigned: TopicPartition[];
  /** Where the next search for work starts, so that no partition starves the others. */
  cursor: number;
  notifier: Notifier;
  /**
   * Partitions paused after a retryable failure, with the time (the bus's clock) they may be tried again, as the
   * Kafka adapter pauses them: the member's other partitions go on meanwhile.
   */
  retryAt: Map<string, number>;
  /** Failed deliveries per partition since its last success: the exponent of its backoff. */
  attempts: Map<string, number>;
}

interface Work {
  tp: TopicPartition;
  busyKey: string;
  messages: StoredMessage[];
}

class Group {
  /** Committed offsets (the next offset to consume) per topic and partition; they outlive the members. */
  readonly offsets = new Map<string, number[]>();
  readonly members: Member[] = [];
  /** Partitions whose batch is in a handler: not handed to anyone else until committed or given up. */
  private readonly busy = new Set<string>();

  constructor(readonly id: string) {}

  /** Round-robin over each topic's partitions among the members subscribed to it (kafkajs's default assigner). */
  rebalance(topics: ReadonlyMap<string, MemoryTopic>): void {
    for (const m of this.members) m.assigned = [];
    const names = [...new Set(this.members.flatMap((m) => m.topics))].sort();
    for (const name of names) {
      const candidates = this.members.filter((m) => m.topics.includes(name));
      const count = topics.get(name)?.partitions.length ?? 0;
      for (let p = 0; p < count; p++) candidates[p % candidates.length]!.assigned.push({ topic: name, partition: p });
    }
    // A pause belongs to the member that saw the failure; a partition that moved is tried at once by its new owner.
    for (const m of this.members) {
      const mine = new Set(m.assigned.map(tpKey));
      for (const k of m.retryAt.keys()) if (!mine.has(k)) m.retryAt.delete(k);
      for (const k of m.attempts.keys()) if (!mine.has(k)) m.attempts.delete(k);
    }
    this.wakeAll();
  }

  wakeAll(): void {
    for (const m of this.members) m.notifier.notify();
  }

  /**
   * The next batch for `member` (marking its partition busy), or undefined when it has nothing to do at `now` (the
   * caller's clock reading, which it must also use to time the next retry).
   */
  takeWork(
    member: Member,
    topics: ReadonlyMap<string, MemoryTopic>,
    maxMessages: number,
    maxBytes: number,
    now: number,
  ): Work | undefined {
    const n = member.assigned.length;
    for (let k = 0; k < n; k++) {
      const idx = (member.cursor + k) % n;
      const tp = member.assigned[idx]!;
      const from = this.readableFrom(member, tp, topics, now);
      if (from === undefined) continue;
      const busyKey = tpKey(tp);
      member.retryAt.delete(busyKey);
      this.busy.add(busyKey);
      member.cursor = idx + 1;
      return { tp, busyKey, messages: topics.get(tp.topic)!.partitions[tp.partition]!.read(from, maxMessages, maxBytes) };
    }
    return undefined;
  }

  /** Whether another partition of `member` than `busyKey` has a batch it could take at `now`. */
  hasOtherWork(member: Member, busyKey: string, topics: ReadonlyMap<string, MemoryTopic>, now: number): boolean {
    return member.assigned.some((tp) => tpKey(tp) !== busyKey && this.readableFrom(member, tp, topics, now) !== undefined);
  }

  /**
   * The offset `member` would read `tp` from, or undefined when there is nothing there it may take now: the partition
   * is in a handler, paused for a retry, or consumed to its end.
   */
  private readableFrom(member: Member, tp: TopicPartition, topics: ReadonlyMap<string, MemoryTopic>, now: number): number | undefined {
    const key = tpKey(tp);
    if (this.busy.has(key) || (member.retryAt.get(key) ?? 0) > now) return undefined;
    const log = topics.get(tp.topic)!.partitions[tp.partition]!;
    // Below the log start: those messages were trimmed (Kafka's auto.offset.reset=earliest after retention).
    const from = Math.max(this.offsets.get(tp.topic)![tp.partition]!, log.startOffset);
    return from < log.endOffset ? from : undefined;
  }

  release(work: Work): void {
    this.busy.delete(work.busyKey);
    // Another member may have been given this partition by a rebalance while the batch ran.
    this.wakeAll();
  }
}

/**
 * Creates an in-process {@link Bus} with Kafka's delivery semantics (see {@link MemoryBusOptions} for where memory
 * bounds differ). Everything lives in this process: a restart starts empty.
 */
export function createMemoryBus(opts: MemoryBusOptions = {}): Bus {
  const partitionsDefault = opts.partitionsDefault ?? 1;
  const maxUnconsumed = opts.maxUnconsumedBytes ?? DEFAULT_MAX_UNCONSUMED_BYTES;
  const maxMessageBytesDefault = opts.maxMessageBytesDefault ?? DEFAULT_MAX_MESSAGE_BYTES;
  const maxBatchBytes = opts.maxBatchBytes ?? DEFAULT_MAX_BATCH_BYTES;
  const clock = opts.clock ?? (() => performance.now());
  if (!(partitionsDefault >= 1)) throw new RangeError('partitionsDefault must be at least 1');

  const topics = new Map<string, MemoryTopic>();
  const groups = new Map<string, Group>();
  const consumers = new Set<MemoryConsumer>();
  let closed = false;

  function createTopic(name: string, partitions: number, maxMessageBytes: number): MemoryTopic {
    if (!Number.isInteger(partitions) || partitions < 1) {
      throw new RangeError(`topic ${name}: partitions must be a positive integer`);
    }
    const t: MemoryTopic = {
      name,
      partitions: Array.from({ length: partitions }, () => new PartitionLog()),
      maxMessageBytes,
      nextKeyless: 0,
      spaceWaiters: new Set(),
    };
    topics.set(name, t);
    return t;
  }

  /** Like a broker with `auto.create.topics.enable=true`: a send or a subscription creates a missing topic. */
  function topicOf(name: string): MemoryTopic {
    return topics.get(name) ?? createTopic(name, partitionsDefault, maxMessageBytesDefault);
  }

  /** Bytes the slowest group has yet to consume from `t`; with no group, everything held. */
  function unconsumedBytes(t: MemoryTopic): number {
    let worst = -1;
    for (const g of groups.values()) {
      const offsets = g.offsets.get(t.name);
      if (!offsets) continue;
      let lag = 0;
      t.partitions.forEach((log, p) => (lag += log.bytesFrom(offsets[p]!)));
      worst = Math.max(worst, lag);
    }
    if (worst >= 0) return worst;
    let held = 0;
    for (const log of t.partitions) held += log.bytesFrom(log.startOffset);
    return held;
  }

  /** Drops what every subscribed group has committed, then lets waiting producers re-check. */
  function trim(t: MemoryTopic, partition: number): void {
    let min = Infinity;
    for (const g of groups.values()) {
      const offsets = g.offsets.get(t.name);
      if (offsets) min = Math.min(min, offsets[partition]!);
    }
    if (min !== Infinity) t.partitions[partition]!.trimBefore(min);
    for (const wake of [...t.spaceWaiters]) wake();
  }

  function wakeSubscribers(topic: string): void {
    for (const g of groups.values()) {
      for (const m of g.members) if (m.topics.includes(topic)) m.notifier.notify();
    }
  }

  function waitForSpace(t: MemoryTopic): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        t.spaceWaiters.delete(wake);
        resolve();
      };
      t.spaceWaiters.add(wake);
    });
  }

  const producer: Producer = {
    async send(topic, messages) {
      if (closed) throw new BusClosedError(`send to ${topic}`);
      if (messages.length === 0) return;
      const t = topicOf(topic);
      const prepared = messages.map((m) => prepare(t, m));
      const incoming = prepared.reduce((sum, m) => sum + m.size, 0);
      // Wait while the slowest group is too far behind; a send larger than the whole budget passes once the topic
      // is fully consumed, so that no message is too big to ever be sent.
      for (;;) {
        if (closed) throw new BusClosedError(`send to ${topic}`);
        const held = unconsumedBytes(t);
        if (held === 0 || held + incoming <= maxUnconsumed) break;
        await waitForSpace(t);
      }
      for (const m of prepared) {
        const p = m.key === null ? t.nextKeyless++ % t.partitions.length : partitionForKey(m.key, t.partitions.length);
        t.partitions[p]!.append(m);
      }
      wakeSubscribers(topic);
    },
  };

  function prepare(t: MemoryTopic, m: OutgoingMessage): Omit<StoredMessage, 'offset' | 'bytesBefore'> {
    const headers: Record<string, string> = { [HEADER_SCHEMA_VERSION]: '1', ...m.headers };
    let size = m.value.length + (m.key === null ? 0 : Buffer.byteLength(m.key));
    for (const [k, v] of Object.entries(headers)) size += Buffer.byteLength(k) + Buffer.byteLength(v);
    // Kafka checks the (possibly compressed) record batch; uncompressed size is the stricter, simpler test here.
    if (size > t.maxMessageBytes) {
      throw new MessageTooLargeError(
        `send to ${t.name}: message of ${size} bytes exceeds the topic's ${t.maxMessageBytes}`,
      );
    }
    // A copy, as Kafka makes one: a producer that reuses its buffer after `send` resolved must not change history.
    return { key: m.key, value: Buffer.from(m.value), headers, size };
  }

  class MemoryConsumer implements Consumer {
    private readonly abort = new AbortController();
    private done: Promise<void> | undefined;
    private member: Member | undefined;

    constructor(private readonly opts: ConsumerOptions) {}

    run(handler: BatchHandler): Promise<void> {
      if (this.done) return Promise.reject(new Error(`consumer of group ${this.opts.groupId}: run() called twice`));
      if (closed) return Promise.reject(new BusClosedError(`consumer of group ${this.opts.groupId}`));
      // Stopped before it ran: nothing to do, and no reason to create the group's offsets.
      this.done = this.abort.signal.aborted ? Promise.resolve() : this.loop(handler);
      return this.done;
    }

    async stop(): Promise<void> {
      this.abort.abort();
      this.member?.notifier.notify();
      // stop() reports nothing: a failure of the loop is run()'s to report.
      await this.done?.catch(() => {});
      consumers.delete(this);
    }

    private join(): { group: Group; member: Member } {
      const { groupId, topics: names, fromBeginning = true } = this.opts;
      let group = groups.get(groupId);
      if (!group) groups.set(groupId, (group = new Group(groupId)));
      for (const name of names) {
        const t = topicOf(name);
        // A group without committed offsets starts at the earliest message held or at the end (Kafka's
        // auto.offset.reset = earliest | latest).
        if (!group.offsets.has(name)) {
          group.offsets.set(
            name,
            t.partitions.map((log) => (fromBeginning ? log.startOffset : log.endOffset)),
          );
        }
      }
      const member: Member = {
        topics: [...names],
        assigned: [],
        cursor: 0,
        notifier: new Notifier(),
        retryAt: new Map(),
        attempts: new Map(),
      };
      group.members.push(member);
      group.rebalance(topics);
      return { group, member };
    }

    private leave(group: Group, member: Member): void {
      group.members.splice(group.members.indexOf(member), 1);
      group.rebalance(topics);
    }

    private async loop(handler: BatchHandler): Promise<void> {
      consumers.add(this);
      const { group, member } = this.join();
      this.member = member;
      const maxMessages = this.opts.maxBatchMessages ?? DEFAULT_MAX_BATCH_MESSAGES;
      // Wakes the member when its earliest paused partition may be retried; cleared on every exit path.
      let retryTimer: NodeJS.Timeout | undefined;
      try {
        while (!this.abort.signal.aborted) {
          // One clock reading for both: a pause takeWork saw still running must get its timer below, or a pause
          // ending between two readings would leave the partition with neither a delivery nor a wake-up.
          const now = clock();
          const work = group.takeWork(member, topics, maxMessages, maxBatchBytes, now);
          if (!work) {
            clearTimeout(retryTimer);
            retryTimer = undefined;
            // Only future retries need a timer: a due one whose partition is busy comes back through release().
            let due = Infinity;
            for (const at of member.retryAt.values()) if (at > now) due = Math.min(due, at);
            if (due !== Infinity) retryTimer = setTimeout(() => member.notifier.notify(), Math.ceil(due - now));
            await member.notifier.wait();
            continue;
          }
          try {
            await this.process(group, member, work, handler);
          } finally {
            group.release(work);
          }
        }
      } finally {
        clearTimeout(retryTimer);
        this.leave(group, member);
        consumers.delete(this);
      }
    }

    /**
     * Delivers one batch, and goes on with the partition's next messages while a batch is pending (the handler
     * resolved with a {@link PendingBatch}): the partition stays this member's throughout, and each batch is
     * committed, in offset order, once it is durable. Resolved (or durable): commits. Retryable error: pauses the
     * partition for a backoff (delivery resumes at the first uncommitted offset). Stopping: leaves what is not
     * durable uncommitted. Anything else: throws, ending run().
     */
    private async process(group: Group, member: Member, work: Work, handler: BatchHandler): Promise<void> {
      const signal = this.abort.signal;
      const ctx: BatchContext = { signal, heartbeat: async () => {} };
      const { topic, partition } = work.tp;
      const log = topics.get(topic)!.partitions[partition]!;
      const maxMessages = this.opts.maxBatchMessages ?? DEFAULT_MAX_BATCH_MESSAGES;
      const commit = (last: number): void => {
        member.attempts.delete(work.busyKey);
        const offsets = group.offsets.get(topic)!;
        offsets[partition] = Math.max(offsets[partition]!, last + 1);
        trim(topics.get(topic)!, partition);
      };
      /** The batch handled but not yet durable, by its last offset. */
      let pending: { last: number; durable: Promise<void> } | undefined;
      const settlePending = async (): Promise<void> => {
        if (!pending) return;
        const p = pending;
        pending = undefined;
        await p.durable;
        commit(p.last);
      };
      let messages = work.messages;
      try {
        for (;;) {
          // Fresh message objects per delivery: a handler that mutates headers must not alter a redelivery.
          const batch: Batch = { topic, partition, messages: messages.map((m) => toIncoming(topic, partition, m)) };
          const last = messages[messages.length - 1]!.offset;
          let outcome: void | PendingBatch;
          try {
            outcome = await handler(batch, ctx);
          } catch (e) {
            // The batch before this one may still become durable: its commit stands on its own.
            await settlePending();
            throw e;
          }
          // Observed at once, before waiting on the batch before it: a rejection surfaces through settlePending,
          // never as unhandled.
          if (isPendingBatch(outcome)) outcome.durable.catch(() => {});
          await settlePending();
          if (!isPendingBatch(outcome)) {
            commit(last);
            return;
          }
          pending = { last, durable: outcome.durable };
          // Go on with this partition only while it is still this member's and no other of its partitions waits:
          // the round-robin of `takeWork` must not starve them.
          const assigned = member.assigned.some((tp) => tp.topic === topic && tp.partition === partition);
          const goOn = !signal.aborted && assigned && !group.hasOtherWork(member, work.busyKey, topics, clock());
          const next = goOn ? log.read(last + 1, maxMessages, maxBatchBytes) : [];
          if (next.length === 0) {
            await settlePending();
            return;
          }
          messages = next;
        }
      } catch (e) {
        // Stopping: the handler gave up (as the signal asks); what is uncommitted is redelivered.
        if (signal.aborted) return;
        if (!isRetryable(e)) throw e;
        const attempt = member.attempts.get(work.busyKey) ?? 0;
        member.attempts.set(work.busyKey, attempt + 1);
        member.retryAt.set(work.busyKey, clock() + retryDelayMs(opts.retry, attempt));
      }
    }
  }

  return {
    async ensureTopics(specs: TopicSpec[]) {
      if (closed) throw new BusClosedError('ensureTopics');
      for (const s of specs) {
        if (!topics.has(s.name)) createTopic(s.name, s.partitions, s.maxMessageBytes ?? maxMessageBytesDefault);
      }
    },
    async producer() {
      if (closed) throw new BusClosedError('producer');
      return producer;
    },
    consumer(copts: ConsumerOptions) {
      if (copts.topics.length === 0) throw new RangeError(`consumer of group ${copts.groupId}: no topics`);
      return new MemoryConsumer(copts);
    },
    async close() {
      closed = true;
      await Promise.all([...consumers].map((c) => c.stop()));
      // Blocked producers re-check, see `closed` and reject.
      for (const t of topics.values()) for (const wake of [...t.spaceWaiters]) wake();
    },
  };
}

function toIncoming(topic: string, partition: number, m: StoredMessage): IncomingMessage {
  return { topic, partition, offset: String(m.offset), key: m.key, value: m.value, headers: { ...m.headers } };
}
