import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from './fixtures.js';
import { describeWith } from './requires.js';
import { patience } from './patience.js';

/**
 * Server-mode tests run against a real ClickHouse server whose HTTP URL is in `TONFLOW_TEST_CLICKHOUSE_URL`
 * (`.ci/run` starts one with `.ci/clickhouse.sh`; locally `source .ci/clickhouse.sh && clickhouse_install &&
 * clickhouse_start`). Without it they skip with a message, or fail when `TONFLOW_REQUIRE_CLICKHOUSE=1` (CI, where
 * a skipped server suite would pass a broken `--clickhouse URL` path as green).
 */

export function clickhouseUrl(): string | undefined {
  const raw = process.env.TONFLOW_TEST_CLICKHOUSE_URL?.trim();
  return raw ? raw : undefined;
}

export const MISSING_CLICKHOUSE_MESSAGE =
  'TONFLOW_TEST_CLICKHOUSE_URL not set (for a local server: source .ci/clickhouse.sh && clickhouse_install && clickhouse_start)';

/** `describe` for tests that need the server (test/helpers/requires.ts). The body receives its URL. */
export function describeClickHouse(name: string, fn: (url: string) => void): void {
  describeWith(
    name,
    {
      what: 'a ClickHouse server',
      flag: 'TONFLOW_REQUIRE_CLICKHOUSE',
      missing: MISSING_CLICKHOUSE_MESSAGE,
      suites: 'ClickHouse server tests',
      value: clickhouseUrl(),
    },
    fn,
  );
}

/** A ClickHouse server of a test's own (see {@link startPrivateClickHouse}). */
export interface PrivateClickHouse {
  url: string;
  /** Kills the server (SIGKILL: a crash, not a shutdown). */
  kill(): Promise<void>;
  /** Starts it again on the same port and data directory. */
  start(): Promise<void>;
  /** Kills it and deletes its directory. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts a server that only this test uses, from the chdb-core virtualenv that `clickhouse_install` made and
 * exported as `CLICKHOUSE_VENV` (`.ci/run` does), on a free loopback port; `kill` and `start` give a test a real
 * outage of the store. Throws when `CLICKHOUSE_VENV` is unset.
 */
export async function startPrivateClickHouse(): Promise<PrivateClickHouse> {
  const venv = process.env.CLICKHOUSE_VENV;
  if (!venv || !existsSync(path.join(venv, 'bin', 'python'))) {
    throw new Error('CLICKHOUSE_VENV not set or not a virtualenv (source .ci/clickhouse.sh && clickhouse_install exports it)');
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'tonflow-clickhouse-private-'));
  const [http, tcp] = await Promise.all([freePort(), freePort()]);
  writeFileSync(
    path.join(dir, 'config.xml'),
    `<clickhouse><listen_host>127.0.0.1</listen_host><http_port>${http}</http_port><tcp_port>${tcp}</tcp_port></clickhouse>\n`,
  );
  const url = `http://127.0.0.1:${http}`;
  let proc: ChildProcess | undefined;
  const log: string[] = [];

  const start = async (): Promise<void> => {
    proc = spawn(path.join(venv, 'bin', 'python'), [path.join(repoRoot, '.ci', 'clickhouse-server.py'), path.join(dir, 'data')], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    proc.stderr?.on('data', (d: Buffer) => log.push(d.toString('utf8')));
    const deadline = Date.now() + patience(60_000);
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`private ClickHouse exited during startup: ${log.join('').slice(-2000)}`);
      try {
        const res = await fetch(`${url}/?query=SELECT%201`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`private ClickHouse did not answer on ${url} within ${patience(60)} s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const kill = async (): Promise<void> => {
    const p = proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise<void>((r) => p.once('exit', () => r()));
    p.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url,
    kill,
    start,
    async stop() {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}
