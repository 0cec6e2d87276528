import { type ChildProcess, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './fixtures.js';
import { spawnNode } from './child.js';
import { patience } from './patience.js';
import { withAdmin } from './kafka.js';

// The child-process basics are test/helpers/child.ts's; re-exported so a CLI test imports one module.
export { exited, freePort, metric } from './child.js';

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
  const r = spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: repoRoot, encoding: 'utf8', timeout: patience(110_000) });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
}

/** A child running the CLI, with what it wrote to stderr so far (for failure messages). */
export interface TonflowChild {
  child: ChildProcess;
  stderr: string[];
}

/** Spawns `tonflow <args>` (stdout ignored, stderr kept). */
export function spawnTonflow(args: readonly string[], env: NodeJS.ProcessEnv): TonflowChild {
  const stderr: string[] = [];
  return { child: spawnNode([CLI, ...args], env, stderr), stderr };
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
