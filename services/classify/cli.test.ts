import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeFixtures, fixturePath, repoRoot } from '../../test/helpers/fixtures.js';

/*
 * `tonflow classify-trace --format toncenter-corpus FILE...` as a child process on recorded corpus traces: one JSON
 * line per file in argument order, an `error` line for a file that cannot be read (the run goes on, exit 0), exit 2
 * on usage errors. Expected values are TON Center's (action-corpus test_cases/ton-transfers.yaml, jetton-transfer.yaml).
 */
const CLI = path.join(repoRoot, 'dist', 'services', 'tonflow.js');
let tmp = '';

beforeAll(() => {
  if (!existsSync(CLI)) {
    const r = spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: repoRoot, encoding: 'utf8', timeout: 110_000 });
    if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
  }
  tmp = mkdtempSync(path.join(os.tmpdir(), 'tonflow-classify-'));
}, 120_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const trace = (id: string): string => fixturePath(`action-corpus/traces/${id}.json`);

describeFixtures('tonflow classify-trace (CLI)', () => {
  it('prints one line per file, in order, with the storage rows; unreadable files get an error line and the run goes on', () => {
    const tonTransfer = trace('Ugmymow0mpGDSuNUKC1YHkd28o7qceVvYtokZ--D-3E=');
    const jettonTransfer = trace('PAP4CeUFvg7ixzz5-0eFHrR2vahRZh8wPqAIZdV-c5g=');
    const missing = path.join(tmp, 'missing.json');
    const notJson = path.join(tmp, 'not.json');
    writeFileSync(notJson, '{"trace": ');
    const wrongShape = path.join(tmp, 'shape.json');
    writeFileSync(wrongShape, '{"trace": {}, "transactions": 5}');
    const r = run('classify-trace', '--format', 'toncenter-corpus', tonTransfer, missing, jettonTransfer, notJson, wrongShape);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines.map((l) => l.file)).toEqual([tonTransfer, missing, jettonTransfer, notJson, wrongShape]);

    // ton-transfers.yaml "Failed ton transfer (external-in only)".
    const [t] = lines[0]!.actions;
    expect(lines[0]!.actions).toHaveLength(1);
    expect(t).toMatchObject({
      type: 'ton_transfer',
      success: false,
      value: '17192063',
      source: '0:9E53B9A59CC76005E9B00D571D4933D8548361F87608D58BC1A0029FACCEF345',
      destination: '0:F99B14600AE44D2F12B178E8C6EABD78892AE82C5E45B6898F9DEB7EB203F9C4',
      ton_transfer_data: { content: '109872119', encrypted: false },
      tx_hashes: ['Ugmymow0mpGDSuNUKC1YHkd28o7qceVvYtokZ++D+3E='],
    });

    expect(lines[1]!.error).toMatch(/cannot read file: ENOENT/);
    expect(lines[1]!.actions).toBeUndefined();

    // jetton-transfer.yaml "Failed jetton transfer (external only)": the fallback jetton_transfer of a failed external.
    const jt = (lines[2]!.actions as Record<string, any>[]).filter((a) => a.type === 'jetton_transfer');
    expect(jt).toHaveLength(1);
    expect(jt[0]).toMatchObject({
      success: false,
      source: '0:61F9E8981E541E31DAD7D3A9CFD7CF01C5E0FA669055A5E5B2F1F7825621AAAD',
      source_secondary: '0:3DADD520F445F934CF15BA4008A5FD2286A3A8217ABF112637308BB49BD3732B',
      destination: '0:EDD4C1585170B73A8F9AB495AE126E10F2BF26B0C3C27C0D466D111AE30BFAB8',
      asset: '0:B609442A309B9590EFE2A1713D32F5BD724341BB1A8507B5DC7BB060C059D66A',
    });
    expect(jt[0]!.amount).toMatch(/^\d+$/);

    expect(lines[3]!.error).toMatch(/^not JSON/);
    expect(lines[4]!.error).toMatch(/transactions/);
  });

  it('usage errors exit 2 with one error line', () => {
    for (const args of [[], ['--format', 'toncenter-corpus'], ['--format', 'other', 'x.json'], ['--bogus', 'x.json']]) {
      const r = run('classify-trace', ...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1 + 1);
      expect(r.stderr).toMatch(/^error: USAGE: /);
    }
  });
});
