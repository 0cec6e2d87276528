import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Bus } from '../../shared/bus/bus.js';
import { isRetryable } from '../../shared/runtime/errors.js';
import { collect, waitFor } from '../helpers/bus-contract.js';
import { createTestKafkaBus, createTestLogger, describeKafka, startPrivateBroker, uniqueGroup, uniqueTopic, type PrivateBroker } from '../helpers/kafka.js';

/**
 * A broker restart under a running consumer and a producer. It uses a broker of its own (started through
 * .ci/kafka.sh on other ports), because stopping the shared one would break the tests running beside it.
 */
describeKafka('kafka bus across a broker restart', () => {
  let broker: PrivateBroker | undefined;
  let bus: Bus | undefined;

  beforeAll(async () => {
    broker = await startPrivateBroker();
  });

  afterAll(async () => {
    await bus?.close();
    await broker?.stop();
  });

  it('keeps consuming and producing after the broker restarts, losing nothing', async () => {
    const logger = createTestLogger();
    bus = createTestKafkaBus(broker!.brokers, {
      logger,
      // Short client retries: kafkajs gives up within the outage, so the adapter's own restart loop must bring the
      // consumer back (kafkajs's restart-on-crash is off).
      clientRetry: { initialRetryTime: 100, maxRetryTime: 1000, retries: 2 },
      retry: { initialMs: 200, maxMs: 1000 },
    });
    const topic = uniqueTopic('restart');
    await bus.ensureTopics([{ name: topic, partitions: 2 }]);
    const producer = await bus.producer();
    const c = collect(bus, { groupId: uniqueGroup(), topics: [topic] });
    let runSettled = false;
    void c.done.then(() => (runSettled = true), () => (runSettled = true));

    const send = async (i: number): Promise<void> => {
      // What a producing stage does: retry a retryable failure (the broker is away) until it is accepted.
      for (;;) {
        try {
          await producer.send(topic, [{ key: `k${i % 4}`, value: Buffer.from(`m${i}`) }]);
          return;
        } catch (e) {
          if (!isRetryable(e)) throw e;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    };
    for (let i = 0; i < 10; i++) await send(i);
    await waitFor(() => c.received.length >= 10, 20_000, 'messages before the restart');

    const t0 = Date.now();
    await broker!.restart({ downMs: 1000 });
    const restartMs = Date.now() - t0;
    for (let i = 10; i < 20; i++) await send(i);
    await waitFor(() => new Set(c.received.map((m) => m.value.toString())).size >= 20, 45_000, 'messages after the restart');

    const values = new Set(c.received.map((m) => m.value.toString()));
    expect([...values].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`).sort());
    // Per key, first deliveries keep the production order (redeliveries, if any, repeat a suffix).
    for (let k = 0; k < 4; k++) {
      const firsts: number[] = [];
      for (const m of c.received.filter((r) => r.key === `k${k}`)) {
        const n = Number(m.value.toString().slice(1));
        if (!firsts.includes(n)) firsts.push(n);
      }
      expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
    }
    expect(runSettled).toBe(false);
    console.info(`broker restart took ${restartMs} ms; consumer restarts: ${logger.lines.filter((l) => l.includes('restarting')).length}`);

    await c.consumer.stop();
    await expect(c.done).resolves.toBeUndefined();
  });
});
