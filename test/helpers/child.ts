import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { expect } from 'vitest';
import { repoRoot } from './fixtures.js';
import { patience } from './patience.js';

/**
 * The crash tests' child processes (the built CLI, killed and started again): a free port for their ops server,
 * their metrics, and their exits.
 */

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** The value of a metric on the child's /metrics (0 when absent), or null while the ops server is not up. */
export async function metric(port: number, name: string): Promise<number | null> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2000) })).text();
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
    return m ? Number(m[1]) : 0;
  } catch {
    return null;
  }
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/**
 * `node args` in the repository, its stderr appended to `stderr` (for the failure messages). The child's shutdown
 * grace period defaults to the patience for the product's 15 s (unless `env` sets one): the tests expect a clean stop
 * after SIGTERM, and on a busy machine draining the last batches takes longer than on a quiet one.
 */
export function spawnNode(args: string[], env: NodeJS.ProcessEnv, stderr: string[]): ChildProcess {
  const withGrace = { TONFLOW_SHUTDOWN_GRACE_MS: String(patience(15_000)), ...env };
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: withGrace, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  return child;
}

/**
 * Polls `done` every 250 ms until it holds, then stops the child with SIGTERM and expects a clean exit. Fails with
 * the child's stderr when it exits first or `ms` pass.
 */
export async function untilThenStop(child: ChildProcess, done: () => Promise<boolean>, ms: number, what: string, stderr: string[]): Promise<void> {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (child.exitCode !== null) throw new Error(`${what}: the child exited (${child.exitCode}):\n${stderr.join('')}`);
    if (Date.now() > until) throw new Error(`${what}: not within ${ms / 1000} s:\n${stderr.join('')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGTERM');
  // The child's log says which closer timed out or failed when the exit is not clean.
  expect(await exited(child), `${what}: the stop after SIGTERM:\n${stderr.join('').slice(-20_000)}`).toEqual({ code: 0, signal: null });
}

/** Kills the child with SIGKILL if it still runs, and waits for its exit (a test's `finally`). */
export async function reap(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await exited(child);
}
