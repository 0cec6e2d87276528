import { describe, expect, it } from 'vitest';
import type { Batch, BatchContext, IncomingMessage } from '../../shared/bus/bus.js';
import { NonRetryableError, UpstreamUnavailableError } from '../../shared/runtime/errors.js';
import { type MapOutcome, type StageDeps, type StageMapper, type TableRows, type WriteChain, handleBatch, stageHandler } from './stage.js';

/**
 * The runner's ordering across batches (bus.ts `PendingBatch`): a batch is handed back with its last write in
 * flight, and the next batch's writes and checkpoint follow it. The mapper here stands in for a stage's mapping
 * (the decode stage's own tests use the real fixtures): one row per message, the message's text as its value.
 */

const mapper: StageMapper = {
  depth: 1,
  inThread: true,
  map: async (m) => ({ rows: { t: [{ v: m.value.toString() }] }, count: 1, checkpoint: m.headers['cp'] ?? null }),
  close: async () => {},
};

function batchOf(values: string[], first: number, checkpoint: string, partition = 0): Batch {
  const messages: IncomingMessage[] = values.map((v, i) => {
    const headers: Record<string, string> = i === values.length - 1 ? { cp: checkpoint } : {};
    return { topic: 'raw', partition, offset: String(first + i), key: null, value: Buffer.from(v), headers };
  });
  return { topic: 'raw', partition, messages };
}

/** A store writer whose writes complete when the test says so, recording what happened in order. */
function controlledStore(flushRows = 1) {
  const events: string[] = [];
  const pending = new Map<string, { resolve: () => void; reject: (e: unknown) => void }>();
  const valuesOf = (rows: TableRows): string => rows.get('t')!.objects.map((r) => (r as { v: string }).v).join(',');
  const deps: StageDeps = {
    mapper,
    flushRows,
    write: (rows) => {
      const what = valuesOf(rows);
      events.push(`write ${what}`);
      return new Promise<void>((resolve, reject) => pending.set(what, { resolve, reject }));
    },
    deadLetter: async () => {},
    checkpoints: { save: async (cp) => void events.push(`checkpoint ${cp}`) },
  };
  const finish = async (what: string): Promise<void> => {
    events.push(`acked ${what}`);
    pending.get(what)!.resolve();
    await new Promise((r) => setTimeout(r, 5));
  };
  const fail = async (what: string, e: unknown): Promise<void> => {
    pending.get(what)!.reject(e);
    await new Promise((r) => setTimeout(r, 5));
  };
  return { events, deps, finish, fail };
}

const ctx: BatchContext = { signal: new AbortController().signal, heartbeat: async () => {} };

describe('stage runner across batches', () => {
  it('hands a batch back pending, starts the next batch’s first write only after it, and saves checkpoints in order', async () => {
    const s = controlledStore();
    const chain: WriteChain = {};
    const handling = handleBatch(s.deps, batchOf(['a', 'b'], 0, 'cp1'), ctx, chain);
    await new Promise((r) => setTimeout(r, 5));
    // One write in flight at a time: b waits for a.
    expect(s.events).toEqual(['write a']);
    await s.finish('a');
    // The handler returns with its last write still in flight.
    const first = await handling;
    expect(s.events).toEqual(['write a', 'acked a', 'write b']);

    const second = handleBatch(s.deps, batchOf(['c'], 2, 'cp2'), ctx, chain);
    await new Promise((r) => setTimeout(r, 5));
    // Decoded, but its write waits for the first batch's last write and checkpoint.
    expect(s.events).toEqual(['write a', 'acked a', 'write b']);
    let firstDurable = false;
    void first.durable.then(() => (firstDurable = true));
    await s.finish('b');
    expect(firstDurable).toBe(true);
    expect(s.events).toEqual(['write a', 'acked a', 'write b', 'acked b', 'checkpoint cp1', 'write c']);
    const { durable } = await second;
    await s.finish('c');
    await durable;
    expect(s.events.slice(-2)).toEqual(['acked c', 'checkpoint cp2']);
  });

  it('fails the next batch with the error its predecessor’s last write gave up with, and saves no checkpoint', async () => {
    const s = controlledStore();
    const chain: WriteChain = {};
    const first = await handleBatch(s.deps, batchOf(['a'], 0, 'cp1'), ctx, chain);
    const second = handleBatch(s.deps, batchOf(['b'], 1, 'cp2'), ctx, chain).then(
      () => null,
      (e: unknown) => e,
    );
    const refused = new NonRetryableError('STORE_REFUSED', 'the rows do not fit the table');
    await s.fail('a', refused);
    await expect(first.durable).rejects.toBe(refused);
    expect(await second).toBe(refused);
    expect(s.events).toEqual(['write a']);
    // The chain does not keep the failure: the redelivered batch writes afresh.
    const again = await handleBatch(s.deps, batchOf(['a'], 0, 'cp1'), ctx, chain);
    await s.finish('a');
    await again.durable;
    expect(s.events).toEqual(['write a', 'write a', 'acked a', 'checkpoint cp1']);
  });

  it('chains each partition on its own: a batch waits for its partition’s predecessor, never for another partition’s', async () => {
    const s = controlledStore();
    const handle = stageHandler(s.deps);
    const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));
    const a = await handle(batchOf(['a'], 0, 'p0-a', 0), ctx);
    // Partition 1 (Kafka hands the stage two partitions at once) writes at once, beside partition 0's write.
    const b = await handle(batchOf(['b'], 0, 'p1-b', 1), ctx);
    expect(s.events).toEqual(['write a', 'write b']);
    const c = handle(batchOf(['c'], 1, 'p0-c', 0), ctx);
    await tick();
    await s.finish('b');
    // Partition 1's write is done, yet c still waits for a.
    expect(s.events).toEqual(['write a', 'write b', 'acked b', 'checkpoint p1-b']);
    await s.finish('a');
    expect(s.events).toEqual(['write a', 'write b', 'acked b', 'checkpoint p1-b', 'acked a', 'checkpoint p0-a', 'write c']);
    await s.finish('c');
    await Promise.all([a?.durable, b?.durable, (await c)?.durable]);
  });

  it('lets the redelivery of a failed batch write afresh, and makes the first chunk small again once the store is idle', async () => {
    const s = controlledStore(4);
    const chain: WriteChain = {};
    const first = await handleBatch(s.deps, batchOf(['a'], 0, 'cp1'), ctx, chain);
    await s.fail('a', new NonRetryableError('STORE_REFUSED', 'the rows do not fit the table'));
    await expect(first.durable).rejects.toThrow('do not fit');
    // The redelivery does not inherit the failure; its first chunk is a quarter of flushRows (1 row), since nothing
    // is being written, and the rest go in full chunks.
    const again = handleBatch(s.deps, batchOf(['a', 'b', 'c', 'd', 'e'], 0, 'cp1'), ctx, chain);
    await new Promise((r) => setTimeout(r, 5));
    expect(s.events).toEqual(['write a', 'write a']);
    await s.finish('a');
    const { durable } = await again;
    await s.finish('b,c,d,e');
    await durable;
    expect(s.events).toEqual(['write a', 'write a', 'acked a', 'write b,c,d,e', 'acked b,c,d,e', 'checkpoint cp1']);
  });

  it('dead-letters a message its mapping refuses, goes on with the batch, and counts what was stored once durable', async () => {
    const refused = new NonRetryableError('POISON', 'cannot map');
    const dead: string[] = [];
    const written: string[] = [];
    const counts = { messages: 0, items: 0, deadLettered: 0 };
    const counter = (k: keyof typeof counts) => ({ inc: (n: number) => void (counts[k] += n) });
    const reports: Array<{ messages: number; items: number; deadLettered: number; last: string | undefined }> = [];
    const deps: StageDeps = {
      mapper: {
        ...mapper,
        map: async (m) => {
          if (m.value.toString() === 'bad') throw refused;
          return { rows: { t: [{ v: m.value.toString() }, { v: m.value.toString() }] }, count: 3, checkpoint: null };
        },
      },
      write: async (rows) => void written.push(rows.get('t')!.objects.map((r) => (r as { v: string }).v).join(',')),
      deadLetter: async (msg, error) => void dead.push(`${msg.value.toString()}@${msg.offset}:${(error as NonRetryableError).code}`),
      counters: { messages: counter('messages'), items: counter('items'), deadLettered: counter('deadLettered') },
      onBatch: (r) => reports.push({ messages: r.messages, items: r.items, deadLettered: r.deadLettered, last: r.last?.offset }),
    };
    const { durable } = await handleBatch(deps, batchOf(['a', 'bad', 'c'], 10, 'cp'), ctx);
    await durable;
    expect(dead).toEqual(['bad@11:POISON']);
    expect(written).toEqual(['a,a,c,c']);
    expect(counts).toEqual({ messages: 2, items: 6, deadLettered: 1 });
    expect(reports).toEqual([{ messages: 2, items: 6, deadLettered: 1, last: '12' }]);
  });

  it('maps through mapMany a window of depth messages at a time, dead-letters a refused one alone, and retries the batch on a failed window', async () => {
    const calls: string[][] = [];
    let failWith: unknown = null;
    const many: StageMapper = {
      ...mapper,
      depth: 3,
      map: async () => {
        throw new Error('map must not be called when mapMany is there');
      },
      mapMany: async (msgs) => {
        const values = msgs.map((m) => m.value.toString());
        calls.push(values);
        if (failWith !== null) throw failWith;
        return values.map((v): MapOutcome => (v === 'bad' ? { ok: false, error: new NonRetryableError('POISON', 'cannot map') } : { ok: true, mapped: { rows: { t: [{ v }] }, count: 1, checkpoint: null } }));
      },
    };
    const written: string[] = [];
    const dead: string[] = [];
    const deps: StageDeps = {
      mapper: many,
      write: async (rows) => void written.push(rows.get('t')!.objects.map((r) => (r as { v: string }).v).join(',')),
      deadLetter: async (msg) => void dead.push(msg.offset),
    };
    const { durable } = await handleBatch(deps, batchOf(['a', 'b', 'bad', 'd', 'e', 'f', 'g'], 0, 'cp'), ctx);
    await durable;
    expect(calls).toEqual([['a', 'b', 'bad'], ['d', 'e', 'f'], ['g']]);
    expect(dead).toEqual(['2']);
    expect(written.join(',')).toBe('a,b,d,e,f,g');

    // A window whose store read failed (retryable): nothing is written or dead-lettered, the batch is retried.
    calls.length = 0;
    written.length = 0;
    dead.length = 0;
    failWith = new UpstreamUnavailableError('STORE_DOWN', 'the store went away');
    await expect(handleBatch(deps, batchOf(['a', 'b'], 0, 'cp'), ctx)).rejects.toBe(failWith);
    expect({ calls, written, dead }).toEqual({ calls: [['a', 'b']], written: [], dead: [] });
  });
});
