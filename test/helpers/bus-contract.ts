import { randomBytes } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  HEADER_ERROR_CODE,
  HEADER_ERROR_MESSAGE,
  HEADER_SCHEMA_VERSION,
  HEADER_SOURCE_OFFSET,
  HEADER_SOURCE_PARTITION,
  HEADER_SOURCE_TOPIC,
  type Batch,
  type BatchContext,
  type Bus,
  type Consumer,
  type ConsumerOptions,
  type IncomingMessage,
} from '../../shared/bus/bus.js';
import { deadLetter } from '../../shared/bus/dead-letter.js';
import { partitionForKey } from '../../shared/bus/memory.js';
import { NonRetryableError, RetryableError, UpstreamUnavailableError } from '../../shared/runtime/errors.js';
import { patience } from './patience.js';

/**
 * The behaviour every bus adapter must share, written once and run against each (`shared/bus/memory.test.ts`,
 * `test/integration/bus-kafka.test.ts`): a stage must not be able to tell the embedded mode from Kafka.
 */
export interface BusContractSetup {
  /** A fresh bus; the suite closes it when the test ends. */
  createBus(): Bus;
  /** A topic or group name unused by any other test. */
  uniqueName(prefix: string): string;
  /** How long to wait for a delivery before failing. */
  deliveryTimeoutMs: number;
}

/**
 * Polls `cond` until true. `timeoutMs` is what the wait takes at most on a quiet machine; only a wait past
 * {@link patience} of it counts as hung and throws, naming `what`.
 */
export async function waitFor(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const limit = patience(timeoutMs);
  const deadline = Date.now() + limit;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${limit} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface Collector {
  consumer: Consumer;
  /** Every delivered message, redeliveries included, in delivery order. */
  received: IncomingMessage[];
  batches: Batch[];
  /** run()'s promise (its rejection is also observed here, so that a test may ignore it). */
  done: Promise<void>;
}

/**
 * Runs a consumer that records what it gets; `handle` (optional) runs first and may throw to fail the batch, in
 * which case the batch is not recorded.
 */
export function collect(
  bus: Bus,
  opts: ConsumerOptions,
  handle?: (batch: Batch, ctx: BatchContext) => Promise<void>,
): Collector {
  const consumer = bus.consumer(opts);
  const c: Collector = { consumer, received: [], batches: [], done: Promise.resolve() };
  c.done = consumer.run(async (batch, ctx) => {
    if (handle) await handle(batch, ctx);
    c.batches.push(batch);
    c.received.push(...batch.messages);
  });
  c.done.catch(() => {});
  return c;
}

const text = (m: IncomingMessage): string => m.value.toString();

/**
 * Where Kafka's default partitioner (Java's `Utils.murmur2`, `toPositive(h) % n`) puts these keys; the values were
 * computed with kafkajs's implementation. Both adapters must agree, so a key's partition does not depend on the mode.
 */
const KNOWN_PARTITIONS: { key: string; partitions: number; expected: number }[] = [
  { key: 'tonflow', partitions: 3, expected: 1 },
  { key: 'tonflow', partitions: 7, expected: 5 },
  { key: 'a', partitions: 16, expected: 12 },
  { key: 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N', partitions: 7, expected: 2 },
  { key: '0:8000000000000000:12345', partitions: 16, expected: 7 },
];

/** Defines the contract tests (inside the caller's `describe`). */
export function busContract(setup: BusContractSetup): void {
  const T = patience(setup.deliveryTimeoutMs);
  const name = (p: string): string => setup.uniqueName(p);
  const newBus = (): Bus => {
    const bus = setup.createBus();
    onTestFinished(() => bus.close());
    return bus;
  };

  describe('bus contract', () => {
    it('round-trips key, value and headers, defaulting x-schema-version to "1"', async () => {
      const bus = newBus();
      const topic = name('roundtrip');
      await bus.ensureTopics([{ name: topic, partitions: 3 }]);
      const producer = await bus.producer();
      await producer.send(topic, [
        { key: 'k1', value: Buffer.from('plain') },
        { key: null, value: Buffer.from('keyless'), headers: { 'x-trace': 'abc' } },
        { key: 'k2', value: Buffer.from([0, 1, 2, 255]), headers: { [HEADER_SCHEMA_VERSION]: '2' } },
      ]);
      const c = collect(bus, { groupId: name('g'), topics: [topic] });
      await waitFor(() => c.received.length >= 3, T, '3 messages');
      const byValue = new Map(c.received.map((m) => [m.value.toString('hex'), m]));
      const plain = byValue.get(Buffer.from('plain').toString('hex'))!;
      expect(plain).toMatchObject({ topic, key: 'k1', headers: { [HEADER_SCHEMA_VERSION]: '1' } });
      expect(plain.offset).toMatch(/^\d+$/);
      expect(plain.partition).toBeGreaterThanOrEqual(0);
      expect(plain.partition).toBeLessThan(3);
      expect(byValue.get(Buffer.from('keyless').toString('hex'))).toMatchObject({
        key: null,
        headers: { [HEADER_SCHEMA_VERSION]: '1', 'x-trace': 'abc' },
      });
      expect(byValue.get('000102ff')).toMatchObject({ key: 'k2', headers: { [HEADER_SCHEMA_VERSION]: '2' } });
      expect(c.received).toHaveLength(3);
    });

    it('keeps the order of each key, puts a key on one partition, and bounds batches by maxBatchMessages', async () => {
      const bus = newBus();
      const topic = name('order');
      await bus.ensureTopics([{ name: topic, partitions: 3 }]);
      const producer = await bus.producer();
      const keys = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
      const perKey = 40;
      // Several sends, keys interleaved within each: order must hold across sends and within one.
      for (let round = 0; round < 4; round++) {
        const msgs = [];
        for (let i = 0; i < perKey / 4; i++) {
          for (const k of keys) msgs.push({ key: k, value: Buffer.from(`${k}:${round * (perKey / 4) + i}`) });
        }
        await producer.send(topic, msgs);
      }
      const c = collect(bus, { groupId: name('g'), topics: [topic], maxBatchMessages: 7 });
      await waitFor(() => c.received.length >= keys.length * perKey, T, 'all messages');
      for (const k of keys) {
        const mine = c.received.filter((m) => m.key === k);
        expect(mine.map((m) => Number(text(m).split(':')[1]))).toEqual([...Array(perKey).keys()]);
        expect(new Set(mine.map((m) => m.partition)).size).toBe(1);
        // Offsets increase within the partition.
        const offsets = mine.map((m) => BigInt(m.offset));
        for (let i = 1; i < offsets.length; i++) expect(offsets[i]! > offsets[i - 1]!).toBe(true);
      }
      for (const b of c.batches) {
        expect(b.messages.length).toBeGreaterThan(0);
        expect(b.messages.length).toBeLessThanOrEqual(7);
        expect(b.messages.every((m) => m.partition === b.partition && m.topic === b.topic)).toBe(true);
      }
    });

    it('puts a key on the partition Kafka’s default partitioner picks', async () => {
      const bus = newBus();
      const producer = await bus.producer();
      const sizes = [...new Set(KNOWN_PARTITIONS.map((k) => k.partitions))];
      const topics = new Map(sizes.map((n) => [n, name(`part${n}`)]));
      await bus.ensureTopics(sizes.map((n) => ({ name: topics.get(n)!, partitions: n })));
      for (const k of KNOWN_PARTITIONS) await producer.send(topics.get(k.partitions)!, [{ key: k.key, value: Buffer.from(k.key) }]);
      const c = collect(bus, { groupId: name('g'), topics: [...topics.values()] });
      await waitFor(() => c.received.length >= KNOWN_PARTITIONS.length, T, 'keyed messages');
      for (const k of KNOWN_PARTITIONS) {
        const m = c.received.find((r) => r.topic === topics.get(k.partitions) && r.key === k.key);
        expect(m?.partition, `${k.key} of ${k.partitions}`).toBe(k.expected);
      }
    });

    it('gives every group every message', async () => {
      const bus = newBus();
      const topic = name('groups');
      await bus.ensureTopics([{ name: topic, partitions: 2 }]);
      const producer = await bus.producer();
      await producer.send(topic, Array.from({ length: 20 }, (_, i) => ({ key: `k${i % 4}`, value: Buffer.from(String(i)) })));
      const a = collect(bus, { groupId: name('ga'), topics: [topic] });
      const b = collect(bus, { groupId: name('gb'), topics: [topic] });
      await waitFor(() => a.received.length >= 20 && b.received.length >= 20, T, 'both groups');
      const sorted = (c: Collector): number[] => c.received.map((m) => Number(text(m))).sort((x, y) => x - y);
      expect(sorted(a)).toEqual([...Array(20).keys()]);
      expect(sorted(b)).toEqual([...Array(20).keys()]);
    });

    it('resumes a group after its last commit, with a new consumer', async () => {
      const bus = newBus();
      const topic = name('resume');
      const groupId = name('g');
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      const producer = await bus.producer();
      await producer.send(topic, [0, 1, 2, 3, 4].map((i) => ({ key: 'k', value: Buffer.from(`m${i}`) })));
      const first = collect(bus, { groupId, topics: [topic] });
      await waitFor(() => first.received.length >= 5, T, 'first 5');
      await first.consumer.stop();
      await first.done;
      await producer.send(topic, [5, 6, 7].map((i) => ({ key: 'k', value: Buffer.from(`m${i}`) })));
      const second = collect(bus, { groupId, topics: [topic] });
      await waitFor(() => second.received.length >= 3, T, 'next 3');
      expect(second.received.map(text)).toEqual(['m5', 'm6', 'm7']);
    });

    it('starts a new group at the end when fromBeginning is false', async () => {
      const bus = newBus();
      const topic = name('latest');
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      const producer = await bus.producer();
      await producer.send(topic, [{ key: 'k', value: Buffer.from('old') }]);
      const c = collect(bus, { groupId: name('g'), topics: [topic], fromBeginning: false });
      // When the member has joined is not observable: probe until one probe arrives.
      for (let i = 0; c.received.length === 0; i++) {
        if (i * 100 > T) throw new Error('no probe arrived');
        await producer.send(topic, [{ key: 'k', value: Buffer.from(`probe${i}`) }]);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(c.received.map(text)).not.toContain('old');
    });

    it('retries a batch whose handler threw a retryable error, without skipping or reordering', async () => {
      const bus = newBus();
      const topic = name('retry');
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      const producer = await bus.producer();
      await producer.send(topic, Array.from({ length: 10 }, (_, i) => ({ key: 'k', value: Buffer.from(String(i)) })));
      let failures = 0;
      const seen: string[] = [];
      const c = collect(bus, { groupId: name('g'), topics: [topic], maxBatchMessages: 4 }, async (batch) => {
        seen.push(...batch.messages.map(text));
        // The second batch fails twice (e.g. the store is down), with two flavours of retryable error.
        if (batch.messages.some((m) => text(m) === '5') && failures < 2) {
          failures++;
          throw failures === 1 ? new UpstreamUnavailableError('STORE_DOWN', 'store unavailable') : new RetryableError('TRANSIENT', 'try again');
        }
      });
      await waitFor(() => c.received.length >= 10, T, 'all 10 after retries');
      expect(failures).toBe(2);
      expect(c.received.map(text)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
      // The failed batch was delivered again from its first message each time.
      const failed = c.batches.find((bt) => bt.messages.some((m) => text(m) === '5'))!;
      const firstOfFailed = failed.messages[0]!;
      expect(seen.filter((v) => v === text(firstOfFailed))).toHaveLength(3);
      // Still running: a retryable failure does not end run().
      let settled = false;
      void c.done.then(() => (settled = true), () => (settled = true));
      await new Promise((r) => setTimeout(r, 50));
      expect(settled).toBe(false);
    });

    it('pauses only the failing partition while its batch waits for a retry', async () => {
      const bus = newBus();
      const topic = name('pause');
      await bus.ensureTopics([{ name: topic, partitions: 2 }]);
      // One key per partition (Kafka's partitioner, as the memory bus computes it).
      const slowKey = ['s0', 's1', 's2', 's3'].find((k) => partitionForKey(k, 2) === 0)!;
      const fastKey = ['f0', 'f1', 'f2', 'f3'].find((k) => partitionForKey(k, 2) === 1)!;
      const producer = await bus.producer();
      await producer.send(topic, [{ key: slowKey, value: Buffer.from('slow') }]);
      let fastDone = 0;
      let slowFailures = 0;
      const c = collect(bus, { groupId: name('g'), topics: [topic] }, async (batch) => {
        if (batch.messages[0]!.key === slowKey) {
          // Fails (say, its rows hit a store shard that is down) until the other partition has made progress.
          if (fastDone < 3) {
            slowFailures++;
            throw new UpstreamUnavailableError('SHARD_DOWN', 'shard unavailable');
          }
        } else {
          fastDone += batch.messages.length;
        }
      });
      await waitFor(() => slowFailures >= 1, T, 'the first failure');
      for (let i = 0; i < 3; i++) await producer.send(topic, [{ key: fastKey, value: Buffer.from(`fast${i}`) }]);
      await waitFor(() => c.received.length >= 4, T, 'all four');
      expect(c.received.map(text).slice(0, 3)).toEqual(['fast0', 'fast1', 'fast2']);
      expect(text(c.received[3]!)).toBe('slow');
    });

    it('rejects run() on a non-retryable error and does not commit the failed batch', async () => {
      const bus = newBus();
      const topic = name('fatal');
      const groupId = name('g');
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      const producer = await bus.producer();
      await producer.send(topic, [0, 1, 2].map((i) => ({ key: 'k', value: Buffer.from(`m${i}`) })));
      const boom = new NonRetryableError('BAD_INPUT', 'cannot decode');
      const failing = collect(bus, { groupId, topics: [topic] }, async () => {
        throw boom;
      });
      await expect(failing.done).rejects.toBe(boom);
      const next = collect(bus, { groupId, topics: [topic] });
      await waitFor(() => next.received.length >= 3, T, 'redelivery');
      expect(next.received.map(text)).toEqual(['m0', 'm1', 'm2']);
    });

    it('redelivers a batch the handler gave up on when stopped (signal aborted)', async () => {
      const bus = newBus();
      const topic = name('giveup');
      const groupId = name('g');
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      const producer = await bus.producer();
      await producer.send(topic, [0, 1, 2].map((i) => ({ key: 'k', value: Buffer.from(`m${i}`) })));
      let started = false;
      const first = collect(bus, { groupId, topics: [topic] }, async (_batch, ctx) => {
        started = true;
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
        throw new Error('aborted');
      });
      await waitFor(() => started, T, 'batch in the handler');
      await first.consumer.stop();
      await expect(first.done).resolves.toBeUndefined();
      const second = collect(bus, { groupId, topics: [topic] });
      await waitFor(() => second.received.length >= 3, T, 'redelivery');
      expect(second.received.map(text)).toEqual(['m0', 'm1', 'm2']);
    });

    it('lets stop() finish and commit the running batch', async () => {
      const bus = newBus();
      const topic = name('finish');
      const groupId = name('g');
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      const producer = await bus.producer();
      await producer.send(topic, [0, 1, 2].map((i) => ({ key: 'k', value: Buffer.from(`m${i}`) })));
      let started = false;
      let finished = false;
      const first = collect(bus, { groupId, topics: [topic] }, async () => {
        started = true;
        await new Promise((r) => setTimeout(r, 300));
        finished = true;
      });
      await waitFor(() => started, T, 'batch in the handler');
      await first.consumer.stop();
      expect(finished).toBe(true);
      expect(first.received.map(text)).toEqual(['m0', 'm1', 'm2']);
      await producer.send(topic, [{ key: 'k', value: Buffer.from('after') }]);
      const second = collect(bus, { groupId, topics: [topic] });
      await waitFor(() => second.received.length >= 1, T, 'the next message');
      expect(second.received.map(text)).toEqual(['after']);
    });

    it('commits a pending batch once it is durable, in offset order, and resumes a new consumer after it', async () => {
      const bus = newBus();
      const topic = name('pending');
      const groupId = name('g');
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      const producer = await bus.producer();
      await producer.send(topic, [0, 1, 2, 3, 4, 5].map((i) => ({ key: 'k', value: Buffer.from(`m${i}`) })));
      const durableAt: string[] = [];
      const consumer = bus.consumer({ groupId, topics: [topic], maxBatchMessages: 2 });
      const seen: string[] = [];
      const done = consumer.run(async (batch) => {
        seen.push(...batch.messages.map(text));
        const last = text(batch.messages[batch.messages.length - 1]!);
        // Durable a little later, as a stage's last write of a batch is.
        return { durable: new Promise<void>((r) => setTimeout(() => (durableAt.push(last), r()), 50)) };
      });
      done.catch(() => {});
      await waitFor(() => durableAt.length >= 3, T, 'three durable batches');
      await consumer.stop();
      await done;
      expect(seen).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
      await producer.send(topic, [{ key: 'k', value: Buffer.from('after') }]);
      const second = collect(bus, { groupId, topics: [topic] });
      await waitFor(() => second.received.length >= 1, T, 'the next message');
      expect(second.received.map(text)).toEqual(['after']);
    });

    it('leaves a pending batch uncommitted when its durable rejects on stop, and redelivers it', async () => {
      const bus = newBus();
      const topic = name('pendingstop');
      const groupId = name('g');
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      const producer = await bus.producer();
      await producer.send(topic, [0, 1, 2, 3].map((i) => ({ key: 'k', value: Buffer.from(`m${i}`) })));
      let handled = 0;
      const consumer = bus.consumer({ groupId, topics: [topic], maxBatchMessages: 2 });
      const done = consumer.run(async (batch, ctx) => {
        handled++;
        if (text(batch.messages[0]!) !== 'm0') {
          // A later batch waits for the one before it to be durable, as the stage's first write does.
          await new Promise((r) => ctx.signal.addEventListener('abort', r, { once: true }));
          throw new Error('stopped');
        }
        // The first batch's last write never completes: the store is gone until the stage stops.
        const durable = new Promise<void>((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('write given up')), { once: true }));
        return { durable };
      });
      await waitFor(() => handled >= 1, T, 'the first batch');
      await new Promise((r) => setTimeout(r, 100));
      await consumer.stop();
      await expect(done).resolves.toBeUndefined();
      const second = collect(bus, { groupId, topics: [topic] });
      await waitFor(() => second.received.length >= 4, T, 'redelivery');
      expect(second.received.map(text)).toEqual(['m0', 'm1', 'm2', 'm3']);
    });

    it('redelivers a pending batch whose durable rejects with a retryable error, and what followed it', async () => {
      const bus = newBus();
      const topic = name('pendingretry');
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      const producer = await bus.producer();
      await producer.send(topic, Array.from({ length: 6 }, (_, i) => ({ key: 'k', value: Buffer.from(String(i)) })));
      let failed = false;
      const seen: string[] = [];
      const stored: string[] = [];
      const consumer = bus.consumer({ groupId: name('g'), topics: [topic], maxBatchMessages: 2 });
      const done = consumer.run(async (batch) => {
        const values = batch.messages.map(text);
        seen.push(...values);
        const durable = new Promise<void>((resolve, reject) =>
          setTimeout(() => {
            if (values.includes('2') && !failed) {
              failed = true;
              reject(new UpstreamUnavailableError('STORE_DOWN', 'store unavailable'));
            } else {
              stored.push(...values);
              resolve();
            }
          }, 20),
        );
        return { durable };
      });
      done.catch(() => {});
      await waitFor(() => stored.length >= 6, T, 'all six durable');
      expect(failed).toBe(true);
      // Nothing skipped: the failed batch came back from its first message, after what was durable before it.
      expect(stored.slice(0, 2)).toEqual(['0', '1']);
      expect([...new Set(stored)].sort()).toEqual(['0', '1', '2', '3', '4', '5']);
      expect(seen.filter((v) => v === '2')).toHaveLength(2);
      let settled = false;
      void done.then(() => (settled = true), () => (settled = true));
      await new Promise((r) => setTimeout(r, 50));
      expect(settled).toBe(false);
    });

    it('rejects run() when a pending batch fails for good, without committing it', async () => {
      const bus = newBus();
      const topic = name('pendingfatal');
      const groupId = name('g');
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      const producer = await bus.producer();
      await producer.send(topic, [0, 1].map((i) => ({ key: 'k', value: Buffer.from(`m${i}`) })));
      const boom = new NonRetryableError('SCHEMA_MISMATCH', 'the store refused the rows');
      const consumer = bus.consumer({ groupId, topics: [topic] });
      const done = consumer.run(async () => ({ durable: Promise.reject(boom) }));
      await expect(done).rejects.toBe(boom);
      const next = collect(bus, { groupId, topics: [topic] });
      await waitFor(() => next.received.length >= 2, T, 'redelivery');
      expect(next.received.map(text)).toEqual(['m0', 'm1']);
    });

    it('rejects a message larger than the topic accepts, as non-retryable', async () => {
      const bus = newBus();
      const topic = name('toolarge');
      await bus.ensureTopics([{ name: topic, partitions: 1, maxMessageBytes: 256 * 1024 }]);
      const producer = await bus.producer();
      // Random bytes: compression cannot bring them under the limit.
      const err = await producer.send(topic, [{ key: 'k', value: randomBytes(512 * 1024) }]).catch((e: unknown) => e);
      expect(err).toMatchObject({ retryable: false, code: 'MESSAGE_TOO_LARGE' });
      // The topic still works for messages that fit.
      await producer.send(topic, [{ key: 'k', value: randomBytes(1000) }]);
    });

    it('dead-letters a poison message with its origin and error, then moves on', async () => {
      const bus = newBus();
      const topic = name('src');
      const dlq = `${topic}.dlq`;
      await bus.ensureTopics([
        { name: topic, partitions: 2 },
        { name: dlq, partitions: 1 },
      ]);
      const producer = await bus.producer();
      await producer.send(topic, [
        { key: 'good', value: Buffer.from('ok-1') },
        { key: 'bad', value: Buffer.from('poison'), headers: { [HEADER_SCHEMA_VERSION]: '3', 'x-trace': 't1' } },
        { key: 'good', value: Buffer.from('ok-2') },
      ]);
      const longMessage = `cannot decode ${'x'.repeat(5000)}`;
      const processed: string[] = [];
      const main = collect(bus, { groupId: name('g'), topics: [topic] }, async (batch) => {
        for (const m of batch.messages) {
          if (text(m) === 'poison') await deadLetter(producer, dlq, m, new NonRetryableError('DECODE_FAILED', longMessage));
          else processed.push(text(m));
        }
      });
      const letters = collect(bus, { groupId: name('gdlq'), topics: [dlq] });
      await waitFor(() => letters.received.length >= 1 && processed.length >= 2, T, 'the dead letter');
      expect(processed.sort()).toEqual(['ok-1', 'ok-2']);
      const source = main.received.find((m) => text(m) === 'poison')!;
      const letter = letters.received[0]!;
      expect(letter.key).toBe('bad');
      expect(text(letter)).toBe('poison');
      expect(letter.headers).toMatchObject({
        [HEADER_SCHEMA_VERSION]: '3',
        'x-trace': 't1',
        [HEADER_ERROR_CODE]: 'DECODE_FAILED',
        [HEADER_SOURCE_TOPIC]: topic,
        [HEADER_SOURCE_PARTITION]: String(source.partition),
        [HEADER_SOURCE_OFFSET]: source.offset,
      });
      const msg = letter.headers[HEADER_ERROR_MESSAGE]!;
      expect(msg.startsWith('cannot decode xxx')).toBe(true);
      expect(msg.length).toBeLessThanOrEqual(1024);
      expect(msg.endsWith('…')).toBe(true);
    });

    it('rejects use after close', async () => {
      const bus = setup.createBus();
      const producer = await bus.producer();
      await bus.close();
      await expect(producer.send(name('closed'), [{ key: null, value: Buffer.from('x') }])).rejects.toMatchObject({ code: 'BUS_CLOSED' });
      await expect(bus.consumer({ groupId: name('g'), topics: [name('closed')] }).run(async () => {})).rejects.toMatchObject({
        code: 'BUS_CLOSED',
      });
    });
  });
}
