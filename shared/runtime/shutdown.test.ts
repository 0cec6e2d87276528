import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { NonRetryableError, RetryableError, ShutdownError, UpstreamUnavailableError } from './errors.js';
import { createLogger } from './logger.js';
import { closerBudget, createShutdown, EXIT_FAILURE, EXIT_OK, EXIT_TEMPFAIL, exitCodeFor, installProcessHandlers } from './shutdown.js';

const logger = createLogger({ service: 'test', level: 'silent' });
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('createShutdown', () => {
  it('aborts the signal, then runs closers in reverse registration order, each after the previous finished', async () => {
    const shutdown = createShutdown({ logger, graceMs: 5000 });
    const log: string[] = [];
    const closer = (name: string, ms: number) => async () => {
      log.push(`${name} start (signal aborted: ${shutdown.signal.aborted})`);
      await delay(ms);
      log.push(`${name} end`);
    };
    shutdown.add('clients', closer('clients', 1));
    shutdown.add('commit', closer('commit', 5));
    shutdown.add('drain', closer('drain', 10));
    shutdown.add('intake', closer('intake', 1));

    await shutdown.run('SIGTERM');
    expect(log).toEqual([
      'intake start (signal aborted: true)',
      'intake end',
      'drain start (signal aborted: true)',
      'drain end',
      'commit start (signal aborted: true)',
      'commit end',
      'clients start (signal aborted: true)',
      'clients end',
    ]);
    expect(shutdown.signal.reason).toBeInstanceOf(ShutdownError);
    expect(await shutdown.done).toBe(EXIT_OK);
  });

  it('budgets: every closer hung in turn still leaves each later one time, and all of them end within the grace period', () => {
    for (const n of [1, 2, 5, 12]) {
      let left = 10_000;
      const budgets: number[] = [];
      for (let after = n - 1; after >= 0; after--) {
        const b = closerBudget(left, after);
        budgets.push(b);
        left -= b;
      }
      expect(budgets.reduce((a, b) => a + b, 0)).toBeCloseTo(10_000, 6);
      // The first closer (a drain) gets at least half; none gets nothing.
      expect(budgets[0]).toBeGreaterThanOrEqual(5_000);
      for (const b of budgets) expect(b).toBeGreaterThan(0);
    }
  });

  it('gives a closer what is left but a reserve for the closers after it, and moves on from one that hangs', async () => {
    // A grace period long enough that a late timer on a busy machine cannot carry the run past it: what is checked is
    // the share the hung closer got (about half), not how punctual the event loop is.
    const graceMs = 2_000;
    const shutdown = createShutdown({ logger, graceMs });
    const closed: string[] = [];
    shutdown.add('clients', async () => void closed.push('clients'));
    shutdown.add('hung drain', () => new Promise<void>(() => {}));
    shutdown.add('intake', async () => void closed.push('intake'));

    const started = performance.now();
    await shutdown.run('SIGTERM');
    const elapsed = performance.now() - started;
    // intake is instant, so the hung drain gets the grace period but the reserve of the one closer after it (a
    // quarter), and clients still close in time.
    expect(elapsed).toBeGreaterThanOrEqual(graceMs * 0.7);
    expect(elapsed).toBeLessThan(graceMs);
    expect(closed).toEqual(['intake', 'clients']);
    // A timed-out closer is a (retryable) failure: the drain may not have finished.
    expect(await shutdown.done).toBe(EXIT_TEMPFAIL);
  });

  it('keeps going after a closer that throws, and exits with 1', async () => {
    const shutdown = createShutdown({ logger, graceMs: 1000 });
    const closed: string[] = [];
    shutdown.add('first', async () => void closed.push('first'));
    shutdown.add('broken', () => {
      throw new Error('sync throw');
    });
    await shutdown.run('SIGINT');
    expect(closed).toEqual(['first']);
    expect(await shutdown.done).toBe(EXIT_FAILURE);
  });

  it('is idempotent, and the first failure decides the exit code', async () => {
    const shutdown = createShutdown({ logger, graceMs: 1000 });
    let calls = 0;
    shutdown.add('once', async () => {
      calls += 1;
      await delay(5);
    });
    const first = shutdown.run('SIGTERM');
    const second = shutdown.run(new UpstreamUnavailableError('CLICKHOUSE_UNAVAILABLE', 'gone'));
    expect(second).toBe(first);
    await first;
    expect(calls).toBe(1);
    expect(await shutdown.done).toBe(EXIT_TEMPFAIL);
  });

  it('maps the reason to the exit code', async () => {
    for (const [reason, code] of [
      ['done', EXIT_OK],
      [new NonRetryableError('BAD', 'bad'), EXIT_FAILURE],
      [new RetryableError('FLAKY', 'flaky'), EXIT_TEMPFAIL],
      [new Error('unknown'), EXIT_FAILURE],
    ] as const) {
      const shutdown = createShutdown({ logger, graceMs: 100 });
      await shutdown.run(reason);
      expect(await shutdown.done).toBe(code);
    }
    expect(exitCodeFor(new ShutdownError('SIGTERM'))).toBe(EXIT_OK);
  });

  it('closes a resource registered while closing, and one registered afterwards', async () => {
    const shutdown = createShutdown({ logger, graceMs: 1000 });
    const closed: string[] = [];
    shutdown.add('old', async () => void closed.push('old'));
    shutdown.add('intake', async () => {
      closed.push('intake');
      shutdown.add('late', async () => void closed.push('late'));
    });
    await shutdown.run('SIGTERM');
    expect(closed).toEqual(['intake', 'late', 'old']);
    shutdown.add('after', async () => void closed.push('after'));
    await delay(1);
    expect(closed).toEqual(['intake', 'late', 'old', 'after']);
  });
});

describe('installProcessHandlers', () => {
  const setup = (graceMs = 1000) => {
    const proc = new EventEmitter();
    const exits: number[] = [];
    const shutdown = createShutdown({ logger, graceMs });
    const uninstall = installProcessHandlers({ shutdown, logger, process: proc, exit: (code) => void exits.push(code) });
    return { proc, exits, shutdown, uninstall };
  };

  it('turns SIGTERM into a clean shutdown and exits 0 after the closers', async () => {
    const { proc, exits, shutdown, uninstall } = setup();
    let closed = false;
    shutdown.add('store', async () => {
      await delay(5);
      closed = true;
    });
    proc.emit('SIGTERM', 'SIGTERM');
    expect(shutdown.signal.aborted).toBe(true);
    await shutdown.done;
    await delay(0);
    expect(closed).toBe(true);
    expect(exits).toEqual([0]);
    uninstall();
    expect(proc.listenerCount('SIGTERM')).toBe(0);
  });

  it('exits 75 after an unhandled rejection with a retryable error, 1 with anything else', async () => {
    const retryable = setup();
    retryable.proc.emit('unhandledRejection', new UpstreamUnavailableError('KAFKA_UNAVAILABLE', 'broker gone'));
    await retryable.shutdown.done;
    await delay(0);
    expect(retryable.exits).toEqual([75]);
    retryable.uninstall();

    const other = setup();
    other.proc.emit('unhandledRejection', 'a string');
    await other.shutdown.done;
    await delay(0);
    expect(other.exits).toEqual([1]);
    other.uninstall();

    const thrown = setup();
    thrown.proc.emit('uncaughtException', new TypeError('x is undefined'));
    await thrown.shutdown.done;
    await delay(0);
    expect(thrown.exits).toEqual([1]);
    thrown.uninstall();
  });

  it('exits at once with 1 on a second signal', async () => {
    const { proc, exits, shutdown, uninstall } = setup();
    shutdown.add('slow', () => delay(50));
    proc.emit('SIGINT', 'SIGINT');
    proc.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([1]);
    uninstall();
    await shutdown.done;
  });
});
