import { execFile } from 'node:child_process';
import { sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../services/gateway/app.js';
import { toRows } from '../../services/indexer/rows.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import { type LiteserverSource, createLiteserverSource } from '../../shared/sources/liteserver/index.js';
import { createStore } from '../../shared/store/client.js';
import { migrate } from '../../shared/store/migrate.js';
import type { Store } from '../../shared/store/store.js';
import { parseBlock, toRecords } from '../../shared/ton/decode-block.js';
import type { Tvm } from '../../shared/tvm/executor.js';
import { createTvmPool } from '../../shared/tvm/pool.js';
import { describeFixtures, readFixture } from '../helpers/fixtures.js';
import { silentLogger } from '../helpers/gateway.js';
import type { ServedBlock } from '../helpers/liteserver/blocks.js';
import { type LoopbackLiteserver, loopbackSourceOptions, startLoopbackLiteserver } from '../helpers/liteserver/server.js';
import { type SignedChain, type TestValidator, scaffoldKeyBlock, signatureSet, signedMcBlock, subsetOf, testValidators } from '../helpers/liteserver/signatures.js';
import { patience } from '../helpers/patience.js';

/**
 * getMasterchainBlockSignatures through the gateway (REST and JSON-RPC) with a liteserver source beside it: the index
 * holds a key block and masterchain blocks after it, and the loopback liteserver answers `liteServer.getBlockProof`
 * with a forward link whose signatures it makes with validator keys it owns (test/helpers/liteserver/signatures.ts:
 * mainnet key block 46991999 with its ConfigParam 34 replaced by those keys, real ConfigParam 28). Expected bodies are
 * ton-http-api's `blocks.blockSignatures` (tonlib_api.tl; api-v2.md §3.4); the expected signatures are computed here
 * with node:crypto over TL `ton.blockId`, not read from the server.
 */

const PY = process.env.TONFLOW_PY_CLIENTS?.trim() || undefined;
const SCRIPT = fileURLToPath(new URL('../py/clients.py', import.meta.url));
const KEY_FIXTURE = 'blocks/mainnet_-1_8000000000000000_46991999_keyblock.boc';
const CC = 700_001;

describeFixtures('gateway: getMasterchainBlockSignatures from a liteserver source', () => {
  let chain: SignedChain;
  let members: TestValidator[];
  /** Signed by the subset; header right. */
  let good: ServedBlock;
  /** Signed by the subset, but its header names another validator set hash. */
  let wrongHash: ServedBlock;
  let server: LoopbackLiteserver;
  let source: LiteserverSource;
  let store: Store;
  let tvm: Tvm;
  let app: FastifyInstance;
  let bare: FastifyInstance;
  let dataDir: string;
  let endpoint = '';

  beforeAll(async () => {
    const keyData = readFixture(KEY_FIXTURE);
    // Six validators, four of them the masterchain subset; weights so that any three of the four weigh more than
    // 2/3 of the subset only when the heaviest signs.
    chain = scaffoldKeyBlock(keyData, testValidators([100n, 200n, 300n, 600n, 50n, 50n]), 4);
    const subset = subsetOf(chain, CC);
    members = subset.members;
    good = signedMcBlock(chain, keyData, { prev: chain.key, cc: CC, hash: subset.hash, label: 'signed block' });
    wrongHash = signedMcBlock(chain, keyData, { prev: good, cc: CC, hash: (subset.hash ^ 1) >>> 0, label: 'block naming another validator set' });
    server = await startLoopbackLiteserver({ blocks: [chain.key, good, wrongHash] });
    for (const b of [good, wrongHash]) server.signatureSets.set(b.rootHash.toString('hex'), signatureSet(b, members, { cc: CC, hash: subset.hash }));
    source = createLiteserverSource(loopbackSourceOptions([server]));
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-sigs-'));
    store = await createStore({ mode: 'embedded', dataDir, database: `test_sigs_${process.pid}` });
    await migrate(store);
    for (const b of [chain.key, good, wrongHash]) {
      await store.insert('blocks', toRows(toRecords(parseBlock(b.data), b.data), { mcSeqno: b.seqno, points: true }).blocks);
    }
    tvm = createTvmPool({ workers: 1, timeoutMs: patience(10_000) });
    app = await buildApp({ ...common(), tvm: { tvm, source } });
    bare = await buildApp(common());
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await bare?.close();
    await tvm?.close();
    await source?.close();
    await server?.close();
    await store?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const common = () => ({
    store,
    logger: silentLogger(),
    metrics: createMetrics({ service: 'gateway', processMetrics: false }),
    config: { apiKeys: [], rpsWithoutKey: 0, testnet: false, validateResponses: true, responseCacheEntries: 0 },
  });
  const idExt = (b: ServedBlock) => ({
    '@type': 'ton.blockIdExt',
    workchain: -1,
    shard: '-9223372036854775808',
    seqno: b.seqno,
    root_hash: b.rootHash.toString('base64'),
    file_hash: b.fileHash.toString('base64'),
  });
  /** What each validator signs: TL `ton.blockId root_cell_hash:int256 file_hash:int256` (ton_api.tl, crc32 0xc50b6e70). */
  const expectedSignatures = (b: ServedBlock) =>
    members.map((v) => ({
      '@type': 'blocks.signature',
      node_id_short: v.nodeIdShort.toString('base64'),
      signature: sign(null, Buffer.concat([Buffer.from('706e0bc5', 'hex'), b.rootHash, b.fileHash]), v.privateKey).toString('base64'),
    }));
  const get = (a: FastifyInstance, seqno: number) => a.inject({ method: 'GET', url: `/api/v2/getMasterchainBlockSignatures?seqno=${seqno}` });

  it('answers blocks.blockSignatures: the block id and the signatures the liteserver served, checked', async () => {
    const res = await get(app, good.seqno);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(typeof body.result['@extra']).toBe('string');
    delete body.result['@extra'];
    expect(body).toEqual({ ok: true, result: { '@type': 'blocks.blockSignatures', id: idExt(good), signatures: expectedSignatures(good) } });
    // The source asked for the forward link from the key block the header names.
    expect(server.requests.filter((r) => r.fn === 'getBlockProof').at(-1)).toEqual({ fn: 'getBlockProof', block: `-1:8000000000000000:${good.seqno}` });

    const rpc = await app.inject({ method: 'POST', url: '/api/v2/jsonRPC', payload: { jsonrpc: '2.0', id: 3, method: 'getMasterchainBlockSignatures', params: { seqno: good.seqno } } });
    expect(rpc.statusCode, rpc.body).toBe(200);
    const r = rpc.json();
    delete r.result['@extra'];
    expect(r).toEqual({ ok: true, jsonrpc: '2.0', id: 3, result: { '@type': 'blocks.blockSignatures', id: idExt(good), signatures: expectedSignatures(good) } });
  });

  const refused = async (seqno: number, reason: string) => {
    const res = await get(app, seqno);
    expect(res.statusCode, res.body).toBe(500);
    const error = res.json().error as string;
    expect(error).toMatch(new RegExp(`^LITE_SERVER_UNKNOWN: signatures of \\(-1,8000000000000000,${seqno}\\): \\d+ answers? failed verification`));
    expect(error).toContain(reason);
  };

  it('refuses a signature that does not verify', async () => {
    server.tamperSignatures = (set) => ({ ...set, signatures: set.signatures.map((s, i) => (i === 0 ? { ...s, signature: Buffer.from(s.signature.map((x, j) => (j === 5 ? x ^ 1 : x))) } : s)) });
    try {
      await refused(good.seqno, `the signature of validator ${members[0]!.nodeIdShort.toString('hex')} does not verify`);
    } finally {
      server.tamperSignatures = null;
    }
  });

  it('refuses signatures that weigh 2/3 of the subset or less', async () => {
    // The subset weighs 1200 (100 + 200 + 300 + 600, whichever order it is shuffled in); without the 600 the rest is 600.
    expect(members.map((v) => v.weight).reduce((a, b) => a + b)).toBe(1200n);
    server.tamperSignatures = (set) => ({ ...set, signatures: set.signatures.filter((_, i) => members[i]!.weight !== 600n) });
    try {
      await refused(good.seqno, 'the signatures weigh 600 of 1200, not more than 2/3');
    } finally {
      server.tamperSignatures = null;
    }
  });

  it('refuses a signer outside the masterchain subset and a duplicate signer', async () => {
    const outsider = chain.validators.find((v) => !members.includes(v))!;
    const extra = signatureSet(good, [outsider], { cc: CC, hash: 0 }).signatures[0]!;
    server.tamperSignatures = (set) => ({ ...set, signatures: [...set.signatures, extra] });
    try {
      await refused(good.seqno, `signer ${outsider.nodeIdShort.toString('hex')} is not in the validator set`);
      server.tamperSignatures = (set) => ({ ...set, signatures: [...set.signatures, set.signatures[1]!] });
      await refused(good.seqno, `validator ${members[1]!.nodeIdShort.toString('hex')} signed twice`);
    } finally {
      server.tamperSignatures = null;
    }
  });

  it('refuses a block whose header names another validator set than its key block gives', async () => {
    await refused(wrongHash.seqno, `the validator set of catchain seqno ${CC} computed from (-1,8000000000000000,${chain.key.seqno}) hashes to`);
  });

  it('a block no liteserver can prove within the request\'s deadline is v2\'s 504', async () => {
    server.hide(good);
    try {
      const res = await get(app, good.seqno);
      expect(res.json()).toEqual({ ok: false, code: 504, error: 'LITE_SERVER_NETWORK timeout' });
      expect(res.statusCode).toBe(504);
    } finally {
      server.publish(good);
    }
  });

  it('answers ton-http-api\'s block-not-found for a block the index lacks, "not available" without a source', async () => {
    const unknown = await get(app, good.seqno + 100);
    expect(unknown.statusCode).toBe(500);
    expect(unknown.json()).toEqual({ ok: false, code: 500, error: `LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno=${good.seqno + 100}: seqno not in db` });
    const none = await get(bare, good.seqno);
    expect(none.statusCode).toBe(500);
    expect(none.json()).toEqual({
      ok: false,
      code: 500,
      error: `LITE_SERVER_UNKNOWN: the signature set of masterchain block ${good.seqno} (in its block proof) is not available from the index`,
    });
  });

  it.runIf(PY)('the toncenter SDK (0.4) reads it with its BlockSignatures model', async () => {
    if (!endpoint) {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const addr = app.server.address();
      endpoint = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    }
    const out = await new Promise<any>((resolve, reject) => {
      execFile(PY!, [SCRIPT, 'signatures', endpoint, String(good.seqno)], (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout))));
    });
    expect(out).toEqual({
      type: 'BlockSignatures',
      id: { workchain: -1, shard: '-9223372036854775808', seqno: good.seqno, root_hash: good.rootHash.toString('base64'), file_hash: good.fileHash.toString('base64') },
      signatures: expectedSignatures(good).map(({ node_id_short, signature }) => ({ node_id_short, signature })),
    });
  });
});
