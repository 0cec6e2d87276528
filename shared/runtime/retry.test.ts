import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NonRetryableError, ShutdownError, UpstreamUnavailableError } from './errors.js';
import { createLogger } from './logger.js';
import { retry, sleep } from './retry.js';

const flaky = () => new UpstreamUnavailableError('CLICKHOUSE_UNAVAILABLE', 'connection refused');

describe('retry', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('backs off exponentially up to maxMs (random pinned to the top of the range)', async () => {
    const calls: number[] = [];
    const fn = vi.fn(async (attempt: number) => {
      calls.push(Date.now());
      if (attempt < 6) throw flaky();
      return 'ok';
    });
    const result = retry(fn, { what: 'insert', baseMs: 100, maxMs: 1000, random: () => 1 });
    await vi.runAllTimersAsync();
    expect(await result).toBe('ok');
    const waits = calls.slice(1).map((t, i) => t - calls[i]!);
    expect(waits).toEqual([100, 200, 400, 800, 1000]);
    expect(fn.mock.calls.map(([attempt]) => attempt)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('uses full jitter: the delay is random within [0, cap]', async () => {
    const calls: number[] = [];
    const draws = [0.5, 0, 0.25];
    const result = retry(
      async (attempt) => {
        calls.push(Date.now());
        if (attempt < 4) throw flaky();
      },
      { what: 'connect', baseMs: 100, random: () => draws.shift()! },
    );
    await vi.runAllTimersAsync();
    await result;
    expect(calls.slice(1).map((t, i) => t - calls[i]!)).toEqual([50, 0, 100]);
  });

  it('rethrows a non-retryable error at once', async () => {
    const bad = new NonRetryableError('BAD_QUERY', 'syntax error');
    const fn = vi.fn(async () => {
      throw bad;
    });
    await expect(retry(fn, { what: 'query' })).rejects.toBe(bad);
    expect(fn).toHaveBeenCalledTimes(1);
    // Errors without a retryable flag are not retried either: only adapters decide what is transient.
    await expect(retry(async () => Promise.reject(new Error('plain')), { what: 'query' })).rejects.toThrow('plain');
  });

  it('gives up after maxAttempts with the last error', async () => {
    let n = 0;
    const result = retry(
      async () => {
        throw new UpstreamUnavailableError('KAFKA_UNAVAILABLE', `failure ${++n}`);
      },
      { what: 'publish', maxAttempts: 3, baseMs: 10 },
    ).catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await result).toMatchObject({ message: 'failure 3' });
    expect(n).toBe(3);
  });

  it('stops waiting the moment the signal aborts, with the abort reason', async () => {
    const controller = new AbortController();
    const fn = vi.fn(async () => {
      throw flaky();
    });
    const result = retry(fn, { what: 'insert', signal: controller.signal, baseMs: 60_000, random: () => 1 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    const reason = new ShutdownError('SIGTERM');
    controller.abort(reason);
    expect(await result).toBe(reason);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not call fn when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort('stop');
    const fn = vi.fn(async () => 1);
    const err = await retry(fn, { what: 'x', signal: controller.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ShutdownError);
    expect(fn).not.toHaveBeenCalled();
  });

  it('logs each retry with a constant msg and the error under err', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({ service: 'test', level: 'warn', destination: { write: (s: string) => void lines.push(JSON.parse(s)) } });
    const result = retry(async (attempt) => (attempt < 2 ? Promise.reject(flaky()) : 'ok'), { what: 'insert', logger, random: () => 1 });
    await vi.runAllTimersAsync();
    await result;
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'retrying after failure', what: 'insert', attempt: 1, delayMs: 100, err: expect.objectContaining({ code: 'CLICKHOUSE_UNAVAILABLE' }) }),
    ]);
  });
});

describe('sleep', () => {
  it('waits for real and removes its abort listener', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const waiting = sleep(20, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    await waiting;
    expect(performance.now() - started).toBeGreaterThanOrEqual(19);
    // A long-lived shutdown signal must not collect one listener per wait.
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
