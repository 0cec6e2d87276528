import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gatewayConfigSchema, loadConfig } from '../../shared/runtime/config.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import type { Store } from '../../shared/store/store.js';
import { repoRoot } from '../../test/helpers/fixtures.js';
import { silentLogger } from '../../test/helpers/gateway.js';
import { buildApp } from './app.js';
import { appConfig } from './main.js';

/*
 * Hardening 4: whom the gateway believes about a client's address, and where its listeners bind.
 */

/** Requests here never reach the store (an address book of unparsable strings): a store that fails every call proves it. */
const failingStore: Store = {
  database: 'none',
  pointReadSettings: 'max_threads = 1',
  command: () => Promise.reject(new Error('no store in this test')),
  insert: () => Promise.reject(new Error('no store in this test')),
  insertEncoded: () => Promise.reject(new Error('no store in this test')),
  columnTypes: () => Promise.reject(new Error('no store in this test')),
  query: () => Promise.reject(new Error('no store in this test')),
  queryFields: () => Promise.reject(new Error('no store in this test')),
  close: () => Promise.resolve(),
};

const URL_ = '/api/v3/addressBook?address=nothing';

async function gatewayWith(env: Record<string, string>) {
  const config = loadConfig(gatewayConfigSchema, { env: { TONFLOW_API_RPS_WITHOUT_KEY: '1', ...env } });
  return buildApp({
    store: failingStore,
    logger: silentLogger(),
    metrics: createMetrics({ service: 'gateway', processMetrics: false }),
    config: { ...appConfig(config, []), responseCacheEntries: 0 },
  });
}

describe('TONFLOW_TRUST_PROXY: a rotating X-Forwarded-For does not buy a fresh keyless budget', () => {
  for (const value of ['true', '1', '10.0.0.0/8']) {
    it(`TONFLOW_TRUST_PROXY=${value}`, async () => {
      const app = await gatewayWith({ TONFLOW_TRUST_PROXY: value });
      try {
        // One client behind the load balancer 10.0.0.1, which appends the address it saw (203.0.113.7) to whatever
        // the client wrote into the header.
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) {
          const r = await app.inject({ method: 'GET', url: URL_, remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` } });
          statuses.push(r.statusCode);
        }
        expect(statuses).toEqual([200, 429, 429, 429]);
        // Another real client behind the same balancer has its own budget.
        const other = await app.inject({ method: 'GET', url: URL_, remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': '203.0.113.8' } });
        expect(other.statusCode).toBe(200);
      } finally {
        await app.close();
      }
    });
  }

  it('with proxy addresses, a client reaching the gateway directly is its peer address, whatever it writes', async () => {
    const app = await gatewayWith({ TONFLOW_TRUST_PROXY: '10.0.0.1' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await app.inject({ method: 'GET', url: URL_, remoteAddress: '192.0.2.50', headers: { 'x-forwarded-for': `198.51.100.${i}` } });
        statuses.push(r.statusCode);
      }
      expect(statuses).toEqual([200, 429, 429]);
    } finally {
      await app.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------

const CLI = path.join(repoRoot, 'dist', 'services', 'tonflow.js');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** This machine's first non-loopback IPv4 address, if it has one. */
function externalAddress(): string | undefined {
  for (const list of Object.values(os.networkInterfaces())) for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return undefined;
}

function httpStatus(host: string, port: number, p: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get({ host, port, path: p, timeout: 10_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.on('timeout', () => req.destroy(new Error('timeout')));
  });
}

describe.skipIf(!existsSync(CLI))('the ops listener honours --host (tonflow gateway, a real process)', () => {
  let child: ChildProcess | undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-listeners-'));
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('--host 127.0.0.1: /health answers on loopback only', async () => {
    const [port, opsPort] = [await freePort(), await freePort()];
    child = spawn(process.execPath, [CLI, 'gateway', '--host', '127.0.0.1', '--port', String(port), '--ops-port', String(opsPort), '--data', dir], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', TONFLOW_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: Record<string, unknown>[] = [];
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    await new Promise<void>((resolve, reject) => {
      let buf = '';
      child!.stdout!.on('data', (d: Buffer) => {
        buf += d.toString('utf8');
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          try {
            const entry = JSON.parse(line) as Record<string, unknown>;
            lines.push(entry);
            if (entry.msg === 'gateway listening') resolve();
          } catch {
            // not a log line
          }
        }
      });
      child!.once('exit', (code) => reject(new Error(`gateway exited with ${code}: ${stderr}`)));
    });
    expect(lines.find((l) => l.msg === 'ops server listening')).toMatchObject({ host: '127.0.0.1', port: opsPort });
    expect(await httpStatus('127.0.0.1', opsPort, '/health')).toBe(200);
    const external = externalAddress();
    if (external !== undefined) expect(await httpStatus(external, opsPort, '/health')).toBe('ECONNREFUSED');
  }, 120_000);
});
