import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cell } from '@ton/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeFixtures, fixturePath, readFixture, repoRoot } from './helpers/fixtures.js';
import { patience } from './helpers/patience.js';

/*
 * `tonflow decode-block FILE` end to end, as a child process: stdout carries exactly one JSON document on success;
 * bad input exits 2 with a single `error:` line on stderr that names the problem (and the byte offset or TL-B type),
 * never a stack trace. Expected values are MANIFEST.md literals.
 */

const CLI = path.join(repoRoot, 'dist', 'services', 'tonflow.js');
const TIMEOUT_MS = patience(30_000);

let tmp = '';

beforeAll(() => {
  // The production build, and the benchmarks' own (`npm run build:bench`: they are not part of the former).
  for (const [entry, project] of [
    [CLI, 'tsconfig.json'],
    [path.join(repoRoot, 'dist', 'bench', 'cli.js'), 'bench/tsconfig.json'],
  ] as const) {
    if (existsSync(entry)) continue;
    const r = spawnSync('npx', ['tsc', '-p', project], { cwd: repoRoot, encoding: 'utf8', timeout: patience(110_000) });
    if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
  }
  tmp = mkdtempSync(path.join(os.tmpdir(), 'tonflow-cli-'));
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(...args: string[]): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: repoRoot, encoding: 'utf8', timeout: TIMEOUT_MS, maxBuffer: 256 * 1024 * 1024 });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

function writeTmp(name: string, bytes: Uint8Array | string): string {
  const file = path.join(tmp, name);
  writeFileSync(file, bytes);
  return file;
}

/** Asserts exit code 2 and exactly one `error:` line on stderr matching every pattern, without a stack trace. */
function expectInputError(r: Run, ...patterns: RegExp[]): string {
  expect(r.signal, 'the CLI must finish within the timeout').toBeNull();
  expect(r.status).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines, r.stderr).toHaveLength(1);
  const line = lines[0]!;
  expect(line.startsWith('error:')).toBe(true);
  expect(line).not.toMatch(/\bat .*\(.*:\d+:\d+\)|\n\s+at /);
  for (const p of patterns) expect(line).toMatch(p);
  return line;
}

const hexToB64 = (s: string): string => Buffer.from(s, 'hex').toString('base64');

/** `bytes` with the first occurrence of `from` replaced by `to` (both hex); fails if `from` is absent. */
function patch(bytes: Buffer, from: string, to: string): Buffer {
  const at = bytes.indexOf(Buffer.from(from, 'hex'));
  expect(at, `pattern ${from} not found`).toBeGreaterThanOrEqual(0);
  const out = Buffer.from(bytes);
  Buffer.from(to, 'hex').copy(out, at);
  return out;
}

describeFixtures('tonflow decode-block (CLI)', () => {
  it('valid block (34703989, 7 tx) → exit 0, one JSON document with the right transactions and root_hash', () => {
    const r = run('decode-block', fixturePath('blocks/mainnet_0_8000000000000000_34703989_nft.boc'));
    expect(r.signal).toBeNull();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    const doc = JSON.parse(lines[0]!) as { block: { root_hash: string; seqno: number; tx_count: number }; transactions: unknown[] };
    expect(doc.transactions).toHaveLength(7);
    expect(doc.block.tx_count).toBe(7);
    expect(doc.block.seqno).toBe(34703989);
    expect(doc.block.root_hash).toBe(hexToB64('84753a60efefc7169959fdf34ea21f3fa9f5a85c3a8690db77b1f141e0ff47ee'));
  });

  it('valid large block (71398501, 269 tx) → exit 0 within the timeout', () => {
    const r = run('decode-block', fixturePath('blocks/mainnet_0_8000000000000000_71398501.boc'));
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as { block: { root_hash: string }; transactions: unknown[] };
    expect(doc.transactions).toHaveLength(269);
    expect(doc.block.root_hash).toBe(hexToB64('244d0a2f58561995bd57943b0db945cb9fa6a5181d501efc334636aa4401c241'));
  });

  it('not a BOC → exit 2, "not a BOC" with the byte offset', () => {
    const file = writeTmp('not-a-boc.boc', 'this is certainly not a bag of cells\n');
    expectInputError(run('decode-block', file), /BOC_BAD_MAGIC/, /not a BOC/i, /offset \d+/);
  });

  it('truncated BOC → exit 2, BOC_TRUNCATED with the byte offset', () => {
    const bytes = readFixture('blocks/mainnet_0_8000000000000000_34703989_nft.boc');
    const file = writeTmp('truncated.boc', bytes.subarray(0, Math.floor(bytes.length / 2)));
    expectInputError(run('decode-block', file), /BOC_TRUNCATED/, /truncated/i, /offset \d+/);
  });

  it('bad CRC32C (a byte flipped in a BOC written by @ton/core with crc32) → exit 2, BOC_BAD_CRC with the offset', () => {
    const cell = Cell.fromBoc(readFixture('blocks/mainnet_0_8000000000000000_29836576_empty.boc'))[0]!;
    const good = cell.toBoc({ idx: false, crc32: true });
    // The untouched @ton/core BOC decodes (so the failure below is the CRC, not the writer).
    const ok = run('decode-block', writeTmp('crc-ok.boc', good));
    expect(ok.status).toBe(0);
    expect((JSON.parse(ok.stdout) as { block: { root_hash: string } }).block.root_hash).toBe(
      hexToB64('129b0f8f95c96555fcd13074ad07ee965fdaa06b29cb5f7aeb45e566b137817b'),
    );
    const bad = Buffer.from(good);
    const at = Math.floor(bad.length / 2);
    bad[at] = bad[at]! ^ 0x01;
    expectInputError(run('decode-block', writeTmp('crc-bad.boc', bad)), /BOC_BAD_CRC/, /CRC/, /offset \d+/);
  });

  it('a transaction BOC (root is a Transaction, not a Block) → exit 2 naming the TL-B type Block', () => {
    expectInputError(run('decode-block', fixturePath('transactions/mainnet_tx_tongo_testhash.boc')), /TLB_UNKNOWN_CONSTRUCTOR/, /\bBlock\b/);
  });

  it('unknown BlockInfo constructor tag (block_info#9bc7a987 patched) → exit 2 naming BlockInfo', () => {
    const plain = Cell.fromBoc(readFixture('blocks/mainnet_0_8000000000000000_29836576_empty.boc'))[0]!.toBoc({ idx: false, crc32: false });
    const file = writeTmp('bad-blockinfo-tag.boc', patch(plain, '9bc7a987', '9bc7a986'));
    expectInputError(run('decode-block', file), /TLB_UNKNOWN_CONSTRUCTOR/, /\bBlockInfo\b/);
  });

  it('unknown Block constructor tag (block#11ef55aa patched) → exit 2 naming Block', () => {
    const plain = Cell.fromBoc(readFixture('blocks/mainnet_0_8000000000000000_29836576_empty.boc'))[0]!.toBoc({ idx: false, crc32: false });
    const file = writeTmp('bad-block-tag.boc', patch(plain, '11ef55aa', '11ef55ab'));
    expectInputError(run('decode-block', file), /TLB_UNKNOWN_CONSTRUCTOR/, /\bBlock\b/);
  });

  it('unknown ValueFlow constructor tag (value_flow#b8e48dfb patched) → exit 2 naming ValueFlow', () => {
    const plain = Cell.fromBoc(readFixture('blocks/mainnet_0_8000000000000000_29836576_empty.boc'))[0]!.toBoc({ idx: false, crc32: false });
    const file = writeTmp('bad-valueflow-tag.boc', patch(plain, 'b8e48dfb', 'b8e48dfa'));
    expectInputError(run('decode-block', file), /TLB_UNKNOWN_CONSTRUCTOR/, /\bValueFlow\b/);
  });

  it('missing file → exit 2, one error line', () => {
    expectInputError(run('decode-block', path.join(tmp, 'does-not-exist.boc')), /cannot read/, /ENOENT/);
  });

  it('empty file → exit 2, one error line', () => {
    expectInputError(run('decode-block', writeTmp('empty.boc', '')), /BOC/);
  });
});

describeFixtures('tonflow bench decode --json', () => {
  it('prints the figures as its last line (tx_per_s, cells_per_s, baseline_tx_per_s, ratio) and writes its section', () => {
    const results = path.join(tmp, 'RESULTS.md');
    const r = spawnSync(process.execPath, [CLI, 'bench', 'decode', '--json', '--seconds', '0.3', '--results', results], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: patience(120_000),
    });
    expect(r.status, r.stderr).toBe(0);
    const last = r.stdout.trim().split('\n').at(-1)!;
    const j = JSON.parse(last) as Record<string, number>;
    for (const k of ['tx_per_s', 'cells_per_s', 'baseline_tx_per_s', 'ratio', 'peak_rss_mb']) expect(j[k], k).toBeGreaterThan(0);
    // MANIFEST.md: the 14 fixture blocks hold 1270 transactions.
    expect(j.transactions).toBe(1270);
    // The ratio is the median of per-round ratios, so it lies within the rounds' range.
    expect(j.ratio).toBeGreaterThanOrEqual(j.ratio_min!);
    expect(j.ratio).toBeLessThanOrEqual(j.ratio_max!);
    const md = readFileSync(results, 'utf8');
    expect(md).toContain('<!-- bench:decode -->');
    expect(md).toContain(`${j.baseline_tx_per_s}`);
  });
});
