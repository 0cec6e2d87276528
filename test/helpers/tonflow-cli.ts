import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { repoRoot } from './fixtures.js';
import { withAdmin } from './kafka.js';

/**
 * Running the built `tonflow` CLI (dist/) as child processes, as an operator runs the distributed services: spawn a
 * command with its own ops port, read its metrics, wait for its exit, and ask the broker whether a stage's consumer
 * group has caught up with its topic.
 */

/** The built CLI. */
export const CLI = path.join(repoRoot, 'dist', 'services', 'tonflow.js');

/** Builds dist/ when the CLI is not there (a fresh checkout); a test that needs the CLI calls this first. */
export function ensureBuilt(): void {
  if (existsSync(CLI)) return;
  const r = spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: repoRoot, encoding: 'utf8', timeout: 110_000 });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
}

/** A loopback port nothing listens on (for a child's --ops-port or --port). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** A child running the CLI, with what it wrote to stderr so far (for failure messages). */
export interface TonflowChild {
  child: ChildProcess;
  stderr: string[];
}

/** Spawns `tonflow <args>` (stdout ignored, stderr kept). */
export function spawnTonflow(args: readonly string[], env: NodeJS.ProcessEnv): TonflowChild {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const stderr: string[] = [];
  child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  return { child, stderr };
}

/** The value of the metric `name` on a child's ops port: 0 when not exported yet, null when the port does not answer. */
export async function metric(port: number, name: string): Promise<number | null> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2000) })).text();
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
    return m ? Number(m[1]) : 0;
  } catch {
    return null;
  }
}

/** Resolves with the child's exit code and signal (at once if it has exited). */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Whether consumer group `groupId` has committed every partition of `topic` up to its end (the broker's own view). */
export async function caughtUp(brokers: string[], groupId: string, topic: string): Promise<boolean> {
  return withAdmin(brokers, async (admin) => {
    const ends = await admin.fetchTopicOffsets(topic);
    const [res] = await admin.fetchOffsets({ groupId, topics: [topic] });
    const committed = new Map((res?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
    return ends.every((p) => Math.max(0, committed.get(p.partition) ?? 0) >= Number(p.high));
  });
}
