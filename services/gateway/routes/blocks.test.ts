import { describe, expect, it } from 'vitest';
import { MANIFEST_BLOCKS, MC_SHARD, b64, b64url, describeGatewaySuites } from '../../../test/helpers/gateway.js';

/*
 * The gateway's blocks: masterchainInfo, blocks, masterchainBlockShards, masterchainBlockShardState
 * (routes/blocks.ts), over a store filled from every real fixture block (test/helpers/gateway.ts
 * describeGatewaySuites: the expected values and where they come from).
 */

describeGatewaySuites('blocks', (s) => {
  const api = s.api;

  // -----------------------------------------------------------------------------------------------------------
  describe('blocks', () => {
    it('masterchainInfo: the lowest and the highest masterchain block', async () => {
      const r = await api('/api/v3/masterchainInfo');
      expect(r.status).toBe(200);
      expect({ first: r.body.first.seqno, last: r.body.last.seqno }).toEqual({ first: 17734191, last: 49383163 });
      // MasterchainInfo is exactly {first, last} (api-v3.md §1.1).
      expect(Object.keys(r.body).sort()).toEqual(['first', 'last']);
      expect(r.body.first.root_hash).toBe(b64(MANIFEST_BLOCKS[0]!.root));
      expect(r.body.first).toMatchObject({ workchain: -1, shard: MC_SHARD, gen_utime: '1642757054', tx_count: 6 });
    });

    it('blocks by id, root hash (hex, 0x, base64, base64url) and file hash: MANIFEST ids and root hashes', async () => {
      for (const m of MANIFEST_BLOCKS) {
        const byId = await api(`/api/v3/blocks?workchain=${m.wc}&shard=${m.shard}&seqno=${m.seqno}`);
        expect(byId.status).toBe(200);
        expect(byId.body.blocks).toHaveLength(1);
        const b = byId.body.blocks[0];
        expect({ wc: b.workchain, shard: b.shard, seqno: b.seqno, utime: b.gen_utime, tx: b.tx_count, root: b.root_hash }).toEqual({
          wc: m.wc,
          shard: m.shard,
          seqno: m.seqno,
          utime: String(m.utime),
          tx: m.tx,
          root: b64(m.root),
        });
        for (const form of [m.root, `0x${m.root}`, m.root.toUpperCase(), b64(m.root), b64url(m.root)]) {
          const r = await api(`/api/v3/blocks?root_hash=${encodeURIComponent(form)}`);
          expect(r.body.blocks.map((x: { seqno: number }) => x.seqno)).toEqual([m.seqno]);
        }
        const f = await api(`/api/v3/blocks?file_hash=${encodeURIComponent(b.file_hash)}`);
        expect(f.body.blocks.map((x: { seqno: number }) => x.seqno)).toEqual([m.seqno]);
      }
    });

    it('BlockInfo fields of the key block and of shard block 52111590 are the upstream values', async () => {
      const k = (await api('/api/v3/blocks?workchain=-1&shard=-9223372036854775808&seqno=46991999')).body.blocks[0];
      expect(k).toMatchObject({
        key_block: true,
        want_merge: true,
        flags: 1,
        vert_seqno: 1,
        gen_utime: '1745112841',
        start_lt: '56255102000000',
        end_lt: '56255102000004',
        // MANIFEST's unsigned 4143742061 as the int32 ton-index-go prints.
        validator_list_hash_short: 4143742061 - 2 ** 32,
        gen_catchain_seqno: 682531,
        min_ref_mc_seqno: 46991995,
        prev_key_block_seqno: 46989053,
        master_ref_seqno: 0,
        masterchain_block_ref: { workchain: -1, shard: MC_SHARD, seqno: 46991999 },
        prev_blocks: [{ workchain: -1, shard: MC_SHARD, seqno: 46991998 }],
      });
      const s = (await api('/api/v3/blocks?workchain=0&shard=0x6000000000000000&seqno=52111590')).body.blocks[0];
      expect(s).toMatchObject({
        key_block: false,
        gen_utime: '1745147839',
        start_lt: '56269616000000',
        end_lt: '56269616000011',
        validator_list_hash_short: 3574137325 - 2 ** 32,
        gen_catchain_seqno: 684420,
        min_ref_mc_seqno: 47004578,
        prev_key_block_seqno: 46991999,
        master_ref_seqno: 47004578,
        prev_blocks: [{ workchain: 0, shard: '6000000000000000', seqno: 52111589 }],
      });
      // After a merge: both parents (tongo ton/block_test.go).
      const m = (await api('/api/v3/blocks?workchain=0&shard=c000000000000000&seqno=13516764')).body.blocks[0];
      expect(m.after_merge).toBe(true);
      expect(m.prev_blocks).toEqual([
        { workchain: 0, shard: 'A000000000000000', seqno: 13516763 },
        { workchain: 0, shard: 'E000000000000000', seqno: 13516699 },
      ]);
    });

    it('blocks: every filter, ANDed; shard in hex, 0x-hex and signed decimal', async () => {
      const seqnos = async (q: string): Promise<number[]> => {
        const r = await api(`/api/v3/blocks?${q}`);
        expect(r.status, q).toBe(200);
        return r.body.blocks.map((b: { seqno: number }) => b.seqno);
      };
      expect(await seqnos('seqno=71398501')).toEqual([71398501]);
      expect(await seqnos('workchain=-1&shard=-9223372036854775808&seqno=24374597')).toEqual([24374597]);
      expect(await seqnos('workchain=-1&shard=8000000000000000&seqno=24374597')).toEqual([24374597]);
      expect(await seqnos('workchain=0&shard=8000000000000000&seqno=24374597')).toEqual([]);
      expect(await seqnos('workchain=-1&limit=100')).toEqual([49383163, 46991999, 34974098, 24374597, 17734191]);
      expect(await seqnos('workchain=0&shard=a000000000000000&limit=100')).toEqual([54302208, 54302203]);
      expect(await seqnos('start_utime=1745112841&end_utime=1751303785&limit=100')).toEqual([49383163, 52111590, 46991999]);
      expect(await seqnos('start_utime=1745112841&end_utime=1751303785&workchain=0')).toEqual([52111590]);
      // start_lt / end_lt both bound start_lt (api-v3.md §1.2).
      expect(await seqnos('start_lt=56255102000000&end_lt=56269616000000&limit=100')).toEqual([52111590, 46991999]);
      expect(await seqnos('start_lt=56255102000001&end_lt=56269616000000')).toEqual([52111590]);
      // The fixtures' shard blocks are stored with mc_block_seqno = master_ref_seqno + 1.
      expect(await seqnos('mc_seqno=47004579')).toEqual([52111590]);
      expect(await seqnos('mc_seqno=17734191')).toEqual([17734191]);
      expect(await seqnos('seqno=-5')).toEqual([]);
    });

    it('blocks: gen_utime desc by default, asc on request (also a/D), limit and offset', async () => {
      const byTime = [...MANIFEST_BLOCKS].sort((a, b) => b.utime - a.utime).map((b) => b.seqno);
      const all = await api('/api/v3/blocks?limit=1000');
      expect(all.body.blocks.map((b: { seqno: number }) => b.seqno)).toEqual(byTime);
      for (const s of ['asc', 'a', 'ASC']) {
        const r = await api(`/api/v3/blocks?limit=1000&sort=${s}`);
        expect(r.body.blocks.map((b: { seqno: number }) => b.seqno)).toEqual([...byTime].reverse());
      }
      expect((await api('/api/v3/blocks?sort=D&limit=3')).body.blocks.map((b: { seqno: number }) => b.seqno)).toEqual(byTime.slice(0, 3));
      // Default limit 10 (api-v3.md §0.6 [spec]).
      expect((await api('/api/v3/blocks')).body.blocks).toHaveLength(10);
      expect((await api('/api/v3/blocks?limit=3&offset=4')).body.blocks.map((b: { seqno: number }) => b.seqno)).toEqual(byTime.slice(4, 7));
      // limit < 1 is 1, offset < 0 is 0.
      expect((await api('/api/v3/blocks?limit=0')).body.blocks).toHaveLength(1);
      expect((await api('/api/v3/blocks?limit=-7&offset=-3')).body.blocks.map((b: { seqno: number }) => b.seqno)).toEqual(byTime.slice(0, 1));
      // Empty values are absent.
      expect((await api('/api/v3/blocks?limit=&seqno=&sort=')).body.blocks).toHaveLength(10);
    });

    it('blocks: errors with TON Center status codes and bodies', async () => {
      const cases: Array<[string, number, string]> = [
        ['limit=1001', 500, 'limit is not allowed: 1001 > 1000'],
        ['sort=up', 500, 'wrong value for sort parameter'],
        ['limit=ten', 422, 'failed to decode: schema: error converting value for "limit"'],
        ['workchain=1.5', 422, 'failed to decode: schema: error converting value for "workchain"'],
        ['seqno=99999999999', 422, 'failed to decode: schema: error converting value for "seqno"'],
        ['shard=xyz', 422, 'failed to decode: schema: error converting value for "shard"'],
        ['root_hash=abcd', 422, 'failed to decode: schema: error converting value for "root_hash"'],
        ['start_utime=-1', 422, 'failed to decode: schema: error converting value for "start_utime"'],
        ['end_lt=1e5', 422, 'failed to decode: schema: error converting value for "end_lt"'],
        // A parse error wins over a builder error, as in the Go server.
        ['limit=5000&shard=xyz', 422, 'failed to decode: schema: error converting value for "shard"'],
        // Every field that fails to convert is counted (gorilla/schema's MultiError); the one named is the first here.
        ['shard=xyz&limit=ten', 422, 'failed to decode: schema: error converting value for "shard" (and 1 other error)'],
        ['seqno=x&end_lt=1e5&limit=ten&shard=xyz', 422, 'failed to decode: schema: error converting value for "shard" (and 3 other errors)'],
      ];
      for (const [q, status, error] of cases) {
        const r = await api(`/api/v3/blocks?${q}`);
        expect({ q, status: r.status, body: r.body }).toEqual({ q, status, body: { error } });
      }
    });

    it('masterchainBlockShards: the blocks a masterchain block commits; 404 when none', async () => {
      const r = await api('/api/v3/masterchainBlockShards?seqno=47004579');
      expect(r.body.blocks.map((b: { workchain: number; seqno: number }) => [b.workchain, b.seqno])).toEqual([[0, 52111590]]);
      const mc = await api('/api/v3/masterchainBlockShards?seqno=24374597&limit=1');
      expect(mc.body.blocks.map((b: { seqno: number }) => b.seqno)).toEqual([24374597]);
      expect(await api('/api/v3/masterchainBlockShards?seqno=1')).toMatchObject({ status: 404, body: { error: 'blocks not found' } });
      expect(await api('/api/v3/masterchainBlockShards')).toMatchObject({ status: 404, body: { error: 'blocks not found' } });
      expect(await api('/api/v3/masterchainBlockShards?seqno=47004579&limit=2000')).toMatchObject({ status: 500 });
    });

    it('masterchainBlockShardState: 404 while the key block\'s shard tips are not stored', async () => {
      expect(await api('/api/v3/masterchainBlockShardState?seqno=46991999')).toMatchObject({ status: 404, body: { error: 'blocks not found' } });
      expect(await api('/api/v3/masterchainBlockShardState')).toMatchObject({ status: 404, body: { error: 'blocks not found' } });
      expect(await api('/api/v3/masterchainBlockShardState?seqno=x')).toMatchObject({ status: 422 });
    });
  });

  // -----------------------------------------------------------------------------------------------------------
  describe('with rows written after the fixtures (these tests change the store)', () => {
    it('masterchainBlockShardState: the key block\'s four shard tips (MANIFEST) once they are stored', async () => {
      const template = s.fx.blocks.find((b) => b.decoded.block.seqno === 52111590)!.rows.blocks[0]!;
      // MANIFEST: shard_hashes wc0 of key block 46991999.
      const tips = [
        { shard: '2000000000000000', seqno: 52077744 },
        { shard: '6000000000000000', seqno: 52097945 },
        { shard: 'A000000000000000', seqno: 51731388 },
        { shard: 'E000000000000000', seqno: 51757085 },
      ];
      await s.fx.store.insert(
        'blocks',
        tips.map((t) => ({ ...template, shard: BigInt('0x' + t.shard).toString(), seqno: t.seqno, mc_block_seqno: 46991999 })),
      );
      const r = await api('/api/v3/masterchainBlockShardState?seqno=46991999');
      expect(r.status).toBe(200);
      expect(r.body.blocks.map((b: { workchain: number; shard: string; seqno: number }) => [b.workchain, b.shard, b.seqno])).toEqual(
        tips.map((t) => [0, t.shard, t.seqno]),
      );
      const shards = await api('/api/v3/masterchainBlockShards?seqno=46991999&limit=100');
      expect(shards.body.blocks.map((b: { seqno: number }) => b.seqno)).toEqual([46991999, ...tips.map((t) => t.seqno)]);
    });

  });
});
