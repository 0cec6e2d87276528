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

  it('prints the LayerZero composites (layerzero.yaml "LayerZero send msg to tron", "LayerZero dvn verify")', () => {
    const r = run('classify-trace', '--format', 'toncenter-corpus', trace('01yfeTlzIHDqWZwz-PJTRADD3nDv5LWynHMGsnPZGJU='), trace('0IpCwGaMBpo9nqnjKOiBAnHhawXzcrpRHErKz6LJUFM='));
    expect(r.status).toBe(0);
    const [send, verify] = r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { actions: Record<string, any>[] }).actions);
    const s = send!.filter((a) => a.type === 'layerzero_send');
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({
      source: '0:170725394AA56136FBD27D0CE31D8A98E0F8AE72A4D2379B5DDE83E211A2D5FA',
      layerzero_send_data: {
        send_request_id: '90',
        native_fee: '14835102020',
        zro_fee: '0',
        endpoint: '0:02A7E49D90DF81A1944DAC9241F477DBB17CB0C87313EAF2C58A13D85EF942D3',
        channel: '0:1348A0E6846379668D3AFB785299609F3930EE80A177F4C88263E3741DB3D90F',
        uln: '0:063BDFBF347F883DDBA72A200563570AF2DC72695B2B2FCCAAECD113688AC570',
        msglib_manager: '0x150645746e25be5486eb3b2f5d98b44c6b324697c48d495d059f96fc9d3ec368',
        msglib: '0x63bdfbf347f883ddba72a200563570af2dc72695b2b2fccaaecd113688ac570',
      },
      layerzero_packet_data: {
        src_oapp: '0x170725394aa56136fbd27d0ce31d8a98e0f8ae72a4d2379b5dde83e211a2d5fa',
        dst_oapp: '0x8925c1dd3e5d8011946a3430d91be742ba8ee930',
        src_eid: 30343,
        dst_eid: 30420,
        nonce: '90',
        guid: '0x46c71599bf21b54d59bd078d0bae22878154b16c1216fb6b83b0edf3a1167476',
        message: '0x000300000000000000000000000000000000000000e1320ab3ea00000000000000000000000000000000',
      },
    });
    const v = verify!.filter((a) => a.type === 'layerzero_dvn_verify');
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({
      source: '0:045903F593BC81008FF9B652F53F1EDF8C819F3A9E4EB677C4D44467B9BAFADC',
      layerzero_dvn_verify_data: {
        nonce: '125',
        status: 'succeeded',
        dvn: '0:0E5C256C5A961C6D472F1AE83E2061D1F23C8BF2DA6C3EA9CEF67BEBF5DCA9BA',
        proxy: '0:04B9F9836004D7F53E52E01602D9C07C14CDF38B8A946B6E813CFEA8DE10927D',
        uln: '0:063BDFBF347F883DDBA72A200563570AF2DC72695B2B2FCCAAECD113688AC570',
        uln_connection: '0:2ED02651C800BEC3D3ECE7A43E475262605D7C390785E74AA740C6D31A89B7AE',
      },
    });
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
