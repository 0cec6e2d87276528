import { execFile } from 'node:child_process';
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
import { type ServedBlock, blockKey, extRefOf, headerProof, mcShardsProof, scaffoldMcBlock } from '../helpers/liteserver/blocks.js';
import { BASE_MC_FIXTURE, type ChainA, MC_A, buildChainA } from '../helpers/liteserver/chain.js';
import { backLink, prevBlocksProof, stateOf, stateRootProof } from '../helpers/liteserver/mc-state.js';
import { type BackProofSpec, type LoopbackLiteserver, loopbackSourceOptions, startLoopbackLiteserver } from '../helpers/liteserver/server.js';
import { patience } from '../helpers/patience.js';

/**
 * getShardBlockProof through the gateway (REST and JSON-RPC) with a liteserver source beside it, as `tonflow start`
 * runs it: the index holds chain A (test/helpers/liteserver/chain.ts) as the liteserver source delivered it, and the
 * loopback liteserver answers `liteServer.getShardBlockProof` and `liteServer.getBlockProof`'s backward links with
 * Merkle proofs it builds with @ton/core over the blocks it serves (and their states, mc-state.ts). Expected shapes
 * are ton-http-api's (tonlib's `blocks.shardBlockProof` with `blocks.blockLinkBack`, tonlib_api.tl, as its JSON prints
 * it: int64 as strings, bytes and int256 as base64); expected proof bytes are what the liteserver served.
 */

const PY = process.env.TONFLOW_PY_CLIENTS?.trim() || undefined;
const SCRIPT = fileURLToPath(new URL('../py/clients.py', import.meta.url));

describeFixtures('gateway: getShardBlockProof from a liteserver source', () => {
  let chain: ChainA;
  let server: LoopbackLiteserver;
  let source: LiteserverSource;
  let store: Store;
  let tvm: Tvm;
  let app: FastifyInstance;
  let bare: FastifyInstance;
  let dataDir: string;

  beforeAll(async () => {
    chain = buildChainA();
    server = await startLoopbackLiteserver({ blocks: chain.blocks });
    // S0's predecessor is an id only: the source starts after S0.
    source = createLiteserverSource({ ...sourceOptions(server), fromSeqno: MC_A + 1 });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-proofs-'));
    store = await createStore({ mode: 'embedded', dataDir, database: `test_proofs_${process.pid}` });
    await migrate(store);
    // S1..S3 as the source yields them, indexed as the decode stage stores blocks.
    const ac = new AbortController();
    for await (const g of source.groups(null, ac.signal)) {
      const rows = g.blocks.map((b) => toRows(toRecords(parseBlock(b.data), b.data), { mcSeqno: g.mcSeqno, points: true }).blocks).flat();
      await store.insert('blocks', rows);
      if (g.mcSeqno === MC_A + 3) break;
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

  const sourceOptions = (s: LoopbackLiteserver) => ({ ...loopbackSourceOptions([s]), pollIntervalMs: 50 });
  const common = () => ({
    store,
    logger: silentLogger(),
    metrics: createMetrics({ service: 'gateway', processMetrics: false }),
    config: { apiKeys: [], rpsWithoutKey: 0, testnet: false, validateResponses: true, responseCacheEntries: 0 },
  });
  const signedShard = (b: ServedBlock) => BigInt.asIntN(64, b.shard).toString();
  const idExt = (b: ServedBlock) => ({
    '@type': 'ton.blockIdExt',
    workchain: b.workchain,
    shard: signedShard(b),
    seqno: b.seqno,
    root_hash: b.rootHash.toString('base64'),
    file_hash: b.fileHash.toString('base64'),
  });
  const get = (a: FastifyInstance, q: string) => a.inject({ method: 'GET', url: `/api/v2/getShardBlockProof?${q}` });

  /** `blocks.blockLinkBack` as ton-http-api prints it, with the proofs the liteserver serves for `from` → `to`. */
  const linkBack = (from: ServedBlock, to: ServedBlock) => ({
    '@type': 'blocks.blockLinkBack',
    to_key_block: false,
    from: idExt(from),
    to: idExt(to),
    dest_proof: headerProof(to).toString('base64'),
    proof: stateRootProof(from).toString('base64'),
    state_proof: prevBlocksProof(stateOf(from)).toString('base64'),
  });

  it('answers blocks.shardBlockProof: mc_id the committing masterchain block, from the newest indexed one, linked back to mc_id', async () => {
    const { Ya, X2 } = chain.named;
    const s2 = chain.index[2]!.mc;
    const s3 = chain.index[3]!.mc;
    const res = await get(app, `workchain=0&shard=${signedShard(X2)}&seqno=${X2.seqno}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(typeof body.result['@extra']).toBe('string');
    delete body.result['@extra'];
    expect(body).toEqual({
      ok: true,
      result: {
        '@type': 'blocks.shardBlockProof',
        // Without from_seqno tonlib starts from the newest masterchain block it knows: S3, the newest indexed.
        from: idExt(s3),
        mc_id: idExt(s2),
        links: [
          { '@type': 'blocks.shardBlockLink', id: idExt(Ya), proof: mcShardsProof(s2).toString('base64') },
          { '@type': 'blocks.shardBlockLink', id: idExt(X2), proof: headerProof(Ya).toString('base64') },
        ],
        mc_proof: [linkBack(s3, s2)],
      },
    });
    // The link was asked of the liteserver as tonlib asks it: getBlockProof from S3 with S2 as the target.
    expect(server.requests.some((r) => r.fn === 'getBlockProof' && r.block === blockKey(s2))).toBe(true);

    // from_seqno two blocks after the committing block: the same single link, from there.
    const s1 = chain.index[1]!.mc;
    const far = await get(app, `workchain=0&shard=${signedShard(chain.r1)}&seqno=${chain.r1.seqno}&from_seqno=${s3.seqno}`);
    expect(far.statusCode, far.body).toBe(200);
    expect(far.json().result.from).toEqual(idExt(s3));
    expect(far.json().result.mc_id).toEqual(idExt(s1));
    expect(far.json().result.mc_proof).toEqual([linkBack(s3, s1)]);

    // from_seqno = the committing block: nothing to link, mc_proof empty.
    const same = await get(app, `workchain=0&shard=${signedShard(X2)}&seqno=${X2.seqno}&from_seqno=${s2.seqno}`);
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().result.from).toEqual(idExt(s2));
    expect(same.json().result.mc_proof).toEqual([]);

    // The same over JSON-RPC, numbers as numbers, a real fixture block (R1, first committed by S1).
    const rpc = await app.inject({
      method: 'POST',
      url: '/api/v2/jsonRPC',
      payload: { jsonrpc: '2.0', id: 7, method: 'getShardBlockProof', params: { workchain: 0, shard: signedShard(chain.r1), seqno: chain.r1.seqno, from_seqno: s1.seqno } },
    });
    expect(rpc.statusCode, rpc.body).toBe(200);
    const r = rpc.json();
    expect(r).toMatchObject({ ok: true, jsonrpc: '2.0', id: 7 });
    expect(r.result.mc_id).toEqual(idExt(s1));
    expect(r.result.from).toEqual(idExt(s1));
    expect(r.result.links).toEqual([{ '@type': 'blocks.shardBlockLink', id: idExt(chain.r1), proof: mcShardsProof(s1).toString('base64') }]);
  });

  it('answers ton-http-api\'s errors: an unknown block, a from_seqno older than the proof or not indexed', async () => {
    const r1 = chain.r1;
    const unknown = await get(app, `workchain=0&shard=${signedShard(r1)}&seqno=${r1.seqno + 1000}`);
    expect(unknown.statusCode).toBe(500);
    expect(unknown.json()).toEqual({ ok: false, code: 500, error: `LITE_SERVER_NOTREADY: cannot find block (0,6000000000000000) seqno=${r1.seqno + 1000}: seqno not in db` });
    const old = await get(app, `workchain=0&shard=${signedShard(chain.named.X2)}&seqno=${chain.named.X2.seqno}&from_seqno=${MC_A + 1}`);
    expect(old.statusCode).toBe(500);
    expect(old.json().error).toBe('from mc block is too old');
    const unindexed = await get(app, `workchain=0&shard=${signedShard(r1)}&seqno=${r1.seqno}&from_seqno=${MC_A + 5}`);
    expect(unindexed.statusCode).toBe(500);
    expect(unindexed.json().error).toBe(`LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno=${MC_A + 5}: seqno not in db`);
    // Without a source that proves blocks (block files, the devnet, a gateway alone): not available, not an internal error.
    const none = await get(bare, `workchain=0&shard=${signedShard(r1)}&seqno=${r1.seqno}`);
    expect(none.statusCode).toBe(500);
    expect(none.json().error).toBe('LITE_SERVER_UNKNOWN: block proofs (liteserver getShardBlockProof) is not available from the index');
  });

  it('refuses a forged proof with the reason, after asking again', async () => {
    const { Ya2, Z } = chain.named;
    // First the true answer (S3 names Z, the merge of Ya2 and Yb): the liteserver builds S3's proof once, so that
    // the three forged answers below fit in the request's deadline on a loaded machine.
    const good = await get(app, `workchain=0&shard=${signedShard(Ya2)}&seqno=${Ya2.seqno}`);
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().result.links.map((l: { id: unknown }) => l.id)).toEqual([idExt(Z), idExt(Ya2)]);
    // A real Merkle proof of another block (R2's header) where S3's proof belongs.
    const forged = headerProof(chain.r2);
    server.tamperProof = () => forged;
    try {
      const res = await get(app, `workchain=0&shard=${signedShard(Ya2)}&seqno=${Ya2.seqno}`);
      expect(res.statusCode).toBe(500);
      const error = res.json().error as string;
      expect(error).toMatch(/^LITE_SERVER_UNKNOWN: shard block proof of \(0,1000000000000000,\d+\): 3 answers failed verification/);
      expect(error).toContain(`the proof is of block ${chain.r2.rootHash.toString('hex')}`);
    } finally {
      server.tamperProof = null;
    }
  });

  it('refuses forged links back to mc_id with the reason, after asking again', async () => {
    const { X2 } = chain.named;
    const [s1, s2, s3] = [chain.index[1]!.mc, chain.index[2]!.mc, chain.index[3]!.mc];
    const ask = () => get(app, `workchain=0&shard=${signedShard(X2)}&seqno=${X2.seqno}`);
    const forgeries: Array<[string, (t: BackProofSpec) => BackProofSpec, string]> = [
      // S2's state where S3's belongs: the header of S3 names another state hash.
      ['wrong state hash', (t) => ({ ...t, links: [{ ...t.links[0]!, stateProof: prevBlocksProof(stateOf(s2)) }] }), 'the state proof is of state '],
      ['wrong key flag', (t) => ({ ...t, links: [{ ...t.links[0]!, toKeyBlock: true }] }), 'to_key_block is true, the header of (-1,8000000000000000,900000002) says false'],
      ['incomplete', (t) => ({ ...t, complete: false }), 'the proof is incomplete'],
      // True links, each checking on its own, that do not chain from S3 to S2.
      ['chain ending elsewhere', (t) => ({ ...t, links: [backLink(s3, s1)] }), 'the links end at (-1,8000000000000000,900000001)'],
      ['broken chain', (t) => ({ ...t, links: [backLink(s3, s1), backLink(s2, s1)] }), 'link 1 starts at (-1,8000000000000000,900000002)'],
    ];
    for (const [what, forge, reason] of forgeries) {
      const before = server.count('getBlockProof');
      server.tamperBackProof = forge;
      try {
        const res = await ask();
        expect(res.statusCode, what).toBe(500);
        const error = res.json().error as string;
        expect(error, what).toMatch(/^LITE_SERVER_UNKNOWN: masterchain proof of \(-1,8000000000000000,900000002\) from \(-1,8000000000000000,900000003\): 3 answers failed verification/);
        expect(error, what).toContain(reason);
        expect(server.count('getBlockProof') - before, what).toBe(3);
      } finally {
        server.tamperBackProof = null;
      }
    }
    // One forged answer, then the true one: the answer is the true chain.
    let forged = 0;
    server.tamperBackProof = (t) => (forged++ === 0 ? { ...t, complete: false } : null);
    try {
      const res = await ask();
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().result.mc_proof).toEqual([linkBack(s3, s2)]);
      expect(forged).toBe(2);
    } finally {
      server.tamperBackProof = null;
    }
  });

  it('a block no liteserver can prove within the request\'s deadline is v2\'s 504', async () => {
    const { Yb } = chain.named;
    server.hide(Yb);
    try {
      const res = await get(app, `workchain=0&shard=${signedShard(Yb)}&seqno=${Yb.seqno}`);
      expect(res.json()).toEqual({ ok: false, code: 504, error: 'LITE_SERVER_NETWORK timeout' });
      expect(res.statusCode).toBe(504);
    } finally {
      server.publish(Yb);
    }
  });

  it('refuses a proof that starts at another masterchain block than the indexed one of its seqno', async () => {
    // A chain that forks at S2: same seqno and commits, another root hash. Self-consistent, so the source's checks pass;
    // the index anchors mc_id.
    const s2 = chain.index[2]!.mc;
    const fork = scaffoldMcBlock(readFixture(BASE_MC_FIXTURE), {
      seqno: s2.seqno,
      prev: extRefOf(chain.index[1]!.mc),
      shards: chain.index[2]!.commits,
      genUtime: s2.info.genUtime + 1,
      startLt: s2.info.startLt,
      endLt: s2.info.endLt,
      label: 'S2 fork',
    });
    const other = await startLoopbackLiteserver({ blocks: [...chain.blocks.filter((b) => b !== s2), fork] });
    const forked = createLiteserverSource({ ...sourceOptions(other), fromSeqno: MC_A + 1 });
    const forkApp = await buildApp({ ...common(), tvm: { tvm, source: forked } });
    try {
      const { X2 } = chain.named;
      const res = await get(forkApp, `workchain=0&shard=${signedShard(X2)}&seqno=${X2.seqno}`);
      expect(res.statusCode, res.body).toBe(500);
      expect(res.json().error).toBe(
        `LITE_SERVER_UNKNOWN: the proof starts at masterchain block ${s2.seqno} (${fork.rootHash.toString('base64')}), which is not the indexed block of that seqno`,
      );
    } finally {
      await forkApp.close();
      await forked.close();
      await other.close();
    }
  });

  it.runIf(PY)('the toncenter SDK (0.4) reads it with its ShardBlockProof model', async () => {
    const { X2, Ya } = chain.named;
    const out = await new Promise<any>((resolve, reject) => {
      execFile(PY!, [SCRIPT, 'shardproof', endpoint, '0', signedShard(X2), String(X2.seqno)], (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout))));
    });
    const plain = (b: ServedBlock) => {
      const { '@type': _t, ...rest } = idExt(b);
      return rest;
    };
    const { '@type': _t, from: _from, to: _to, ...proofs } = linkBack(chain.index[3]!.mc, chain.index[2]!.mc);
    expect(out).toEqual({
      from: plain(chain.index[3]!.mc),
      mc_id: plain(chain.index[2]!.mc),
      links: [
        { id: plain(Ya), proof: mcShardsProof(chain.index[2]!.mc).toString('base64') },
        { id: plain(X2), proof: headerProof(Ya).toString('base64') },
      ],
      mc_proof: [{ ...proofs, from: plain(chain.index[3]!.mc), to: plain(chain.index[2]!.mc) }],
    });
  });
  let endpoint = '';
  beforeAll(async () => {
    if (!PY) return;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const a = app.server.address();
    endpoint = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  });
});
