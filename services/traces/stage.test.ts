import { describe, expect, it, vi } from 'vitest';
import { NonRetryableError, RetryableError } from '../../shared/runtime/errors.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { createGatedCheckpoints, createProgressGate } from './stage.js';

describe('trace progress gate (embedded mode: the follower checkpoint waits for the traces)', () => {
  it('lets a wait through once its masterchain block is done, at once when it already is', async () => {
    const gate = createProgressGate(10);
    const order: string[] = [];
    await gate.wait(9).then(() => order.push('9'));
    await gate.wait(10).then(() => order.push('10'));
    const w12 = gate.wait(12).then(() => order.push('12'));
    const w11 = gate.wait(11).then(() => order.push('11'));
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual(['9', '10']);
    gate.reached(11);
    await w11;
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual(['9', '10', '11']);
    // A later block done counts for every earlier one (a masterchain block without a message of its own).
    gate.reached(14);
    await w12;
    expect(order).toEqual(['9', '10', '11', '12']);
  });

  it('lets every wait through when closed or when its signal aborts', async () => {
    const gate = createProgressGate(null);
    const ac = new AbortController();
    const aborted = gate.wait(5, ac.signal);
    ac.abort();
    await aborted;
    const closed = gate.wait(7);
    gate.close();
    await closed;
    await gate.wait(100);
  });
});

describe('follower checkpoints held back until the trace stage is done with their block (embedded mode)', () => {
  const logger = createLogger({ service: 'stage-test', level: 'silent' });
  const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

  it('returns at once, saves in order once each block is done, the newest due at a time', async () => {
    const gate = createProgressGate(10);
    const saved: string[] = [];
    const cps = createGatedCheckpoints({ gate, save: async (c) => void saved.push(c), logger, signal: new AbortController().signal });
    cps.save('a', 10);
    await settle();
    expect(saved).toEqual(['a']);
    cps.save('b', 11);
    cps.save('c', 12);
    cps.save('d', null);
    cps.save('e', 13);
    await settle();
    expect(saved).toEqual(['a']);
    gate.reached(11);
    await settle();
    expect(saved).toEqual(['a', 'b']);
    // 'd' has no block of its own: it follows 'c', and is the newest due once 12 is done.
    gate.reached(12);
    await settle();
    expect(saved).toEqual(['a', 'b', 'd']);
    gate.reached(13);
    await cps.close();
    expect(saved).toEqual(['a', 'b', 'd', 'e']);
  });

  it('drops on close what its block never reached: a restart replays from the last one saved', async () => {
    const gate = createProgressGate(null);
    const saved: string[] = [];
    const cps = createGatedCheckpoints({ gate, save: async (c) => void saved.push(c), logger, signal: new AbortController().signal });
    cps.save('a', 1);
    cps.save('b', 2);
    gate.reached(1);
    await settle();
    gate.close();
    await cps.close();
    cps.save('c', 3);
    await settle();
    expect(saved).toEqual(['a']);
  });

  it('retries a save the store failed for now, and goes on after one it refuses', async () => {
    const gate = createProgressGate(5);
    const saved: string[] = [];
    let failures = 1;
    const cps = createGatedCheckpoints({
      gate,
      save: async (c) => {
        if (c === 'bad') throw new NonRetryableError('TEST_REFUSED', 'refused');
        if (failures-- > 0) throw new RetryableError('TEST_DOWN', 'store down');
        saved.push(c);
      },
      logger,
      signal: new AbortController().signal,
    });
    cps.save('a', 1);
    await vi.waitFor(() => expect(saved).toEqual(['a']));
    cps.save('bad', 2);
    await settle();
    cps.save('b', 3);
    await cps.close();
    expect(saved).toEqual(['a', 'b']);
  });
});
