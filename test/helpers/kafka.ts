import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, openSync, closeSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { createKafkaBus, type KafkaBusLogger, type KafkaBusOptions } from '../../shared/bus/kafka.js';
import { repoRoot } from './fixtures.js';
import { describeWith } from './requires.js';
import { patience } from './patience.js';

/**
 * Kafka integration tests run against a real broker whose address is in `KAFKA_BROKERS` (`.ci/run` starts one;
 * locally `source .ci/kafka.sh && kafka_install && kafka_start`). Without it they skip with a message, or fail when
 * `TONFLOW_REQUIRE_KAFKA=1` (CI, where a skipped Kafka suite would pass a broken set-up as green).
 *
 * Besides the adapter under test, this file imports kafkajs itself: assertions about the broker's state (partitions,
 * committed offsets) come from an independent admin client rather than from the code being tested.
 */

/** Brokers from `KAFKA_BROKERS` (comma-separated), or undefined when unset. */
export function kafkaBrokers(): string[] | undefined {
  const raw = process.env.KAFKA_BROKERS?.trim();
  if (!raw) return undefined;
  return raw.split(',').map((b) => b.trim()).filter((b) => b.length > 0);
}

export const MISSING_KAFKA_MESSAGE = 'KAFKA_BROKERS not set (for a local broker: source .ci/kafka.sh && kafka_install && kafka_start)';

/**
 * `describe` for tests that need the broker (test/helpers/requires.ts). The body receives the brokers.
 */
export function describeKafka(name: string, fn: (brokers: string[]) => void): void {
  describeWith(
    name,
    { what: 'a Kafka broker', flag: 'TONFLOW_REQUIRE_KAFKA', missing: MISSING_KAFKA_MESSAGE, suites: 'Kafka integration tests', value: kafkaBrokers() },
    fn,
  );
}

let counter = 0;
/**
 * A topic (or group) name no other test, run or test file uses: the broker outlives a test run locally, and test
 * files run in parallel against one broker.
 */
export function uniqueTopic(prefix = 'test'): string {
  return `tonflow-${prefix}-${process.pid}-${Date.now().toString(36)}-${++counter}-${randomBytes(3).toString('hex')}`;
}

/** A consumer group name as unique as {@link uniqueTopic}. */
export function uniqueGroup(prefix = 'group'): string {
  return uniqueTopic(prefix);
}

/**
 * Consumer timings for tests: the broker's minimum session (6 s, `group.min.session.timeout.ms`), quick heartbeats
 * so that a rebalance is noticed within half a second, and short fetch long-polls so that `stop()` is quick.
 */
export const TEST_CONSUMER_TUNING = {
  sessionTimeoutMs: 6000,
  heartbeatIntervalMs: 500,
  rebalanceTimeoutMs: 6000,
  maxWaitTimeMs: 200,
} as const;

/**
 * A logger that keeps kafkajs's messages (shown with `TONFLOW_TEST_KAFKA_LOG=1`) instead of printing them; with
 * `debug`, also the debug level (kafkajs's joins, rebalances and stops, which the adapter logs there).
 */
export function createTestLogger(opts: { debug?: boolean } = {}): KafkaBusLogger & { lines: string[] } {
  const lines: string[] = [];
  const echo = process.env.TONFLOW_TEST_KAFKA_LOG === '1';
  const at =
    (level: string) =>
    (obj: object, msg: string): void => {
      const line = `${level} ${msg} ${safeJson(obj)}`;
      lines.push(line);
      if (echo) console.log(line);
    };
  return { lines, debug: opts.debug ? at('debug') : () => {}, info: at('info'), warn: at('warn'), error: at('error') };
}

function safeJson(obj: object): string {
  try {
    return JSON.stringify(obj, (_k, v: unknown) => (v instanceof Error ? `${v.name}: ${v.message}` : v));
  } catch {
    return String(obj);
  }
}

/** A Kafka bus for tests: quick consumer timings, quick retries, a quiet logger. */
export function createTestKafkaBus(brokers: string[], overrides: Partial<KafkaBusOptions> = {}) {
  return createKafkaBus({
    brokers,
    clientId: 'tonflow-test',
    logger: createTestLogger(),
    consumer: TEST_CONSUMER_TUNING,
    retry: { initialMs: 100, maxMs: 1000 },
    ...overrides,
  });
}

/** An independent kafkajs admin view of the broker, for assertions. */
export async function withAdmin<T>(brokers: string[], fn: (admin: ReturnType<Kafka['admin']>) => Promise<T>): Promise<T> {
  const admin = new Kafka({ brokers, clientId: 'tonflow-test-admin', logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect();
  }
}

/** The group's committed offsets of `topic` by partition (partitions without a commit are left out). */
export async function committedOffsets(brokers: string[], groupId: string, topic: string): Promise<Map<number, string>> {
  return withAdmin(brokers, async (admin) => {
    const res = await admin.fetchOffsets({ groupId, topics: [topic] });
    const out = new Map<number, string>();
    for (const p of res[0]?.partitions ?? []) if (p.offset !== '-1') out.set(p.partition, p.offset);
    return out;
  });
}

/** A broker of a test's own (see {@link startPrivateBroker}). */
export interface PrivateBroker {
  brokers: string[];
  /** Stops the broker (SIGTERM, as in a rolling restart) and starts it again on the same ports and data. */
  restart(opts?: { downMs?: number }): Promise<void>;
  /** Stops the broker and deletes its directory. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts a single-node broker that only this test uses, through `.ci/kafka.sh` (`kafka_start` picks free ports, so
 * it does not collide with the shared broker). The jars come from `KAFKA_CLASSPATH` when `.ci/run` (or a developer's
 * `kafka_install`) exported it, else from a `kafka_install` into the broker's temporary directory.
 *
 * A restart relaunches the exact command line `kafka_start` used (read from /proc, so Linux only) without
 * reformatting the log dir: topics and committed offsets survive, as on a real broker restart.
 */
export async function startPrivateBroker(): Promise<PrivateBroker> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tonflow-kafka-private-'));
  const env: NodeJS.ProcessEnv = { ...process.env, KAFKA_DIR: dir };
  // Inherited from .ci/run, these describe the shared broker: kafka_start would find it "already running" or reuse
  // its ports.
  for (const k of ['KAFKA_PID', 'KAFKA_PORT', 'KAFKA_CONTROLLER_PORT', 'KAFKA_BROKERS', '_KAFKA_DIR_IS_TEMP']) delete env[k];
  const cp = process.env.KAFKA_CLASSPATH;
  if (!cp || !existsSync(path.dirname(cp))) delete env.KAFKA_CLASSPATH;

  let current: ChildProcess | undefined;
  let pid = 0;
  try {
    const script = [
      'source .ci/kafka.sh',
      '[[ -n "${KAFKA_CLASSPATH:-}" ]] || kafka_install >&2 || exit 1',
      'kafka_start >&2 || exit 1',
      'echo "READY $KAFKA_BROKERS $KAFKA_PID"',
      // bash stays the broker's parent, so that the broker's exit is bash's exit here.
      'wait "$KAFKA_PID"',
    ].join('\n');
    current = spawn('bash', ['-c', script], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const ready = await readyLine(current);
    const [, address, javaPid] = ready.split(' ');
    pid = Number(javaPid);
    const brokers = [address!];
    const port = Number(address!.split(':')[1]);

    const stopBroker = async (): Promise<void> => {
      const proc = current;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((r) => proc.once('exit', () => r()));
      process.kill(pid, 'SIGTERM');
      const timer = setTimeout(() => {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, patience(20_000));
      await exited;
      clearTimeout(timer);
    };

    return {
      brokers,
      async restart({ downMs = 0 } = {}) {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a.length > 0);
        await stopBroker();
        if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
        const log = openSync(path.join(dir, 'broker.log'), 'a');
        try {
          current = spawn(argv[0]!, argv.slice(1), { cwd: repoRoot, stdio: ['ignore', log, log] });
        } finally {
          closeSync(log);
        }
        pid = current.pid!;
        await waitForPort(port, 90_000, current, dir);
      },
      async stop() {
        await stopBroker();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    if (pid) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    current?.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}

/** The `READY <brokers> <pid>` line of the start script, or its stderr when it fails. */
function readyLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('READY '));
      if (line) resolve(line.trim());
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => reject(new Error(`private broker did not start (exit ${code}):\n${err.slice(-4000)}`)));
  });
}

/** Resolves once something accepts on 127.0.0.1:`port` (kafka.sh's own readiness test). */
async function waitForPort(port: number, timeoutMs: number, proc: ChildProcess, dir: string): Promise<void> {
  const deadline = Date.now() + patience(timeoutMs);
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const s = connect({ host: '127.0.0.1', port });
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (open) return;
    if (proc.exitCode !== null || Date.now() > deadline) {
      const log = readFileSync(path.join(dir, 'broker.log'), 'utf8').slice(-4000);
      throw new Error(`restarted broker not serving on ${port} (exit ${proc.exitCode}); log tail:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
