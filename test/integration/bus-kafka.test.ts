import { randomBytes } from 'node:crypto';
import kafkajs, { ConfigResourceTypes } from 'kafkajs';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Bus } from '../../shared/bus/bus.js';
import { MessageTooLargeError, translateKafkaError } from '../../shared/bus/errors.js';
import { NonRetryableError, RetryableError, UpstreamUnavailableError } from '../../shared/runtime/errors.js';
import { busContract, collect, waitFor } from '../helpers/bus-contract.js';
import { committedOffsets, createTestKafkaBus, describeKafka, uniqueGroup, uniqueTopic, withAdmin } from '../helpers/kafka.js';
import { patience } from '../helpers/patience.js';

describeKafka('kafka bus', (brokers) => {
  busContract({
    createBus: () => createTestKafkaBus(brokers),
    uniqueName: uniqueTopic,
    deliveryTimeoutMs: 20_000,
  });

  const newBus = (): Bus => {
    const bus = createTestKafkaBus(brokers);
    onTestFinished(() => bus.close());
    return bus;
  };

  it('creates topics with their partitions and configs, and round-trips a 5 MiB message', async () => {
    const bus = newBus();
    const topic = uniqueTopic('big');
    await bus.ensureTopics([{ name: topic, partitions: 3, retentionMs: 3_600_000 }]);
    // A second call leaves the existing topic alone (and does not fail).
    await bus.ensureTopics([{ name: topic, partitions: 5 }]);
    const { partitions, configs } = await withAdmin(brokers, async (admin) => {
      const meta = await admin.fetchTopicMetadata({ topics: [topic] });
      const described = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['max.message.bytes', 'retention.ms'] }],
      });
      const entries = described.resources[0]!.configEntries;
      return {
        partitions: meta.topics[0]!.partitions.length,
        configs: Object.fromEntries(entries.map((e) => [e.configName, e.configValue])),
      };
    });
    expect(partitions).toBe(3);
    expect(configs).toEqual({ 'max.message.bytes': String(64 * 1024 * 1024), 'retention.ms': '3600000' });

    // Incompressible: the broker really stores (and the consumer really fetches) 5 MiB, above the default
    // 1 MiB broker/client limits this adapter raises.
    const big = randomBytes(5 * 1024 * 1024);
    const producer = await bus.producer();
    await producer.send(topic, [{ key: 'block', value: big, headers: { 'x-kind': 'raw-block' } }]);
    const c = collect(bus, { groupId: uniqueGroup(), topics: [topic] });
    await waitFor(() => c.received.length >= 1, 20_000, 'the big message');
    expect(c.received).toHaveLength(1);
    expect(c.received[0]!.value.equals(big)).toBe(true);
    expect(c.received[0]!.headers).toEqual({ 'x-schema-version': '1', 'x-kind': 'raw-block' });
  });

  it('commits offsets only after the handler resolved', async () => {
    const bus = newBus();
    const topic = uniqueTopic('commit');
    const groupId = uniqueGroup();
    await bus.ensureTopics([{ name: topic, partitions: 1 }]);
    const producer = await bus.producer();
    await producer.send(topic, [0, 1, 2].map((i) => ({ key: 'k', value: Buffer.from(`m${i}`) })));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started = false;
    const c = collect(bus, { groupId, topics: [topic] }, async () => {
      started = true;
      await gate;
    });
    await waitFor(() => started, 20_000, 'the batch in the handler');
    // The handler is still running: nothing is committed yet.
    await new Promise((r) => setTimeout(r, 300));
    expect(await committedOffsets(brokers, groupId, topic)).toEqual(new Map());
    release();
    await waitFor(() => c.received.length === 3, 20_000, 'the batch to complete');
    // Kafka's committed offset is the next one to read.
    const deadline = Date.now() + patience(10_000);
    let offsets = await committedOffsets(brokers, groupId, topic);
    while (offsets.get(0) !== '3' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      offsets = await committedOffsets(brokers, groupId, topic);
    }
    expect(offsets).toEqual(new Map([[0, '3']]));
  });

  it('redelivers the batch of a member that hung mid-batch to a new member of the group', async () => {
    // A member stuck in its handler sends no heartbeats (kafkajs heartbeats between batches), like a killed process:
    // the broker evicts it after the session timeout (6 s in tests) and the new member gets the uncommitted batch.
    const bus = newBus();
    const topic = uniqueTopic('hung');
    const groupId = uniqueGroup();
    await bus.ensureTopics([{ name: topic, partitions: 1 }]);
    const producer = await bus.producer();
    await producer.send(topic, [0, 1, 2].map((i) => ({ key: 'k', value: Buffer.from(`m${i}`) })));
    let unstick!: () => void;
    const stuck = new Promise<void>((r) => (unstick = r));
    let started = false;
    const hung = collect(bus, { groupId, topics: [topic] }, async () => {
      started = true;
      await stuck;
      // Whatever it did is void: the process "died" before committing.
      throw new Error('killed');
    });
    await waitFor(() => started, 20_000, 'the batch in the first member');

    const t0 = Date.now();
    const otherBus = newBus();
    const next = collect(otherBus, { groupId, topics: [topic] });
    await waitFor(() => next.received.length >= 3, 30_000, 'redelivery to the new member');
    expect(next.received.map((m) => m.value.toString())).toEqual(['m0', 'm1', 'm2']);
    expect(Date.now() - t0).toBeGreaterThan(1000);
    unstick();
    await hung.consumer.stop();
  });

  it('keeps retrying a retryable failure past kafkajs’s own retry count, then delivers in order', async () => {
    const bus = createTestKafkaBus(brokers, { retry: { initialMs: 50, maxMs: 100 } });
    onTestFinished(() => bus.close());
    const topic = uniqueTopic('retry');
    await bus.ensureTopics([{ name: topic, partitions: 1 }]);
    const producer = await bus.producer();
    await producer.send(topic, [0, 1, 2, 3].map((i) => ({ key: 'k', value: Buffer.from(`m${i}`) })));
    let failures = 0;
    const c = collect(bus, { groupId: uniqueGroup(), topics: [topic] }, async () => {
      // kafkajs's retrier gives up after 5 retries; the adapter must not.
      if (failures < 8) {
        failures++;
        throw new RetryableError('STORE_DOWN', 'store unavailable');
      }
    });
    await waitFor(() => c.received.length >= 4, 20_000, 'delivery after 8 failures');
    expect(failures).toBe(8);
    expect(c.received.map((m) => m.value.toString())).toEqual(['m0', 'm1', 'm2', 'm3']);
  });
});

// No broker needed: kafkajs's own error classes, as its client throws them.
describe('translateKafkaError', () => {
  const { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError, KafkaJSNonRetriableError } = kafkajs;
  // What kafkajs builds from a broker's error code (src/protocol/error.js): an Error carrying type and retriable.
  const protocolError = (type: string, retriable: boolean) =>
    new KafkaJSProtocolError(Object.assign(new Error(`broker says ${type}`), { type, code: 0, retriable }));

  it('maps retriable kafkajs errors, and retries exhausted on them, to UpstreamUnavailableError', () => {
    const refused = new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092');
    const e = translateKafkaError(refused, 'send to t');
    expect(e).toBeInstanceOf(UpstreamUnavailableError);
    expect(e).toMatchObject({ code: 'KAFKA_UNAVAILABLE', retryable: true, cause: refused });
    expect(e.message).toBe('send to t: Connection error: connect ECONNREFUSED 127.0.0.1:9092');
    // kafkajs marks this wrapper non-retriable, but it only wraps retriable failures that outlasted the retries.
    const exhausted = new KafkaJSNumberOfRetriesExceeded(refused, { retryCount: 5, retryTime: 3000 });
    expect(translateKafkaError(exhausted, 'fetch')).toBeInstanceOf(UpstreamUnavailableError);
    // No broker answered the coordinator lookup: a broker restart, whatever kafkajs's class says.
    // Its typings declare no constructor argument; the runtime class (like kafkajs's own call) takes the message.
    const noCoordinator: Error & { retriable: boolean } = Reflect.construct(kafkajs.KafkaJSGroupCoordinatorNotFound, [
      'Failed to find group coordinator',
    ]);
    expect(noCoordinator.retriable).toBe(false);
    expect(translateKafkaError(noCoordinator, 'join')).toMatchObject({ retryable: true });
    expect(translateKafkaError(protocolError('LEADER_NOT_AVAILABLE', true), 'send')).toMatchObject({ code: 'KAFKA_UNAVAILABLE', retryable: true });
  });

  it('maps non-retriable kafkajs errors to NonRetryableError with the broker error in the code', () => {
    expect(translateKafkaError(protocolError('MESSAGE_TOO_LARGE', false), 'send')).toBeInstanceOf(MessageTooLargeError);
    expect(translateKafkaError(protocolError('TOPIC_AUTHORIZATION_FAILED', false), 'send')).toMatchObject({ code: 'KAFKA_TOPIC_AUTHORIZATION_FAILED', retryable: false });
    expect(translateKafkaError(new KafkaJSNonRetriableError('bad config'), 'connect')).toMatchObject({ code: 'KAFKA_ERROR', retryable: false });
  });

  it('passes our errors through and wraps anything else as non-retryable', () => {
    const ours = new RetryableError('X', 'x');
    expect(translateKafkaError(ours, 'op')).toBe(ours);
    const bug = translateKafkaError(new TypeError('undefined is not a function'), 'op');
    expect(bug).toBeInstanceOf(NonRetryableError);
    expect(bug).toMatchObject({ code: 'KAFKA_CLIENT_ERROR' });
  });
});
