import { describe, expect, it } from 'vitest';
import { StallWatch, defaultStallMs, hasBacklog, type PartitionOffsets } from './stall.js';

describe('StallWatch', () => {
  it('reports a stall once the fetch loop showed no life for the timeout, and not before', () => {
    const w = new StallWatch(10_000, 1_000);
    expect(w.stalledFor(10_999)).toBeUndefined();
    expect(w.stalledFor(11_000)).toBe(10_000);
    w.alive(12_000);
    expect(w.stalledFor(21_999)).toBeUndefined();
    expect(w.stalledFor(25_000)).toBe(13_000);
  });

  it('never calls time inside the handler a stall, and counts from when the last batch left it', () => {
    const w = new StallWatch(10_000, 0);
    w.enter(1_000);
    w.enter(2_000);
    expect(w.stalledFor(500_000)).toBeUndefined();
    w.leave(600_000);
    // One batch is still in the handler.
    expect(w.stalledFor(700_000)).toBeUndefined();
    w.leave(800_000);
    expect(w.stalledFor(809_999)).toBeUndefined();
    expect(w.stalledFor(810_000)).toBe(10_000);
  });

  it('refuses a timeout that is not positive', () => {
    expect(() => new StallWatch(0, 0)).toThrow(RangeError);
    expect(() => new StallWatch(Number.NaN, 0)).toThrow(RangeError);
  });

  it('defaults above a join plus a fetch that times out', () => {
    const t = { requestTimeoutMs: 60_000, maxWaitTimeMs: 1_000, sessionTimeoutMs: 30_000, rebalanceTimeoutMs: 60_000 };
    expect(defaultStallMs(t)).toBeGreaterThan(t.rebalanceTimeoutMs + t.requestTimeoutMs + t.maxWaitTimeMs);
  });
});

describe('hasBacklog', () => {
  const at = (topic: string, partition: number, low: number, high: number, committed: number): PartitionOffsets => ({
    topic,
    partition,
    low: BigInt(low),
    high: BigInt(high),
    committed: BigInt(committed),
  });

  it('finds uncommitted messages on an assigned partition only', () => {
    const offsets = [at('raw', 0, 0, 10, 10), at('raw', 1, 0, 10, 4), at('other', 0, 0, 5, 0)];
    expect(hasBacklog({ raw: [0, 1] }, offsets)).toBe(true);
    expect(hasBacklog({ raw: [0] }, offsets)).toBe(false);
    // Partition 1 lags, but another member owns it.
    expect(hasBacklog({ raw: [0], other: [] }, offsets)).toBe(false);
    expect(hasBacklog({ other: [0] }, offsets)).toBe(true);
  });

  it('reads a partition without a committed offset from its low offset', () => {
    expect(hasBacklog({ raw: [0] }, [at('raw', 0, 7, 7, -1)])).toBe(false);
    expect(hasBacklog({ raw: [0] }, [at('raw', 0, 7, 8, -1)])).toBe(true);
  });

  it('calls a member that never finished joining stalled', () => {
    expect(hasBacklog(undefined, [])).toBe(true);
  });
});
