import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test/helpers/fixtures.js';
import { MANIFEST_BLOCKS, b64, describeGatewaySuites } from '../../../test/helpers/gateway.js';

/*
 * The gateway's API v2 block operations, REST and JSON-RPC (routes/v2.ts), over a store filled from every real fixture
 * block (test/helpers/gateway.ts describeGatewaySuites: the expected values and where they come from).
 */

describeGatewaySuites('v2', (s) => {
  const api = s.api;

  // -----------------------------------------------------------------------------------------------------------
  describe('API v2 block operations', () => {
    it('getMasterchainInfo, getConsensusBlock', async () => {
      const r = await api('/api/v2/getMasterchainInfo');
      expect(r.status).toBe(200);
      expect(r.body.ok).toBe(true);
      expect(r.body.result).toMatchObject({
        '@type': 'blocks.masterchainInfo',
        last: { '@type': 'ton.blockIdExt', workchain: -1, shard: '-9223372036854775808', seqno: 49383163, root_hash: b64(MANIFEST_BLOCKS[4]!.root) },
        // The mainnet zero state (global config validator.zero_state).
        init: { workchain: -1, seqno: 0, root_hash: 'F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=', file_hash: 'XplPz01CXAps5qeSWUtxcyBfdAo5zVb1N979KLSKD24=' },
      });
      // The root hash of the masterchain state after the last block: its state update's new side, hashed by @ton/core.
      const update = Cell.fromBoc(Buffer.from(readFixture('blocks/mainnet_-1_8000000000000000_49383163_trimmed_shard_fsm.boc')))[0]!.refs[2]!;
      expect(r.body.result.state_root_hash).toBe(update.refs[1]!.hash(0).toString('base64'));
      expect(typeof r.body.result['@extra']).toBe('string');
      const c = await api('/api/v2/getConsensusBlock');
      expect(c.body.result).toMatchObject({ '@type': 'ext.blocks.consensusBlock', consensus_block: 49383163, timestamp: 1751303785 });
    });

    it('getBlockHeader: header of a block by id, prev blocks with the hashes the block names; v2 errors', async () => {
      const r = await api('/api/v2/getBlockHeader?workchain=0&shard=6917529027641081856&seqno=52111590');
      expect(r.status).toBe(200);
      expect(r.body.result).toMatchObject({
        '@type': 'blocks.header',
        id: { workchain: 0, shard: '6917529027641081856', seqno: 52111590, root_hash: b64(MANIFEST_BLOCKS[6]!.root) },
        global_id: -239,
        gen_utime: 1745147839,
        start_lt: '56269616000000',
        end_lt: '56269616000011',
        // tonlib's int32.
        validator_list_hash_short: 3574137325 - 2 ** 32,
        catchain_seqno: 684420,
        min_ref_mc_seqno: 47004578,
        prev_key_block_seqno: 46991999,
        is_key_block: false,
        prev_blocks: [{ '@type': 'ton.blockIdExt', workchain: 0, shard: '6917529027641081856', seqno: 52111589 }],
      });
      // 52111589 is not stored: its hashes are the ones 52111590's BlkPrevInfo names (MANIFEST, block_info.rs).
      const [prevId] = r.body.result.prev_blocks as Array<{ root_hash: string; file_hash: string }>;
      expect(Buffer.from(prevId!.root_hash, 'base64').toString('hex').toUpperCase()).toMatch(/^E05BBE4312F8/);
      expect(Buffer.from(prevId!.file_hash, 'base64').toString('hex').toUpperCase()).toMatch(/^A00B27433D3D/);
      // A block stored before 0014 has no such hashes: they come from the previous block's own row when the store holds
      // it (here a copy of 52111590 as its own successor), else stay empty.
      const row = s.fx.blocks.flatMap((b) => b.rows.blocks).find((b) => b.seqno === 52111590)!;
      const old = { ...row, seqno: 52111591, prev_blocks: [{ ...row.prev_blocks[0]!, seqno: 52111590 }], state_root_hash: '', prev_block_hashes: [] };
      await s.fx.store.insert('blocks', [old]);
      try {
        const h = await api('/api/v2/getBlockHeader?workchain=0&shard=6917529027641081856&seqno=52111591');
        expect(h.body.result.prev_blocks).toEqual([
          { '@type': 'ton.blockIdExt', workchain: 0, shard: '6917529027641081856', seqno: 52111590, root_hash: b64(MANIFEST_BLOCKS[6]!.root), file_hash: row.file_hash },
        ]);
      } finally {
        await s.fx.store.command('ALTER TABLE blocks DELETE WHERE seqno = 52111591 SETTINGS mutations_sync = 2');
      }
      const key = await api('/api/v2/getBlockHeader?workchain=-1&shard=-9223372036854775808&seqno=46991999');
      expect(key.body.result).toMatchObject({ is_key_block: true, gen_utime: 1745112841, catchain_seqno: 682531 });
      const withHash = await api(`/api/v2/getBlockHeader?workchain=0&shard=6917529027641081856&seqno=52111590&root_hash=${MANIFEST_BLOCKS[6]!.root}`);
      expect(withHash.status).toBe(200);
      // One hash alone does not name the block (api-v2.md §3.2): TON Center looks it up by its seqno.
      const byId = '/api/v2/getBlockHeader?workchain=0&shard=6917529027641081856&seqno=52111590';
      expect((await api(`${byId}&root_hash=${MANIFEST_BLOCKS[7]!.root}`)).status).toBe(200);
      // Both must then match.
      const fileHash = encodeURIComponent(r.body.result.id.file_hash);
      expect((await api(`${byId}&root_hash=${MANIFEST_BLOCKS[6]!.root}&file_hash=${fileHash}`)).status).toBe(200);
      const wrongHash = await api(`${byId}&root_hash=${MANIFEST_BLOCKS[7]!.root}&file_hash=${fileHash}`);
      // A block the index lacks is the liteserver's 500, as TON Center's v2 answers it (api-v2.md §1 table).
      expect(wrongHash).toMatchObject({
        status: 500,
        body: { ok: false, code: 500, error: 'LITE_SERVER_NOTREADY: cannot find block (0,6000000000000000) seqno=52111590: seqno not in db' },
      });
      const cases: Array<[string, string]> = [
        ['shard=1&seqno=1', 'workchain required'],
        ['workchain=0&seqno=1', 'shard required'],
        ['workchain=0&shard=1', 'seqno required'],
        ['workchain=0&shard=1&seqno=x', 'failed to parse seqno'],
        ['workchain=0&shard=1&seqno=-1', 'seqno should be positive'],
        ['workchain=0&shard=1&seqno=1&root_hash=nope', 'failed to parse root_hash'],
      ];
      for (const [q, error] of cases) {
        const e = await api(`/api/v2/getBlockHeader?${q}`);
        expect({ q, status: e.status, body: e.body }).toEqual({ q, status: 422, body: { ok: false, error, code: 422 } });
      }
    });

    it('getMasterchainBlockSignatures: not available from the index for an indexed block (never an empty list); v2 errors', async () => {
      // The signatures travel in block proofs; no fixture block carries any for its predecessor (prev_blk_signatures is
      // empty in each: shared/ton/tlb/McBlockExtra.test.ts), so an empty list would be a wrong answer, not a partial one.
      expect(await api('/api/v2/getMasterchainBlockSignatures?seqno=46991999')).toMatchObject({
        status: 500,
        body: { ok: false, code: 500, error: 'LITE_SERVER_UNKNOWN: the signature set of masterchain block 46991999 (in its block proof) is not available from the index' },
      });
      expect(await api('/api/v2/getMasterchainBlockSignatures?seqno=5')).toMatchObject({
        status: 500,
        body: { ok: false, code: 500, error: 'LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno=5: seqno not in db' },
      });
      // The C++ handlers refuse seqno <= 0.
      expect(await api('/api/v2/getMasterchainBlockSignatures?seqno=0')).toMatchObject({ status: 422, body: { error: 'seqno should be positive' } });
      expect(await api('/api/v2/getMasterchainBlockSignatures')).toMatchObject({ status: 422, body: { ok: false, error: 'seqno required', code: 422 } });
    });

    it('POST /api/v2/jsonRPC: the same operations with params in the body, id echoed (api-v2.md §1)', async () => {
      const rpc = async (body: unknown, url = '/api/v2/jsonRPC') => {
        const r = await s.fx.app.inject({ method: 'POST', url, payload: body as Record<string, unknown> });
        return { status: r.statusCode, body: r.json() };
      };
      // Numbers as numbers or as strings alike; the result is the REST operation's, less the per-call @extra.
      const rest = await api('/api/v2/getBlockHeader?workchain=0&shard=6917529027641081856&seqno=52111590');
      const params = { workchain: 0, shard: '6917529027641081856', seqno: '52111590' };
      const header = await rpc({ jsonrpc: '2.0', id: 'a1', method: 'getBlockHeader', params });
      expect(header.status).toBe(200);
      const { '@extra': _restExtra, ...restResult } = rest.body.result;
      const { '@extra': _rpcExtra, ...rpcResult } = header.body.result;
      expect(rpcResult).toEqual(restResult);
      expect(header.body).toMatchObject({ ok: true, jsonrpc: '2.0', id: 'a1' });
      expect((await rpc({ jsonrpc: '2.0', id: 7, method: 'getMasterchainInfo', params: {} })).body).toMatchObject({
        ok: true,
        id: 7,
        jsonrpc: '2.0',
        result: { '@type': 'blocks.masterchainInfo', last: { seqno: 49383163 } },
      });
      expect((await rpc({ id: 1, method: 'getConsensusBlock' })).body.result).toMatchObject({ consensus_block: 49383163 });
      expect(await rpc({ id: 2, method: 'getMasterchainBlockSignatures', params: { seqno: 46991999 } })).toMatchObject({
        status: 500,
        body: { ok: false, code: 500, jsonrpc: '2.0', id: 2 },
      });
      // Errors: unknown method and bad params are 422 with the id; an operation's own error keeps its status.
      expect(await rpc({ jsonrpc: '2.0', id: 'x', method: 'getNothing', params: {} })).toEqual({
        status: 422,
        body: { ok: false, error: 'Unknown method', code: 422, jsonrpc: '2.0', id: 'x' },
      });
      expect(await rpc({ id: 'y', method: 'getBlockHeader', params: { workchain: 0, shard: '1' } })).toEqual({
        status: 422,
        body: { ok: false, error: 'TypeError: seqno required', code: 422, jsonrpc: '2.0', id: 'y' },
      });
      expect(await rpc({ id: 'z', method: 'getMasterchainBlockSignatures', params: { seqno: 5 } })).toEqual({
        status: 500,
        body: { ok: false, error: 'LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno=5: seqno not in db', code: 500, jsonrpc: '2.0', id: 'z' },
      });
      // A shard sent as a JSON number: -2^63 and the other shard ids are exact doubles, and must stay exact.
      const mc = await rpc({ id: 3, method: 'getBlockHeader', params: { workchain: -1, shard: -9223372036854775808, seqno: 49383163 } });
      expect(mc.body.result.id).toMatchObject({ shard: '-9223372036854775808', seqno: 49383163 });
      const sh = await rpc({ id: 4, method: 'getBlockHeader', params: { workchain: 0, shard: 6917529027641081856, seqno: 52111590 } });
      expect(sh.body.result.id).toMatchObject({ shard: '6917529027641081856', seqno: 52111590 });
      // Bodies that are not an object with object params: 422 with the id when there is one.
      expect(await rpc({ id: 5, method: 'getMasterchainBlockSignatures', params: [49383163] })).toEqual({
        status: 422,
        body: { ok: false, error: 'Validation error: params must be an object', code: 422, jsonrpc: '2.0', id: 5 },
      });
      expect(await rpc([1, 2])).toEqual({ status: 422, body: { ok: false, error: 'Validation error: the body must be a JSON object', code: 422, jsonrpc: '2.0', id: null } });
      // JSON sent as text/plain, as fetch sends a string body.
      const plain = await s.fx.app.inject({ method: 'POST', url: '/api/v2/jsonRPC', headers: { 'content-type': 'text/plain' }, payload: JSON.stringify({ id: 9, method: 'getConsensusBlock' }) });
      expect(plain.json()).toMatchObject({ ok: true, id: 9, result: { consensus_block: 49383163 } });
      const notJson = await s.fx.app.inject({ method: 'POST', url: '/api/v2/jsonRPC', headers: { 'content-type': 'application/json' }, payload: 'not json' });
      expect(notJson.statusCode).toBe(422);
      expect(notJson.json()).toMatchObject({ ok: false, code: 422 });
      expect(notJson.json().error).toMatch(/^Validation error: /);
    });
  });

});
