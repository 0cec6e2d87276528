import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cell, beginCell, loadShardAccount } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { friendlyAddress } from '../../services/gateway/address.js';
import { buildApp } from '../../services/gateway/app.js';
import { WALLETS } from '../../services/gateway/wallets.js';
import { decodeTransactionDocument } from '../../shared/contracts/transaction-document.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import { StoreUnavailableError } from '../../shared/store/errors.js';
import { describeClickHouse } from '../helpers/clickhouse.js';
import { describeFixtures, readFixture } from '../helpers/fixtures.js';
import { type GatewayFixture, createGatewayFixture, get, insertRows, silentLogger } from '../helpers/gateway.js';

/*
 * The v3 and v2 endpoints over a store filled from every real fixture block, through fastify inject(). Expected
 * values are the independently stated ones wherever the fixtures have them: MANIFEST.md block ids, root hashes and
 * BlockInfo fields, the tongo expected JSON (transaction hashes, lts, prev hashes, statuses, out message counts),
 * the tonutils (account, lt, now) list of block 71398501 and the pre-block ShardAccounts of its 234 accounts, the
 * well-known user-friendly addresses of the elector and of a ton-core test account. Every response is also checked
 * against its zod schema by the app itself (validateResponses) and against the published OpenAPI document in
 * gateway-openapi.test.ts.
 */

const b64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');
const b64url = (hex: string): string => Buffer.from(hex, 'hex').toString('base64url');
const raw = (wc: number, hex: string): string => `${wc}:${hex.toUpperCase()}`;
const MC_SHARD = '8000000000000000';

/** MANIFEST.md: every fixture block with its seqno, shard, gen_utime and (computed upstream or stated) root hash. */
const MANIFEST_BLOCKS = [
  { wc: -1, shard: MC_SHARD, seqno: 17734191, utime: 1642757054, tx: 6, root: '04c2c26fa7f6f84255d142ff2c4f98666db56879911fc2e83b3a284f20ca48ec' },
  { wc: -1, shard: MC_SHARD, seqno: 24374597, utime: 1666094058, tx: 5, root: '1908d071c508674d205fae80f3793faf9448202166f9189769e45d506d1e0b56' },
  { wc: -1, shard: MC_SHARD, seqno: 34974098, utime: 1703486029, tx: 3, root: 'bdda060f55ae8fb948cb34e1762a4c561ddcc3bed12d517edf24aa01c5a11637' },
  { wc: -1, shard: MC_SHARD, seqno: 46991999, utime: 1745112841, tx: 3, root: 'cbebaa6ac4270c987c90c5ed930ff37f9b73c705999585d6d8c1c5e9fa3dd6e3' },
  { wc: -1, shard: MC_SHARD, seqno: 49383163, utime: 1751303785, tx: 0, root: '4361f91c96b6b770ac0336ce25bbb1118ec5992a6e66d791d20286b3d9860c50' },
  { wc: 0, shard: 'D83800000000000', seqno: 4168601, utime: 1586158624, tx: 0, root: 'ee04f0f82bf1b7f96f441074fb7d6e2b1349b471468c27ff45b149173f8a733b' },
  { wc: 0, shard: '6000000000000000', seqno: 52111590, utime: 1745147839, tx: 30, root: 'd350895e85ffd081f564e5d138f374a9b52b53aee0035b07ce5a5d6388b73b45' },
  { wc: 0, shard: MC_SHARD, seqno: 29836576, utime: 1666094316, tx: 0, root: '129b0f8f95c96555fcd13074ad07ee965fdaa06b29cb5f7aeb45e566b137817b' },
  { wc: 0, shard: MC_SHARD, seqno: 34703989, utime: 1682417974, tx: 7, root: '84753a60efefc7169959fdf34ea21f3fa9f5a85c3a8690db77b1f141e0ff47ee' },
  { wc: 0, shard: MC_SHARD, seqno: 40484416, utime: 1701783346, tx: 479, root: '3e0ec29a7d4a6350193ecc61b3b188aa8ed918fe2c7039735d24e65c18568bbd' },
  { wc: 0, shard: MC_SHARD, seqno: 71398501, utime: 1778681725, tx: 269, root: '244d0a2f58561995bd57943b0db945cb9fa6a5181d501efc334636aa4401c241' },
  { wc: 0, shard: 'A000000000000000', seqno: 54302203, utime: 1751461298, tx: 8, root: '001b96c7f9012c496c0b1d4c19a91ae9947eab7d519041157c7030fe81f2596d' },
  { wc: 0, shard: 'A000000000000000', seqno: 54302208, utime: 1751461310, tx: 11, root: '563d90f5180f129d2e1d5eea6794fecdce9cac3e3b000cd4876068fc5ad1e572' },
  { wc: 0, shard: 'C000000000000000', seqno: 13516764, utime: 1612979175, tx: 449, root: 'f2bd9e70513e9ad395510c37fa075aad0993a0566efd5ec20f3180e4e8e8d68f' },
];

interface TongoTx {
  account: string;
  lt: string;
  prev_trans_hash: string;
  prev_trans_lt: string;
  now: number;
  out: number;
  orig: string;
  end: string;
}

/** tongo's expected JSON of a block: its transactions and sorted hashes, in our wire forms. */
function tongo(file: string, wc: number): { txs: TongoTx[]; hashes: string[] } {
  const d = JSON.parse(readFixture(`blocks/${file}`).toString('utf8')) as {
    Accounts: Record<string, { Transactions: Record<string, Record<string, unknown>> }>;
    TxHashes: string[] | null;
  };
  const txs: TongoTx[] = [];
  for (const [acc, a] of Object.entries(d.Accounts)) {
    for (const t of Object.values(a.Transactions)) {
      txs.push({
        account: raw(wc, acc),
        lt: String(t.Lt),
        prev_trans_hash: b64(String(t.PrevTransHash)),
        prev_trans_lt: String(t.PrevTransLt),
        now: Number(t.Now),
        out: Number(t.OutMsgCnt),
        orig: String(t.OrigStatus),
        end: String(t.EndStatus),
      });
    }
  }
  return { txs, hashes: (d.TxHashes ?? []).map(b64) };
}

const key = (t: { account: string; lt: string }): string => `${t.account}|${t.lt}`;

/**
 * One chdb data directory for every suite of this file: the process has one embedded engine, bound to the first
 * directory it opened; each fixture works in a database of its own inside it.
 */
let sharedDir: string | undefined;
function chdbDir(): string {
  sharedDir ??= mkdtempSync(path.join(os.tmpdir(), 'tonflow-gateway-'));
  return sharedDir;
}
afterAll(() => {
  if (sharedDir) rmSync(sharedDir, { recursive: true, force: true });
});

/** TON Center's transaction order: lt desc (asc), then account ascending. */
function isLtOrdered(txs: Array<{ lt: string; account: string }>, sort: 'asc' | 'desc'): boolean {
  for (let i = 1; i < txs.length; i++) {
    const a = BigInt(txs[i - 1]!.lt);
    const b = BigInt(txs[i]!.lt);
    if (a === b ? txs[i - 1]!.account > txs[i]!.account : sort === 'desc' ? a < b : a > b) return false;
  }
  return true;
}

/**
 * Every endpoint test, over chdb in this process or over a ClickHouse server (`--clickhouse URL`), with the gateway
 * reading transaction records from the MergeTree tables (the default) or from the point tables first.
 */
function gatewaySuite(opts: { clickhouseUrl?: string; pointReads?: boolean } = {}): void {
  let fx: GatewayFixture;
  const api = (url: string, headers?: Record<string, string>) => get(fx.app, url, headers);

  beforeAll(async () => {
    fx = await createGatewayFixture(
      { pointReads: opts.pointReads ?? false },
      opts.clickhouseUrl ? { clickhouseUrl: opts.clickhouseUrl } : { dataDir: chdbDir() },
    );
  });
  afterAll(async () => {
    await fx?.close();
  });

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
  describe('transactions', () => {
    const pageOf = async (q: string) => {
      const r = await api(`/api/v3/transactions?${q}`);
      expect(r.status, `${q}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
      return r;
    };

    it('block 71398501: exactly the tonutils (account, lt, now) list, lt desc then account', async () => {
      const meta = JSON.parse(readFixture('blocks/mainnet_0_8000000000000000_71398501.meta.json').toString('utf8')) as {
        transaction_configs: Array<{ account: string; lt: number; now: number }>;
      };
      const expected = meta.transaction_configs.map((t) => ({ account: t.account.toUpperCase(), lt: String(t.lt), now: t.now }));
      const r = await pageOf('workchain=0&shard=8000000000000000&seqno=71398501&limit=1000');
      const got = r.body.transactions.map((t: { account: string; lt: string; now: number }) => ({ account: t.account, lt: t.lt, now: t.now }));
      expect(got).toHaveLength(269);
      expect(new Set(got.map(key))).toEqual(new Set(expected.map(key)));
      for (const t of got) expect(t.now).toBe(1778681725);
      expect(isLtOrdered(got, 'desc')).toBe(true);
      const asc = await pageOf('workchain=0&shard=8000000000000000&seqno=71398501&limit=1000&sort=asc');
      expect(isLtOrdered(asc.body.transactions, 'asc')).toBe(true);
      for (const t of r.body.transactions) expect(t.block_ref).toEqual({ workchain: 0, shard: MC_SHARD, seqno: 71398501 });
    });

    it('blocks 40484416 and 17734191: tongo hashes, lts, prev hashes, now, statuses and out message counts', async () => {
      for (const [file, q, wc] of [
        ['mainnet_0_8000000000000000_40484416.tongo-expected.json', 'workchain=0&shard=8000000000000000&seqno=40484416', 0],
        ['mainnet_-1_8000000000000000_17734191.tongo-expected.json', 'workchain=-1&shard=8000000000000000&seqno=17734191', -1],
      ] as const) {
        const expected = tongo(file, wc);
        const r = await pageOf(`${q}&limit=1000`);
        const txs = r.body.transactions as Array<Record<string, any>>;
        expect(txs.map((t) => t.hash).sort()).toEqual([...expected.hashes].sort());
        const byKey = new Map(txs.map((t) => [key(t as { account: string; lt: string }), t]));
        expect(txs).toHaveLength(expected.txs.length);
        for (const e of expected.txs) {
          const t = byKey.get(key(e))!;
          expect({
            prev_trans_hash: t.prev_trans_hash,
            prev_trans_lt: t.prev_trans_lt,
            now: t.now,
            out: t.out_msgs.length,
            orig: t.orig_status,
            end: t.end_status,
          }).toEqual({ prev_trans_hash: e.prev_trans_hash, prev_trans_lt: e.prev_trans_lt, now: e.now, out: e.out, orig: e.orig, end: e.end });
        }
      }
    });

    it('account_state_before of each account\'s first transaction in 71398501 is its pre-block ShardAccount', async () => {
      const accounts = JSON.parse(readFixture('states/mainnet_block71398501_prev_shard_accounts.json').toString('utf8')) as Array<{
        account: string;
        account_root_hash: string;
        shard_account_boc_base64: string;
      }>;
      let checked = 0;
      for (const a of accounts) {
        const r = await pageOf(`account=${a.account}&sort=asc&limit=1&start_lt=76734069000000`);
        const t = r.body.transactions[0];
        expect(t.account).toBe(a.account.toUpperCase());
        expect(t.account_state_before.hash).toBe(b64(a.account_root_hash));
        const sa = loadShardAccount(Cell.fromBase64(a.shard_account_boc_base64).beginParse());
        if (t.account_state_before.balance !== null) {
          expect(t.account_state_before.balance).toBe(String(sa.account?.storage.balance.coins ?? 0n));
          checked++;
        }
      }
      // The decoder fills the full state only where the block's state update reveals it.
      expect(checked).toBeGreaterThan(0);
    });

    it('hash in every form, account in every form, repeated and comma-separated accounts', async () => {
      const expected = tongo('mainnet_-1_8000000000000000_17734191.tongo-expected.json', -1);
      const h = 'b442b4478494bfb8e4667156919d03f43a119a9b57e81edfbc47faa2fc7ed849';
      for (const form of [h, `0x${h}`, h.toUpperCase(), b64(h), b64url(h)]) {
        const r = await pageOf(`hash=${encodeURIComponent(form)}`);
        expect(r.body.transactions.map((t: { hash: string }) => t.hash)).toEqual([b64(h)]);
        expect(expected.hashes).toContain(r.body.transactions[0].hash);
      }
      // -1:34517C7B… is Ef80UXx731GHxVr0-LYf3DIViMerdo3uJLAG3ykQZFjXz2kW (ton-core's tick-tock test link).
      const acc = '-1:34517c7bdf5187c55af4f8b61fdc321588c7ab768dee24b006df29106458d7cf';
      const forms = [acc, acc.toUpperCase(), 'Ef80UXx731GHxVr0-LYf3DIViMerdo3uJLAG3ykQZFjXz2kW', 'Ef80UXx731GHxVr0+LYf3DIViMerdo3uJLAG3ykQZFjXz2kW'];
      forms.push(friendlyAddress(raw(-1, acc.slice(3)), { bounceable: false, testnet: false })!);
      forms.push(friendlyAddress(raw(-1, acc.slice(3)), { bounceable: true, testnet: true })!);
      for (const form of forms) {
        const r = await pageOf(`account=${encodeURIComponent(form)}&workchain=-1&seqno=17734191&shard=8000000000000000`);
        expect(r.body.transactions.map((t: { lt: string }) => t.lt)).toEqual(['24836995000003', '24836995000001']);
      }
      const two = `account=${acc}&account=-1:${'3'.repeat(64)}&start_utime=1642757054&end_utime=1642757054`;
      const r2 = await pageOf(two);
      expect(r2.body.transactions.map(key)).toEqual(
        expected.txs
          .filter((t) => t.account === raw(-1, acc.slice(3)) || t.account === raw(-1, '3'.repeat(64)))
          .sort((a, b) => (a.lt === b.lt ? (a.account < b.account ? -1 : 1) : a.lt < b.lt ? 1 : -1))
          .map(key),
      );
      const comma = await pageOf(`account=${acc},-1:${'3'.repeat(64)}&start_utime=1642757054&end_utime=1642757054`);
      expect(comma.body.transactions.map(key)).toEqual(r2.body.transactions.map(key));
      // exclude_account is accepted and ignored, as in the Go server.
      const ex = await pageOf(`${two}&exclude_account=${acc}`);
      expect(ex.body.transactions.map(key)).toEqual(r2.body.transactions.map(key));
    });

    it('lt, lt windows, utime windows, mc_seqno; each sort order', async () => {
      // Exact lt: three accounts share lt 24836995000001 in block 17734191; order lt, then account (S).
      const lt = await pageOf('lt=24836995000001');
      expect(lt.body.transactions.map((t: { account: string }) => t.account)).toEqual([
        raw(-1, '8e421c91a3430717750901caa9754c43c8c63bd2a911194e5d5281f00a84613c'),
        raw(-1, '34517c7bdf5187c55af4f8b61fdc321588c7ab768dee24b006df29106458d7cf'),
        raw(-1, '3333333333333333333333333333333333333333333333333333333333333333'),
      ]);
      const ltAsc = await pageOf('lt=24836995000001&sort=asc');
      expect(ltAsc.body.transactions.map((t: { account: string }) => t.account)).toEqual([...lt.body.transactions.map((t: { account: string }) => t.account)].reverse());

      const win = await pageOf('start_lt=24836995000000&end_lt=24836995000004&limit=100');
      expect(win.body.transactions.map((t: { hash: string }) => t.hash).sort()).toEqual(
        tongo('mainnet_-1_8000000000000000_17734191.tongo-expected.json', -1).hashes.sort(),
      );
      expect(isLtOrdered(win.body.transactions, 'desc')).toBe(true);

      // utime window = block 52111590's gen_utime: its 30 transactions, ordered now, lt desc.
      const ut = await pageOf('start_utime=1745147839&end_utime=1745147839&limit=100');
      expect(ut.body.transactions).toHaveLength(30);
      for (const t of ut.body.transactions) expect(t.block_ref.seqno).toBe(52111590);
      expect(isLtOrdered(ut.body.transactions, 'desc')).toBe(true);
      const utAsc = await pageOf('start_utime=1745147839&end_utime=1745147839&limit=100&sort=asc');
      expect(isLtOrdered(utAsc.body.transactions, 'asc')).toBe(true);
      // A utime window spanning two blocks: ordered by now first.
      const two = await pageOf('start_utime=1745112841&end_utime=1745147839&limit=100&sort=asc');
      expect(two.body.transactions.map((t: { now: number }) => t.now)).toEqual([...Array(3).fill(1745112841), ...Array(30).fill(1745147839)]);

      const mc = await pageOf('mc_seqno=17734191&limit=100');
      expect(mc.body.transactions).toHaveLength(6);
      // The order is the last filter's in ton-index-go's sequence (utime, mc_seqno, one account, hash, exact lt;
      // repo/order.test.ts): an exact lt orders by account in the requested direction, with accounts or utimes too.
      const sameLt = mc.body.transactions.find((t: { lt: string }) => mc.body.transactions.filter((u: { lt: string }) => u.lt === t.lt).length > 1);
      expect(sameLt).toBeDefined();
      const peers = mc.body.transactions.filter((t: { lt: string }) => t.lt === sameLt.lt).map((t: { account: string }) => t.account).sort();
      const accountsQ = peers.map((a: string) => `account=${encodeURIComponent(a)}`).join('&');
      for (const extra of [accountsQ, 'start_utime=1', `${accountsQ}&start_utime=1`]) {
        const desc = await pageOf(`lt=${sameLt.lt}&${extra}`);
        expect(desc.body.transactions.map((t: { account: string }) => t.account)).toEqual([...peers].reverse());
        const asc = await pageOf(`lt=${sameLt.lt}&${extra}&sort=asc`);
        expect(asc.body.transactions.map((t: { account: string }) => t.account)).toEqual(peers);
      }
      expect(await api('/api/v3/transactions?mc_seqno=47004579')).toEqual(
        expect.objectContaining({ status: 404, body: { error: 'masterchain block 47004579 not found' } }),
      );
      // Latest transactions without any filter: the newest lts of the store.
      const latest = await pageOf('limit=5');
      expect(latest.body.transactions.every((t: { block_ref: { seqno: number } }) => t.block_ref.seqno === 71398501)).toBe(true);
      expect(isLtOrdered(latest.body.transactions, 'desc')).toBe(true);
      const oldest = await pageOf('limit=5&sort=asc');
      expect(oldest.body.transactions.every((t: { block_ref: { seqno: number } }) => t.block_ref.seqno === 13516764)).toBe(true);
      // workchain alone narrows the latest ones.
      const mcOnly = await pageOf('workchain=-1&limit=100');
      expect(mcOnly.body.transactions.every((t: { account: string }) => t.account.startsWith('-1:'))).toBe(true);
      expect(mcOnly.body.transactions).toHaveLength(6 + 5 + 3 + 3);
    });

    it('offset paging and keyset cursors walk the same listing', async () => {
      const q = 'workchain=0&shard=8000000000000000&seqno=40484416';
      const all = (await pageOf(`${q}&limit=1000`)).body.transactions.map(key);
      const byOffset: string[] = [];
      for (let off = 0; off < all.length; off += 100) byOffset.push(...(await pageOf(`${q}&limit=100&offset=${off}`)).body.transactions.map(key));
      expect(byOffset).toEqual(all);
      const byCursor: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 20; i++) {
        const r = await pageOf(`${q}&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
        byCursor.push(...r.body.transactions.map(key));
        cursor = r.headers['x-next-cursor'] as string | undefined;
        if (!cursor) break;
      }
      expect(byCursor).toEqual(all);
      // The last page has no cursor; a cursor is refused with another sort, and garbage is refused.
      const c = (await pageOf(`${q}&limit=10`)).headers['x-next-cursor'] as string;
      expect((await api(`/api/v3/transactions?${q}&limit=10&sort=asc&cursor=${c}`)).status).toBe(422);
      expect(await api(`/api/v3/transactions?${q}&cursor=bm9wZQ`)).toMatchObject({ status: 422, body: { error: 'invalid cursor' } });
      // A hash names its transaction outright, with an exact lt too: no cursor to follow (it would repeat the page).
      const one = (await pageOf(`${q}&limit=1`)).body.transactions[0];
      const byHash = await pageOf(`hash=${encodeURIComponent(one.hash)}&lt=${one.lt}&limit=1`);
      expect(byHash.body.transactions.map(key)).toEqual([key(one)]);
      expect(byHash.headers['x-next-cursor']).toBeUndefined();
    });

    it('address book: every account, in_msg source and out_msg destination, TON Center bounceable rule', async () => {
      const r = await pageOf('workchain=0&shard=8000000000000000&seqno=71398501&limit=1000');
      const expected = new Set<string>();
      for (const t of r.body.transactions) {
        expected.add(t.account);
        if (t.in_msg?.source) expected.add(t.in_msg.source);
        for (const m of t.out_msgs) if (m.destination) expected.add(m.destination);
      }
      expect(new Set(Object.keys(r.body.address_book))).toEqual(expected);
      let wallets = 0;
      for (const t of r.body.transactions) {
        const entry = r.body.address_book[t.account];
        const code = t.account_state_after.code_hash as string | null;
        if (code === null) continue;
        const wallet = WALLETS.get(code);
        // Non-bounceable (UQ…) for wallet codes, bounceable (EQ…) for any other code.
        expect(entry.user_friendly.slice(0, 2), t.account).toBe(wallet ? 'UQ' : 'EQ');
        expect(entry.interfaces).toEqual(wallet ? [wallet.iface] : code === 'EayteVWEQJDyg78ji8FEmHH3g+fMCXlAjT9IWUg+hSU=' ? ['wallet_highload_v3r1'] : []);
        expect(entry.domain).toBeNull();
        if (wallet) wallets++;
      }
      expect(wallets).toBeGreaterThan(50);
      // The elector, a well-known bounceable address.
      const e = await pageOf('account=-1:3333333333333333333333333333333333333333333333333333333333333333&limit=1');
      expect(e.body.address_book['-1:3333333333333333333333333333333333333333333333333333333333333333'].user_friendly).toBe(
        'Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF',
      );
      // An address never seen (a destination of a bounced message) is non-bounceable.
      for (const [url, h] of [
        ['/api/v3/transactions?limit=1', { 'x-no-address-book': '1' }],
        ['/api/v3/transactions?limit=1&x_no_address_book=true', {}],
      ] as const) {
        const n = await api(url, h);
        expect(n.body.address_book).toEqual({});
        expect(n.body.transactions).toHaveLength(1);
      }
    });

    it('transactionsByMasterchainBlock', async () => {
      const r = await api('/api/v3/transactionsByMasterchainBlock?seqno=17734191&limit=100');
      expect(r.status).toBe(200);
      expect(r.body.transactions.map((t: { hash: string }) => t.hash).sort()).toEqual(
        tongo('mainnet_-1_8000000000000000_17734191.tongo-expected.json', -1).hashes.sort(),
      );
      expect(isLtOrdered(r.body.transactions, 'desc')).toBe(true);
      const asc = await api('/api/v3/transactionsByMasterchainBlock?seqno=17734191&limit=2&offset=1&sort=asc');
      const ascAll = [...r.body.transactions].sort((a: { lt: string; account: string }, b: { lt: string; account: string }) =>
        a.lt === b.lt ? (a.account < b.account ? -1 : 1) : BigInt(a.lt) < BigInt(b.lt) ? -1 : 1,
      );
      expect(asc.body.transactions.map(key)).toEqual(ascAll.slice(1, 3).map(key));
      expect(await api('/api/v3/transactionsByMasterchainBlock?seqno=47004579')).toMatchObject({
        status: 404,
        body: { error: 'masterchain block 47004579 not found' },
      });
      expect(await api('/api/v3/transactionsByMasterchainBlock')).toMatchObject({ status: 404, body: { error: 'masterchain block 0 not found' } });
      expect(await api('/api/v3/transactionsByMasterchainBlock?seqno=17734191&sort=sideways')).toMatchObject({ status: 500 });
    });

    it('descriptions as ton-index-go prints them: no empty credit_extra_currencies, gas_fees/gas_used swapped when fees < gas', async () => {
      type Descr = { credit_ph?: { credit_extra_currencies?: Record<string, string> }; compute_ph?: { gas_fees?: string; gas_used?: string } };
      const stored = new Map(fx.blocks.flatMap((b) => b.rows.transactions).map((t) => [t.hash, JSON.parse(t.description) as Descr]));
      let swapped = 0;
      let credits = 0;
      for (const wc of ['-1', '0']) {
        const page = await pageOf(`workchain=${wc}&limit=1000`);
        for (const t of page.body.transactions as Array<{ hash: string; description: Descr }>) {
          const d = stored.get(t.hash)!;
          if (d.credit_ph) {
            credits++;
            const empty = Object.keys(d.credit_ph.credit_extra_currencies ?? {}).length === 0;
            expect('credit_extra_currencies' in t.description.credit_ph!).toBe(!empty);
          }
          const c = d.compute_ph;
          if (c?.gas_fees === undefined) continue;
          const swap = BigInt(c.gas_fees) < BigInt(c.gas_used!);
          if (swap) swapped++;
          expect(t.description.compute_ph).toMatchObject(swap ? { gas_fees: c.gas_used, gas_used: c.gas_fees } : { gas_fees: c.gas_fees, gas_used: c.gas_used });
        }
      }
      // The fixtures hold both cases: masterchain system transactions run with free gas.
      expect(swapped).toBeGreaterThan(0);
      expect(credits).toBeGreaterThan(0);
    });

    it('transaction errors', async () => {
      const cases: Array<[string, number, string]> = [
        ['account=nope', 422, 'failed to decode: schema: error converting value for index 0 of "account"'],
        ['account=-1:3333333333333333333333333333333333333333333333333333333333333333&account=EQBad', 422, 'failed to decode: schema: error converting value for index 1 of "account"'],
        // A user-friendly address with a broken checksum.
        ['account=Ef80UXx731GHxVr0-LYf3DIViMerdo3uJLAG3ykQZFjXz2kX', 422, 'failed to decode: schema: error converting value for index 0 of "account"'],
        ['hash=1234', 422, 'failed to decode: schema: error converting value for "hash"'],
        ['lt=abc', 422, 'failed to decode: schema: error converting value for "lt"'],
        ['limit=1001', 500, 'limit is not allowed: 1001 > 1000'],
        ['sort=random', 500, 'wrong value for sort parameter'],
        ['mc_seqno=12', 404, 'masterchain block 12 not found'],
      ];
      for (const [q, status, error] of cases) {
        const r = await api(`/api/v3/transactions?${q}`);
        expect({ q, status: r.status, body: r.body }).toEqual({ q, status, body: { error } });
      }
    });
  });

  // -----------------------------------------------------------------------------------------------------------
  describe('messages and adjacency', () => {
    // Block 52111590: 0:662553…'s transaction at lt 56269616000001 sends a jetton_notify to 0:7EB13F…, received at lt
    // 56269616000003 (both in the block).
    const SENDER = '0:662553701B106DA52C4D5AF9A59E5A0BAF0B718430197F769669319F53CBAE57';
    const RECEIVER = '0:7EB13F9151FA0D952DB6CD190D5BD4DFE414E0449B96470E626E152FA16C0315';
    let parent: any;
    let child: any;
    let msg: any;

    beforeAll(async () => {
      parent = (await api(`/api/v3/transactions?account=${SENDER}&lt=56269616000001`)).body.transactions[0];
      child = (await api(`/api/v3/transactions?account=${RECEIVER}&lt=56269616000003`)).body.transactions[0];
      msg = child.in_msg;
    });

    it('the pair is linked by one message hash', () => {
      expect(parent.out_msgs.map((m: { hash: string }) => m.hash)).toContain(msg.hash);
      expect(msg).toMatchObject({ source: SENDER, destination: RECEIVER, opcode: '0x7362d09c', decoded_opcode: 'jetton_notify' });
    });

    it('transactionsByMessage: both sides, each direction, by body hash and by opcode in every form', async () => {
      const hex = Buffer.from(msg.hash, 'base64').toString('hex');
      for (const form of [msg.hash, hex, `0x${hex}`, Buffer.from(hex, 'hex').toString('base64url')]) {
        const r = await api(`/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(form)}`);
        expect(r.status).toBe(200);
        expect(r.body.transactions.map((t: { hash: string }) => t.hash)).toEqual([child.hash, parent.hash]);
      }
      const inOnly = await api(`/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(msg.hash)}&direction=in`);
      expect(inOnly.body.transactions.map((t: { hash: string }) => t.hash)).toEqual([child.hash]);
      const outOnly = await api(`/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(msg.hash)}&direction=out`);
      expect(outOnly.body.transactions.map((t: { hash: string }) => t.hash)).toEqual([parent.hash]);
      const byBody = await api(`/api/v3/transactionsByMessage?body_hash=${encodeURIComponent(msg.message_content.hash)}&limit=1000`);
      expect(byBody.body.transactions.map((t: { hash: string }) => t.hash)).toEqual(expect.arrayContaining([child.hash, parent.hash]));
      // MANIFEST ops: 8 jetton_transfer in messages in 71398501 and 1 in 40484416; nft_transfer 1 + 2.
      for (const op of ['0x0f8a7ea5', 'f8a7ea5', '0F8A7EA5', '260734629']) {
        const r = await api(`/api/v3/transactionsByMessage?opcode=${op}&limit=100`);
        expect(r.body.transactions, op).toHaveLength(9);
        for (const t of r.body.transactions) expect(t.in_msg.opcode).toBe('0x0f8a7ea5');
      }
      const nft = await api('/api/v3/transactionsByMessage?opcode=0x5fcc3d14&limit=100');
      expect(nft.body.transactions).toHaveLength(3);
      // opcode implies the receiving side with any other filter too (api-v3.md §1.7): the body hash of the message
      // above names its sender and its receiver, with its opcode only the receiver; direction=out then matches nothing.
      const op = msg.opcode as string;
      const bodyOp = await api(`/api/v3/transactionsByMessage?body_hash=${encodeURIComponent(msg.message_content.hash)}&opcode=${op}&limit=1000`);
      expect(bodyOp.body.transactions.map((t: { hash: string }) => t.hash)).toContain(child.hash);
      expect(bodyOp.body.transactions.map((t: { hash: string }) => t.hash)).not.toContain(parent.hash);
      for (const t of bodyOp.body.transactions) expect(t.in_msg.message_content.hash).toBe(msg.message_content.hash);
      const opOut = await api(`/api/v3/transactionsByMessage?opcode=${op}&direction=out&limit=100`);
      expect(opOut).toMatchObject({ status: 200, body: { transactions: [] } });
      const hashOp = await api(`/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(msg.hash)}&opcode=${op}`);
      expect(hashOp.body.transactions.map((t: { hash: string }) => t.hash)).toEqual([child.hash]);
      // A bare "10" is hex 0x10, not decimal ten (api-v3.md §0.3); 0xffffffff is the signed -1.
      expect((await api('/api/v3/transactionsByMessage?opcode=-1')).status).toBe(200);
      const bounce = await api('/api/v3/transactionsByMessage?opcode=0xffffffff&limit=100');
      const bounceDec = await api('/api/v3/transactionsByMessage?opcode=-1&limit=100');
      expect(bounce.body.transactions.map(key)).toEqual(bounceDec.body.transactions.map(key));
      const paged = await api('/api/v3/transactionsByMessage?opcode=0x0f8a7ea5&limit=4&offset=2');
      const full = await api('/api/v3/transactionsByMessage?opcode=0x0f8a7ea5&limit=100');
      expect(paged.body.transactions.map(key)).toEqual(full.body.transactions.slice(2, 6).map(key));
      expect(await api('/api/v3/transactionsByMessage')).toMatchObject({
        status: 422,
        body: { error: 'at least one of msg_hash, body_hash, opcode should be specified' },
      });
      // The Go handler asks for a filter before its query builder rejects limit or sort (500).
      expect(await api('/api/v3/transactionsByMessage?limit=2000&sort=up')).toMatchObject({
        status: 422,
        body: { error: 'at least one of msg_hash, body_hash, opcode should be specified' },
      });
      expect(await api('/api/v3/transactionsByMessage?opcode=1&limit=2000')).toMatchObject({
        status: 500,
        body: { error: 'limit is not allowed: 2000 > 1000' },
      });
      expect(await api('/api/v3/transactionsByMessage?opcode=xyz')).toMatchObject({ status: 422 });
      expect(await api('/api/v3/transactionsByMessage?opcode=0x123456789')).toMatchObject({ status: 422 });
      expect(await api('/api/v3/transactionsByMessage?msg_hash=abc')).toMatchObject({ status: 422 });
    });

    it('transactionsByMessage finds an external message by its normalized hash', async () => {
      const ext = (await api('/api/v3/messages?source=null&limit=100')).body.messages.find((m: { hash_norm?: string }) => m.hash_norm);
      expect(ext).toBeDefined();
      const byRaw = await api(`/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(ext.hash)}`);
      const byNorm = await api(`/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(ext.hash_norm)}`);
      expect(byRaw.body.transactions).toHaveLength(1);
      expect(byNorm.body.transactions.map(key)).toEqual(byRaw.body.transactions.map(key));
      expect(byRaw.body.transactions[0].in_msg.hash).toBe(ext.hash);
    });

    it('adjacentTransactions: parent, children, both; 404 when none', async () => {
      const up = await api(`/api/v3/adjacentTransactions?hash=${encodeURIComponent(child.hash)}&direction=in`);
      expect(up.body.transactions.map((t: { hash: string }) => t.hash)).toEqual([parent.hash]);
      const down = await api(`/api/v3/adjacentTransactions?hash=${encodeURIComponent(parent.hash)}&direction=out`);
      expect(down.body.transactions.map((t: { hash: string }) => t.hash)).toContain(child.hash);
      for (const t of down.body.transactions) expect(parent.out_msgs.map((m: { hash: string }) => m.hash)).toContain(t.in_msg.hash);
      const both = await api(`/api/v3/adjacentTransactions?hash=${encodeURIComponent(child.hash)}`);
      expect(both.body.transactions[0].hash).toBe(parent.hash);
      expect(both.body.transactions.map((t: { lt: string }) => BigInt(t.lt))).toEqual(
        [...both.body.transactions.map((t: { lt: string }) => BigInt(t.lt))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      );
      // Any other direction is both: the Go handler tests only for in and out.
      const other = await api(`/api/v3/adjacentTransactions?hash=${encodeURIComponent(child.hash)}&direction=both`);
      expect(other.body.transactions.map(key)).toEqual(both.body.transactions.map(key));
      // A tick-tock transaction has neither.
      const lonely = b64('9c953c51e6cb6388e5ccd6690b94d11326f5a254dfb69fc566a674a527de810f');
      expect(await api(`/api/v3/adjacentTransactions?hash=${encodeURIComponent(lonely)}`)).toMatchObject({
        status: 404,
        body: { error: 'adjacent transactions not found' },
      });
      expect(await api('/api/v3/adjacentTransactions')).toMatchObject({ status: 404 });
      expect(await api('/api/v3/adjacentTransactions?hash=x')).toMatchObject({ status: 422 });
    });

    it('messages: by hash (with both transactions), alias, repeated keys', async () => {
      const r = await api(`/api/v3/messages?msg_hash=${encodeURIComponent(msg.hash)}`);
      expect(r.body.messages).toHaveLength(1);
      const m = r.body.messages[0];
      expect(m).toMatchObject({ hash: msg.hash, in_msg_tx_hash: child.hash, out_msg_tx_hash: parent.hash, source: SENDER, destination: RECEIVER });
      expect(m.message_content).toEqual(msg.message_content);
      expect(Object.keys(r.body.address_book).sort()).toEqual([SENDER, RECEIVER].sort());
      expect(r.body.metadata).toEqual({});
      const alias = await api(`/api/v3/messages?hash=${Buffer.from(msg.hash, 'base64').toString('hex')}`);
      expect(alias.body.messages).toEqual(r.body.messages);
      const other = parent.out_msgs.find((x: { hash: string }) => x.hash !== msg.hash) ?? parent.in_msg;
      const two = await api(`/api/v3/messages?msg_hash=${encodeURIComponent(msg.hash)}&msg_hash=${encodeURIComponent(other.hash)}`);
      expect(two.body.messages.map((x: { hash: string }) => x.hash).sort()).toEqual([msg.hash, other.hash].sort());
      const inSide = await api(`/api/v3/messages?msg_hash=${encodeURIComponent(msg.hash)}&direction=in`);
      expect(inSide.body.messages[0].in_msg_tx_hash).toBe(child.hash);
      expect(inSide.body.messages[0].out_msg_tx_hash).toBeUndefined();
    });

    it('messages: source, destination, null sides, opcode, lt and utime windows, externals', async () => {
      const all = async (q: string) => {
        const r = await api(`/api/v3/messages?${q}&limit=1000`);
        expect(r.status, q).toBe(200);
        return r.body.messages as Array<Record<string, any>>;
      };
      const fromSender = await all(`source=${SENDER}`);
      expect(fromSender.length).toBe(parent.out_msgs.length);
      for (const m of fromSender) expect(m.source).toBe(SENDER);
      const friendly = friendlyAddress(SENDER, { bounceable: true, testnet: false })!;
      expect((await all(`source=${friendly}`)).map((m) => m.hash)).toEqual(fromSender.map((m) => m.hash));
      const toReceiver = await all(`destination=${RECEIVER}`);
      expect(toReceiver.map((m) => m.hash)).toContain(msg.hash);
      // source=null: external-in messages; destination=null: external-out (log) messages. MANIFEST-independent
      // count check: every external-in message is the in_msg of exactly one transaction.
      const extIn = await all('source=null');
      expect(extIn.length).toBeGreaterThan(50);
      for (const m of extIn) expect({ source: m.source, created_lt: m.created_lt, out: m.out_msg_tx_hash }).toEqual({ source: null, created_lt: null, out: undefined });
      const logs = await all('destination=null');
      expect(logs).toHaveLength(3);
      for (const m of logs) expect(m.destination).toBeNull();
      expect((await all('only_externals=true')).map((m) => m.hash).sort()).toEqual(extIn.map((m) => m.hash).sort());
      expect((await all('exclude_externals=1&source=null'))).toEqual([]);
      const ops = await all('opcode=0x7362d09c');
      for (const m of ops) expect(m.opcode).toBe('0x7362d09c');
      expect(ops.map((m) => m.hash)).toContain(msg.hash);
      const lts = await all('start_lt=56269616000002&end_lt=56269616000002');
      for (const m of lts) expect(m.created_lt).toBe('56269616000002');
      expect(lts.map((m) => m.hash)).toContain(msg.hash);
      const ut = await all('start_utime=1745147839&end_utime=1745147839');
      for (const m of ut) expect(m.created_at).toBe('1745147839');
      // Exactly the messages created in block 52111590 (the only block of that second), seen from its transactions.
      const blockTxs = (await api('/api/v3/transactions?workchain=0&shard=6000000000000000&seqno=52111590&limit=100')).body.transactions;
      const created = new Set<string>();
      for (const t of blockTxs) for (const m of [t.in_msg, ...t.out_msgs]) if (m && m.created_at === '1745147839') created.add(m.hash);
      expect(new Set(ut.map((m) => m.hash))).toEqual(created);
      // created_lt desc by default, asc on request; hash breaks ties.
      const desc = await all('start_utime=1745147839&end_utime=1745147839&direction=out');
      for (let i = 1; i < desc.length; i++) expect(desc[i - 1]!.created_at >= desc[i]!.created_at).toBe(true);
      const byLt = await all('start_lt=56269616000000&end_lt=56269616000011');
      const ltKeys = byLt.map((m) => BigInt(m.created_lt));
      expect(ltKeys).toEqual([...ltKeys].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
      const byLtAsc = await all('start_lt=56269616000000&end_lt=56269616000011&sort=asc');
      expect(byLtAsc.map((m) => BigInt(m.created_lt))).toEqual([...ltKeys].reverse());
    });

    it('messages: offset and cursor pages agree; errors', async () => {
      const q = 'start_lt=1';
      const all = (await api(`/api/v3/messages?${q}&limit=1000`)).body.messages.map((m: { hash: string }) => m.hash);
      expect(all.length).toBe(1000);
      const byCursor: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 100; i++) {
        const r = await api(`/api/v3/messages?${q}&limit=97${cursor ? `&cursor=${cursor}` : ''}`);
        byCursor.push(...r.body.messages.map((m: { hash: string }) => m.hash));
        cursor = r.headers['x-next-cursor'] as string | undefined;
        if (!cursor) break;
      }
      expect(byCursor.slice(0, 1000)).toEqual(all);
      expect(new Set(byCursor).size).toBe(byCursor.length);
      const byOffset: string[] = [];
      for (let off = 0; ; off += 1000) {
        const page = (await api(`/api/v3/messages?${q}&limit=1000&offset=${off}`)).body.messages.map((m: { hash: string }) => m.hash);
        byOffset.push(...page);
        if (page.length < 1000) break;
      }
      expect(byCursor).toEqual(byOffset);
      const page3 = await api(`/api/v3/messages?${q}&limit=97&offset=194`);
      expect(page3.body.messages.map((m: { hash: string }) => m.hash)).toEqual(all.slice(194, 291));
      const cases: Array<[string, number, string]> = [
        ['source=xyz', 422, 'failed to decode: schema: error converting value for "source"'],
        ['msg_hash=zz', 422, 'failed to decode: schema: error converting value for index 0 of "msg_hash"'],
        ['exclude_externals=maybe', 422, 'failed to decode: schema: error converting value for "exclude_externals"'],
        ['limit=1001', 500, 'limit is not allowed: 1001 > 1000'],
        ['sort=none', 500, 'wrong value for sort parameter'],
      ];
      // A direction no message side has is not refused: TON Center compares it literally, so nothing matches.
      expect(await api('/api/v3/messages?direction=both')).toMatchObject({ status: 200, body: { messages: [] } });
      expect(await api(`/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(all[0]!)}&direction=both`)).toMatchObject({
        status: 200,
        body: { transactions: [] },
      });
      expect((await api(`/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(all[0]!)}`)).body.transactions.length).toBeGreaterThan(0);
      for (const [qq, status, error] of cases) {
        const r = await api(`/api/v3/messages?${qq}`);
        expect({ qq, status: r.status, body: r.body }).toEqual({ qq, status, body: { error } });
      }
    });
  });

  // -----------------------------------------------------------------------------------------------------------
  describe('accounts', () => {
    const ELECTOR = '-1:3333333333333333333333333333333333333333333333333333333333333333';

    it('accountStates: the latest state, in any address form; unknown accounts absent', async () => {
      const r = await api(`/api/v3/accountStates?address=${ELECTOR}&address=Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF&address=0:${'12'.repeat(32)}`);
      expect(r.status).toBe(200);
      expect(r.body.accounts).toHaveLength(1);
      const a = r.body.accounts[0];
      expect(a).toMatchObject({ address: ELECTOR, status: 'active', contract_methods: null, interfaces: [] });
      // The elector's newest transaction among the fixtures is in key block 46991999 (lt 56255102000002).
      expect(a.last_transaction_lt).toBe('56255102000002');
      const tx = (await api(`/api/v3/transactions?account=${ELECTOR}&limit=1`)).body.transactions[0];
      expect({ hash: a.last_transaction_hash, state: a.account_state_hash, balance: a.balance, code: a.code_hash, data: a.data_hash }).toEqual({
        hash: tx.hash,
        state: tx.account_state_after.hash,
        balance: tx.account_state_after.balance,
        code: tx.account_state_after.code_hash,
        data: tx.account_state_after.data_hash,
      });
      // Blocks prune code and data: no BoCs to include yet.
      expect(a.code_boc).toBeUndefined();
      expect(r.body.address_book[ELECTOR].user_friendly).toBe('Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF');
      expect(r.body.metadata).toEqual({});
    });

    it('accountStates / walletStates errors', async () => {
      for (const ep of ['accountStates', 'walletStates']) {
        expect(await api(`/api/v3/${ep}`)).toMatchObject({ status: 422, body: { error: 'address of account is required' } });
        expect(await api(`/api/v3/${ep}?address=`)).toMatchObject({ status: 422, body: { error: 'address of account is required' } });
        expect(await api(`/api/v3/${ep}?address=bad`)).toMatchObject({
          status: 422,
          body: { error: 'failed to decode: schema: error converting value for index 0 of "address"' },
        });
        // More than 1000 addresses is no error (api-v3.md §2.1: a cap of 1000 rows, no error on the live server).
        const many = Array.from({ length: 1001 }, (_, i) => `address=0:${i.toString(16).padStart(64, '0')}`).join('&');
        expect(await api(`/api/v3/${ep}?${many}&address=${ELECTOR}`)).toMatchObject({ status: 200 });
      }
    });

    it('accountStates / walletStates answer a store failure with 422 (api-v3.md §2.1, §2.2 "same validation"), blocks with 500; a v2 timeout is 504', async () => {
      const down = new StoreUnavailableError('STORE_UNAVAILABLE', 'store unreachable');
      const store = new Proxy(fx.store, { get: (t, p, r) => (p === 'query' ? () => Promise.reject(down) : Reflect.get(t, p, r)) });
      const app = await buildApp({
        store,
        logger: silentLogger(),
        metrics: createMetrics({ service: 'gateway', processMetrics: false }),
        config: { apiKeys: [], rpsWithoutKey: 0, testnet: false, validateResponses: true, responseCacheEntries: 0 },
      });
      try {
        for (const ep of ['accountStates', 'walletStates']) {
          expect(await get(app, `/api/v3/${ep}?address=${ELECTOR}`), ep).toMatchObject({
            status: 422,
            body: { error: 'internal server error: STORE_UNAVAILABLE' },
          });
        }
        expect((await get(app, '/api/v3/blocks?workchain=-1&seqno=46991999')).status).toBe(500);
      } finally {
        await app.close();
      }
      // A store timeout: 504 in v2 (its "liteserver timeout", api-v2.md §1), 500 in v3.
      const late = new StoreUnavailableError('STORE_TIMEOUT', 'query timed out');
      const slow = new Proxy(fx.store, { get: (t, p, r) => (p === 'query' ? () => Promise.reject(late) : Reflect.get(t, p, r)) });
      const app2 = await buildApp({
        store: slow,
        logger: silentLogger(),
        metrics: createMetrics({ service: 'gateway', processMetrics: false }),
        config: { apiKeys: [], rpsWithoutKey: 0, testnet: false, validateResponses: true, responseCacheEntries: 0 },
      });
      try {
        expect(await get(app2, '/api/v2/getMasterchainInfo')).toMatchObject({ status: 504, body: { ok: false, code: 504, error: 'LITE_SERVER_NETWORK timeout' } });
        expect((await get(app2, '/api/v3/masterchainInfo')).status).toBe(500);
      } finally {
        await app2.close();
      }
    });

    it('walletStates: wallet type from the code hash; is_wallet false for other contracts', async () => {
      const states = fx.blocks.flatMap((b) => b.rows.latest_account_states);
      const v4 = states.find((s) => s.code_hash === '/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA=')!;
      const v5 = states.find((s) => s.code_hash === 'IINLe3KxEhR+Gy+0V7hOdNGjDwT3N9T2KmaOlVLSty8=')!;
      const r = await api(`/api/v3/walletStates?address=${v4.account}&address=${v5.account}&address=${ELECTOR}`);
      const byAddr = new Map(r.body.wallets.map((w: { address: string }) => [w.address, w]));
      expect(byAddr.get(v4.account)).toMatchObject({ is_wallet: true, wallet_type: 'wallet v4 r2', status: 'active', code_hash: v4.code_hash });
      expect(byAddr.get(v5.account)).toMatchObject({ is_wallet: true, wallet_type: 'wallet v5 r1' });
      expect(byAddr.get(ELECTOR)).toMatchObject({ is_wallet: false, status: 'active' });
      expect(byAddr.get(ELECTOR)).not.toHaveProperty('wallet_type');
      // Where the block's state update holds a wallet's data cell whole, the store has it and seqno / wallet_id
      // come from it (v4r2 data: seqno:uint32 subwallet_id:uint32 …, read here with @ton/core); without it they
      // are omitted.
      for (const s of [v4, v5]) {
        const w = byAddr.get(s.account) as Record<string, unknown>;
        if (s.data_boc === null) {
          expect(w).not.toHaveProperty('seqno');
          continue;
        }
        const d = Cell.fromBase64(s.data_boc).beginParse();
        if (s === v5) d.loadBit();
        expect(w.seqno).toBe(d.loadUint(32));
        expect(w.wallet_id).toBe(d.loadUint(32));
      }
      expect(states.filter((s) => s.code_hash === v4.code_hash && s.data_boc !== null).length).toBeGreaterThan(0);
      expect(r.body.address_book[v4.account].user_friendly.startsWith('UQ')).toBe(true);
    });

    it('walletStates / walletInformation parse seqno, wallet_id and is_signature_allowed from a data cell', async () => {
      // A source with full states (a liteserver) writes data_boc: take the real pre-block states of two wallets.
      const accounts = JSON.parse(readFixture('states/mainnet_block71398501_prev_shard_accounts.json').toString('utf8')) as Array<{
        account: string;
        shard_account_boc_base64: string;
      }>;
      const found: Array<{ address: string; code: string; data: Cell }> = [];
      for (const a of accounts) {
        const sa = loadShardAccount(Cell.fromBase64(a.shard_account_boc_base64).beginParse());
        const st = sa.account?.storage.state;
        if (st?.type !== 'active' || !st.state.code || !st.state.data) continue;
        const code = st.state.code.hash().toString('base64');
        if (WALLETS.has(code) && !found.some((f) => f.code === code)) found.push({ address: a.account.toUpperCase(), code, data: st.state.data });
      }
      expect(found.length).toBeGreaterThanOrEqual(2);
      const rows = found.map((f, i) => ({
        account: f.address,
        account_state_hash: b64('ab'.repeat(32)),
        last_trans_lt: String(90_000_000_000_000_000n + BigInt(i)),
        last_trans_hash: b64('cd'.repeat(32)),
        last_trans_now: 1800000000,
        balance: '123',
        extra_currencies: {},
        status: 'active',
        frozen_hash: null,
        data_hash: f.data.hash().toString('base64'),
        code_hash: f.code,
        data_boc: f.data.toBoc().toString('base64'),
        code_boc: null,
      }));
      await fx.store.insert('latest_account_states', rows);
      const r = await api(`/api/v3/walletStates?${found.map((f) => `address=${f.address}`).join('&')}`);
      for (const f of found) {
        const w = r.body.wallets.find((x: { address: string }) => x.address === f.address);
        const kind = WALLETS.get(f.code)!;
        const s = f.data.beginParse();
        const expected: Record<string, unknown> = { wallet_type: kind.type, balance: '123' };
        if (kind.layout === 'v5') {
          expected.is_signature_allowed = s.loadBit();
          expected.seqno = s.loadUint(32);
          expected.wallet_id = s.loadUint(32);
        } else {
          expected.seqno = s.loadUint(32);
          if (kind.layout === 'seqno_id') expected.wallet_id = s.loadUint(32);
        }
        expect(w).toMatchObject(expected);
        const wi = await api(`/api/v3/walletInformation?address=${f.address}`);
        expect(wi.status).toBe(200);
        expect(wi.body).toMatchObject({ wallet_type: kind.type, seqno: expected.seqno, status: 'active', balance: '123', last_transaction_lt: rows[found.indexOf(f)]!.last_trans_lt });
        const ai = await api(`/api/v3/account?address=${f.address}`);
        expect(ai.body).toMatchObject({ balance: '123', data: rows[found.indexOf(f)]!.data_boc, code: null, frozen_hash: null, status: 'active' });
        const full = await api(`/api/v3/accountStates?address=${f.address}&include_boc=false`);
        expect(full.body.accounts[0]).not.toHaveProperty('data_boc');
        const withBoc = await api(`/api/v3/accountStates?address=${f.address}`);
        expect(withBoc.body.accounts[0].data_boc).toBe(rows[found.indexOf(f)]!.data_boc);
      }
    });

    it('addressInformation / walletInformation (and their aliases): index path, defaults, 401, 409', async () => {
      for (const ep of ['addressInformation', 'account']) {
        const r = await api(`/api/v3/${ep}?address=${ELECTOR}`);
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ status: 'active', code: null, data: null, frozen_hash: null, last_transaction_lt: '56255102000002' });
        const unknown = await api(`/api/v3/${ep}?address=0:${'12'.repeat(32)}`);
        expect(unknown.body).toEqual({
          balance: '0',
          code: null,
          data: null,
          last_transaction_lt: '0',
          last_transaction_hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
          frozen_hash: null,
          status: 'uninit',
        });
        expect(await api(`/api/v3/${ep}`)).toMatchObject({ status: 401, body: { error: 'address of account is required' } });
        expect(await api(`/api/v3/${ep}?address=zz`)).toMatchObject({ status: 422 });
        expect(await api(`/api/v3/${ep}?address=${ELECTOR}&use_v2=true`)).toMatchObject({ status: 500, body: { error: 'ton-http-api endpoint is not specified' } });
      }
      for (const ep of ['walletInformation', 'wallet']) {
        expect(await api(`/api/v3/${ep}?address=${ELECTOR}`)).toMatchObject({ status: 409, body: { error: 'not a wallet' } });
        const unknown = await api(`/api/v3/${ep}?address=0:${'12'.repeat(32)}`);
        expect(unknown.body).toEqual({ balance: '0', last_transaction_lt: '0', last_transaction_hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', status: 'uninit' });
        expect(await api(`/api/v3/${ep}`)).toMatchObject({ status: 401, body: { error: 'address of account is required' } });
      }
    });

    it('addressBook: keyed by the caller\'s strings; unknown accounts non-bounceable; unparsable ones null', async () => {
      const zero = `0:${'12'.repeat(32)}`;
      const inputs = [ELECTOR.toLowerCase(), 'Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF', zero, 'not-an-address'];
      const r = await api(`/api/v3/addressBook?${inputs.map((a) => `address=${encodeURIComponent(a)}`).join('&')}`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(inputs);
      expect(r.body[inputs[0]!]).toEqual({ user_friendly: 'Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF', domain: null, interfaces: [] });
      expect(r.body[inputs[1]!]).toEqual(r.body[inputs[0]!]);
      expect(r.body[zero]).toEqual({ user_friendly: friendlyAddress(zero, { bounceable: false, testnet: false }), domain: null, interfaces: [] });
      expect(r.body[zero].user_friendly.startsWith('UQ')).toBe(true);
      expect(r.body['not-an-address']).toEqual({ user_friendly: null, domain: null, interfaces: [] });
      expect(await api('/api/v3/addressBook')).toMatchObject({ status: 422, body: { error: 'at least 1 address required' } });
      // Values as sent: the Go server neither splits "A,B" nor trims, so both are one unparsable key each.
      const odd = [`${ELECTOR},${zero}`, ` ${ELECTOR}`];
      const o = await api(`/api/v3/addressBook?${odd.map((a) => `address=${encodeURIComponent(a)}`).join('&')}`);
      expect(o.body).toEqual(Object.fromEntries(odd.map((a) => [a, { user_friendly: null, domain: null, interfaces: [] }])));
    });

    it('a request line of 1000 addresses (ton-index-go reads 1 MiB), and a client error body as every other', async () => {
      await fx.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(fx.app.server.address() as { port: number }).port}`;
      const many = Array.from({ length: 1000 }, (_, i) => `0:${'E'.repeat(56)}${i.toString(16).toUpperCase().padStart(8, '0')}`);
      const r = await fetch(`${base}/api/v3/accountStates?${[ELECTOR, ...many].map((a) => `address=${encodeURIComponent(a)}`).join('&')}`);
      expect(r.status).toBe(200);
      const body = (await r.json()) as { accounts: Array<{ address: string }> };
      expect(body.accounts.map((a) => a.address)).toEqual([ELECTOR]);
      const huge = await fetch(`${base}/api/v3/accountStates?address=${'A'.repeat(1 << 20)}`);
      expect(huge.status).toBe(431);
      expect(await huge.json()).toEqual({ error: 'Request Header Fields Too Large' });
    });

    it('topAccountsByBalance: richest first, paged; 422 for a limit over 1000', async () => {
      const r = await api('/api/v3/topAccountsByBalance?limit=20');
      expect(r.status).toBe(200);
      const balances = r.body.map((a: { balance: string }) => BigInt(a.balance));
      expect(balances).toEqual([...balances].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
      expect(r.body[0].account).toBe(ELECTOR);
      const p2 = await api('/api/v3/topAccountsByBalance?limit=5&offset=5');
      expect(p2.body).toEqual(r.body.slice(5, 10));
      expect(await api('/api/v3/topAccountsByBalance?limit=1001')).toMatchObject({ status: 422, body: { error: 'limit is not allowed: 1001 > 1000' } });
      // The pre-block ShardAccounts confirm one balance independently: the richest basechain account's state
      // before 71398501 is its account_state_before, and any later change is by its own transactions.
      expect((await api('/api/v3/topAccountsByBalance')).body).toHaveLength(10);
    });
  });

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
      const row = fx.blocks.flatMap((b) => b.rows.blocks).find((b) => b.seqno === 52111590)!;
      const old = { ...row, seqno: 52111591, prev_blocks: [{ ...row.prev_blocks[0]!, seqno: 52111590 }], state_root_hash: '', prev_block_hashes: [] };
      await fx.store.insert('blocks', [old]);
      try {
        const h = await api('/api/v2/getBlockHeader?workchain=0&shard=6917529027641081856&seqno=52111591');
        expect(h.body.result.prev_blocks).toEqual([
          { '@type': 'ton.blockIdExt', workchain: 0, shard: '6917529027641081856', seqno: 52111590, root_hash: b64(MANIFEST_BLOCKS[6]!.root), file_hash: row.file_hash },
        ]);
      } finally {
        await fx.store.command('ALTER TABLE blocks DELETE WHERE seqno = 52111591 SETTINGS mutations_sync = 2');
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

    it('getMasterchainBlockSignatures: the block id and the signatures the source provided (none)', async () => {
      const r = await api('/api/v2/getMasterchainBlockSignatures?seqno=46991999');
      expect(r.body.result).toMatchObject({
        '@type': 'blocks.blockSignatures',
        id: { workchain: -1, shard: '-9223372036854775808', seqno: 46991999, root_hash: b64(MANIFEST_BLOCKS[3]!.root) },
        signatures: [],
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
        const r = await fx.app.inject({ method: 'POST', url, payload: body as Record<string, unknown> });
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
      expect((await rpc({ id: 2, method: 'getMasterchainBlockSignatures', params: { seqno: 46991999 } })).body.result).toMatchObject({
        '@type': 'blocks.blockSignatures',
        id: { seqno: 46991999, root_hash: b64(MANIFEST_BLOCKS[3]!.root) },
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
      const plain = await fx.app.inject({ method: 'POST', url: '/api/v2/jsonRPC', headers: { 'content-type': 'text/plain' }, payload: JSON.stringify({ id: 9, method: 'getConsensusBlock' }) });
      expect(plain.json()).toMatchObject({ ok: true, id: 9, result: { consensus_block: 49383163 } });
      const notJson = await fx.app.inject({ method: 'POST', url: '/api/v2/jsonRPC', headers: { 'content-type': 'application/json' }, payload: 'not json' });
      expect(notJson.statusCode).toBe(422);
      expect(notJson.json()).toMatchObject({ ok: false, code: 422 });
      expect(notJson.json().error).toMatch(/^Validation error: /);
    });
  });

  // -----------------------------------------------------------------------------------------------------------
  describe('protocol', () => {
    it('headers: X-API-Version, Server-Timing, CORS; healthcheck; docs; 404', async () => {
      const r = await fx.app.inject({ method: 'GET', url: '/api/v3/masterchainInfo', headers: { origin: 'https://example.org' } });
      expect(r.headers['x-api-version']).toBe('1.2.6');
      // A Go duration string, as ton-index-go's Timer middleware prints it (µ arrives as its UTF-8 bytes).
      expect(Buffer.from(String(r.headers['server-timing']), 'latin1').toString('utf8')).toMatch(/^app;dur=\d+(\.\d+)?(ns|µs|ms|s)$/);
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(String(r.headers['access-control-expose-headers'])).toContain('x-next-cursor');
      const pre = await fx.app.inject({ method: 'OPTIONS', url: '/api/v3/transactions', headers: { origin: 'https://x.org', 'access-control-request-method': 'GET' } });
      expect(pre.statusCode).toBe(204);
      const v2 = await fx.app.inject({ method: 'GET', url: '/api/v2/getConsensusBlock' });
      expect(v2.headers['x-api-version']).toBe('2.1.1');
      const v2pre = await fx.app.inject({ method: 'OPTIONS', url: '/api/v2/jsonRPC', headers: { origin: 'https://x.org', 'access-control-request-method': 'POST' } });
      expect(v2pre.headers['x-api-version']).toBe('2.1.1');
      const h = await fx.app.inject({ method: 'GET', url: '/healthcheck' });
      expect({ status: h.statusCode, body: h.body }).toEqual({ status: 200, body: 'OK' });
      const root = await fx.app.inject({ method: 'GET', url: '/' });
      expect({ status: root.statusCode, location: root.headers.location }).toEqual({ status: 301, location: '/api/v3/index.html' });
      const ui = await fx.app.inject({ method: 'GET', url: '/api/v3/' });
      expect(ui.statusCode).toBe(200);
      expect(ui.body).toContain('swagger');
      const doc = await api('/api/v3/doc.json');
      expect(doc.body.openapi).toMatch(/^3\./);
      expect(await api('/api/v3/nothingHere')).toMatchObject({ status: 404, body: { error: expect.any(String) } });
      expect(await api('/api/v2/nothingHere')).toMatchObject({ status: 404, body: { ok: false, code: 404 } });
      // Unknown query keys are ignored.
      expect((await api('/api/v3/blocks?limit=1&whatever=1')).status).toBe(200);
    });

    it('X-Timeout (header or x_timeout): a deadline the store enforces, capped at 3000 ms', async () => {
      expect((await api('/api/v3/transactions?limit=1', { 'x-timeout': '100' })).status).toBe(200);
      expect((await api('/api/v3/transactions?limit=1&x_timeout=50000')).status).toBe(200);
    });
  });

  // -----------------------------------------------------------------------------------------------------------
  describe('with rows written after the fixtures (these tests change the store)', () => {
    /** A gateway on the fixture store with every cache off: each request reads the store. */
    const uncachedApp = (pointReads: boolean) =>
      buildApp({
        store: fx.store,
        logger: silentLogger(),
        metrics: createMetrics({ service: 'gateway', processMetrics: false }),
        config: {
          apiKeys: [], rpsWithoutKey: 0, testnet: false, validateResponses: true,
          responseCacheEntries: 0, cacheEntries: 0, txRecordCacheEntries: 0, addressBookTtlMs: 0, pointReads,
        },
      });

    it('transaction pages are the same while replayed rows are not merged yet: each transaction once, none skipped', async () => {
      const app = await uncachedApp(false);
      const busiest = fx.blocks
        .flatMap((b) => b.rows.transactions)
        .reduce((m, t) => m.set(t.account, (m.get(t.account) ?? 0) + 1), new Map<string, number>());
      const [account, count] = [...busiest].sort((a, b) => b[1] - a[1])[0]!;
      expect(count).toBeGreaterThan(10);
      const mcBlocks = new Set(fx.blocks.flatMap((b) => b.rows.blocks).filter((b) => b.workchain === -1).map((b) => b.seqno));
      const perMc = fx.blocks
        .flatMap((b) => b.rows.transactions)
        .filter((t) => t.mc_block_seqno !== null && mcBlocks.has(t.mc_block_seqno))
        .reduce((m, t) => m.set(t.mc_block_seqno!, (m.get(t.mc_block_seqno!) ?? 0) + 1), new Map<number, number>());
      const [mc] = [...perMc].sort((a, b) => b[1] - a[1])[0]!;
      const urls = [
        '/api/v3/transactions?limit=100',
        '/api/v3/transactions?limit=7&offset=20&sort=asc',
        // With the copies below, the first read of this page comes out short and is repeated with twice the rows.
        '/api/v3/transactions?limit=1000&offset=1000&sort=asc',
        `/api/v3/transactions?account=${account}&limit=5`,
        `/api/v3/transactions?account=${account}&limit=20&offset=10`,
        `/api/v3/transactions?account=${account}&limit=4&offset=6&sort=asc`,
        `/api/v3/transactionsByMasterchainBlock?seqno=${mc}&limit=20&offset=3`,
      ];
      const read = async () => {
        const out = [];
        for (const u of urls) {
          const r = await get(app, u);
          out.push({ u, status: r.status, txs: (r.body.transactions as Array<{ hash: string }> | undefined)?.map((t) => t.hash) ?? r.body });
        }
        return out;
      };
      try {
        const before = await read();
        expect(before.filter((r) => r.status !== 200 || r.txs.length === 0)).toEqual([]);
        // Two more copies of every transaction row (and of what the materialized view derives), kept apart until the
        // test ends.
        for (const t of ['transactions', 'account_transactions', 'account_recent_transactions']) await fx.store.command(`SYSTEM STOP MERGES ${t}`);
        await insertRows(fx.store, fx.blocks, ['transactions']);
        await insertRows(fx.store, fx.blocks, ['transactions']);
        const stored = fx.blocks.reduce((k, b) => k + b.rows.transactions.length, 0);
        for (const t of ['transactions', 'account_transactions']) {
          const [n] = await fx.store.query<{ n: string }>(`SELECT count() AS n FROM ${t}`);
          expect(Number(n!.n), t).toBeGreaterThanOrEqual(3 * stored);
        }
        expect(await read()).toEqual(before);
      } finally {
        for (const t of ['transactions', 'account_transactions', 'account_recent_transactions']) await fx.store.command(`SYSTEM START MERGES ${t}`);
        await app.close();
      }
    });

    it('transactionsByMessage: internal and external-out messages from message_side_points, external-in ones from message_sides', async () => {
      const msgs = fx.blocks.flatMap((b) => b.rows.messages);
      const pick = (rows: typeof msgs, n: number): string[] => {
        const hashes = [...new Set(rows.map((m) => m.msg_hash))];
        return Array.from({ length: Math.min(n, hashes.length) }, (_, i) => hashes[Math.floor((i * hashes.length) / n)]!);
      };
      // External messages carry no value (TL-B ext_in_msg_info / ext_out_msg_info).
      const internal = pick(msgs.filter((m) => m.value !== null), 40);
      const extOut = pick(msgs.filter((m) => m.value === null && m.direction === 'out'), 10);
      const extIn = pick(msgs.filter((m) => m.value === null && m.direction === 'in'), 10);
      const norms = fx.blocks.flatMap((b) => b.rows.message_hash_norms).slice(0, 5).map((n) => n.hash_norm);
      for (const kind of [internal, extOut, extIn, norms]) expect(kind.length).toBeGreaterThan(0);
      // Each side in exactly one of the two tables (0015, 0016).
      const keys = (list: string[]) => list.flatMap((h) => [`${h}|in`, `${h}|out`]);
      const points = async (list: string[]) =>
        Number((await fx.store.query<{ n: string }>('SELECT count() AS n FROM message_side_points WHERE key IN {keys:Array(String)}', { keys: keys(list) }))[0]!.n);
      const sides = async (list: string[]) =>
        Number((await fx.store.query<{ n: string }>('SELECT count() AS n FROM message_sides WHERE lookup_hash IN {list:Array(String)}', { list }))[0]!.n);
      const stored = (list: string[]) => new Set(msgs.filter((m) => list.includes(m.msg_hash)).map((m) => `${m.msg_hash}|${m.direction}`)).size;
      expect(await points([...internal, ...extOut])).toBe(stored([...internal, ...extOut]));
      expect(await sides([...internal, ...extOut])).toBe(0);
      expect(await points([...extIn, ...norms])).toBe(0);
      expect(await sides(extIn)).toBe(stored(extIn));
      // What the fixture rows say: the transactions whose messages carry the hash (a normalized hash: its message's),
      // from either direction alone too; with and without the point tables.
      const normOf = new Map(fx.blocks.flatMap((b) => b.rows.message_hash_norms).map((n) => [n.hash_norm, n.msg_hash]));
      const expected = (h: string, direction: string): string[] =>
        [...new Set(msgs.filter((m) => m.msg_hash === (normOf.get(h) ?? h) && (direction === '' || m.direction === direction)).map((m) => m.tx_hash))].sort();
      const apps = [await uncachedApp(false), await uncachedApp(true)];
      try {
        const answers = [];
        for (const app of apps) {
          const got = [];
          for (const h of [...internal, ...extOut, ...extIn, ...norms]) {
            for (const direction of ['', 'in', 'out']) {
              const r = await get(app, `/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(h)}${direction ? `&direction=${direction}` : ''}&limit=100`);
              expect(r.status).toBe(200);
              expect([...new Set(r.body.transactions.map((t: { hash: string }) => t.hash))].sort(), `${h} ${direction}`).toEqual(expected(h, direction));
              got.push(r.body);
            }
          }
          answers.push(got);
        }
        expect(answers[1]).toEqual(answers[0]);
      } finally {
        for (const app of apps) await app.close();
      }
    });

    it('transaction records and hash lookups come from transaction_documents, equal to the MergeTree tables without them', async () => {
      const app = await uncachedApp(true);
      const POINTS = ['transaction_documents', 'transaction_hash_points'] as const;
      try {
        const txs = fx.blocks.flatMap((b) => b.rows.transactions);
        const sample = [0, 1, 7, 100, 400, 900, 1200].map((i) => txs[i % txs.length]!);
        const withMsgs = fx.blocks.flatMap((b) => b.decoded.transactions).find((t) => t.in_msg && t.out_msgs.length > 1 && t.in_msg.source)!;
        const urls = [
          '/api/v3/transactions?limit=100',
          '/api/v3/transactions?limit=50&sort=asc',
          `/api/v3/transactions?account=${withMsgs.account}&limit=20`,
          '/api/v3/transactionsByMasterchainBlock?seqno=46991999&limit=200',
          `/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(withMsgs.in_msg!.hash)}`,
          `/api/v3/adjacentTransactions?hash=${encodeURIComponent(withMsgs.hash)}`,
          ...sample.map((t) => `/api/v3/transactions?hash=${encodeURIComponent(t.hash)}`),
        ];
        const read = async () => {
          const out = [];
          for (const u of urls) out.push({ url: u, ...(await get(app, u)) });
          return out.map(({ url, status, body }) => ({ url, status, body }));
        };
        for (const t of POINTS) {
          const [c] = await fx.store.query<{ n: string }>(`SELECT count() AS n FROM ${t}`);
          expect(Number(c!.n), t).toBe(txs.length);
        }
        // A transaction only the point tables hold is found by its hash: the lookup, the record, its messages' bodies
        // and its states all come from them (hashes no MergeTree table holds).
        type Doc = { account: string; lt: string; hash: string; account_state_hash_after: string; description: unknown; messages: Array<{ direction: string; body_hash: string }>; contents: Array<{ hash: string; boc: string }>; states: object[] };
        // The ghost is a version-1 document (the object form, written before version 2) with its description as JSON
        // text (older still): the reader takes every form the decode stage ever wrote.
        const docs = fx.blocks
          .flatMap((b) => b.rows.transaction_documents)
          .map((r) => decodeTransactionDocument(r.doc))
          .map((d) => ({ ...d.tx, messages: d.messages, contents: d.contents, states: d.states }) as Doc);
        const real = docs.find((d) => d.messages.length > 1 && d.messages.some((m) => m.direction === 'in'))!;
        const fake = (n: number): string => Buffer.alloc(32, n).toString('base64');
        const inSide = real.messages.find((m) => m.direction === 'in')!;
        const body = real.contents.find((c) => c.hash === inSide.body_hash)!;
        const lt = String(BigInt(real.lt) + 1n);
        const doc: Doc = {
          ...real,
          hash: fake(7),
          lt,
          account_state_hash_after: fake(9),
          messages: real.messages.map((m) => (m === inSide ? { ...m, body_hash: fake(8) } : m)),
          contents: [{ ...body, hash: fake(8) }],
          states: [{ hash: fake(9), balance: '12345', extra_currencies: {}, status: 'active', frozen_hash: null, data_hash: fake(10), code_hash: fake(11) }],
          description: JSON.stringify(real.description),
        };
        expect(typeof real.description).toBe('object');
        const ghost = { key: `${real.account}|${lt}`, doc: JSON.stringify(doc) };
        await fx.store.insert('transaction_documents', [ghost]);
        await fx.store.insert('transaction_hash_points', [{ hash: doc.hash, account: doc.account, lt }]);
        const g = await get(app, `/api/v3/transactions?hash=${encodeURIComponent(doc.hash)}`);
        expect(g.status).toBe(200);
        expect(g.body.transactions.map((t: { hash: string; lt: string }) => [t.hash, t.lt])).toEqual([[doc.hash, lt]]);
        const gt = g.body.transactions[0];
        expect(gt.out_msgs.length + (gt.in_msg ? 1 : 0)).toBe(real.messages.length);
        expect(gt.in_msg.message_content).toMatchObject({ hash: fake(8), body: body.boc });
        expect(gt.account_state_after).toEqual({
          hash: fake(9), balance: '12345', extra_currencies: {}, account_status: 'active', frozen_hash: null, data_hash: fake(10), code_hash: fake(11),
        });
        const original = await get(app, `/api/v3/transactions?hash=${encodeURIComponent(real.hash)}`);
        expect(gt.description).toEqual(original.body.transactions[0].description);
        expect(gt.description.compute_ph).toBeDefined();

        const withPoints = await read();
        expect(withPoints.every((r) => r.status === 200)).toBe(true);
        expect(withPoints.filter((r) => r.body.transactions?.length > 0).length).toBe(urls.length);
        // A store written before 0009 (or without TONFLOW_STORE_POINT_READS): the same answers from transactions,
        // messages, message_contents and account_states, for keys the point tables miss.
        for (const t of POINTS) await fx.store.command(`TRUNCATE TABLE ${t}`);
        expect(await read()).toEqual(withPoints);
      } finally {
        for (const t of POINTS) await fx.store.command(`TRUNCATE TABLE ${t}`);
        await insertRows(fx.store, fx.blocks, POINTS);
        await app.close();
      }
    });

    it('masterchainBlockShardState: the key block\'s four shard tips (MANIFEST) once they are stored', async () => {
      const template = fx.blocks.find((b) => b.decoded.block.seqno === 52111590)!.rows.blocks[0]!;
      // MANIFEST: shard_hashes wc0 of key block 46991999.
      const tips = [
        { shard: '2000000000000000', seqno: 52077744 },
        { shard: '6000000000000000', seqno: 52097945 },
        { shard: 'A000000000000000', seqno: 51731388 },
        { shard: 'E000000000000000', seqno: 51757085 },
      ];
      await fx.store.insert(
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

    it('a cursor keeps its place when newer transactions arrive; offset paging repeats a row', async () => {
      const block = fx.blocks.find((b) => b.decoded.block.seqno === 40484416)!;
      const busiest = [...block.rows.transactions].sort((a, b) => (a.account < b.account ? -1 : 1));
      const counts = new Map<string, number>();
      for (const t of busiest) counts.set(t.account, (counts.get(t.account) ?? 0) + 1);
      const [account] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
      const q = `account=${account}&limit=5`;
      const first = await api(`/api/v3/transactions?${q}`);
      const cursor = first.headers['x-next-cursor'] as string;
      expect(cursor).toBeTruthy();
      // A newer transaction of the account lands between the two page requests.
      const newest = block.rows.transactions.filter((t) => t.account === account).sort((a, b) => (BigInt(a.lt) < BigInt(b.lt) ? 1 : -1))[0]!;
      await fx.store.insert('transactions', [{ ...newest, lt: (BigInt(newest.lt) + 1_000_000n).toString(), hash: b64('ee'.repeat(32)) }]);
      const byOffset = await api(`/api/v3/transactions?${q}&offset=5`);
      const byCursor = await api(`/api/v3/transactions?${q}&cursor=${cursor}`);
      const firstKeys = first.body.transactions.map(key);
      expect(byOffset.body.transactions.map(key)).toContain(firstKeys[4]);
      expect(byCursor.body.transactions.map(key).some((k: string) => firstKeys.includes(k))).toBe(false);
      const all = await api(`/api/v3/transactions?account=${account}&limit=11`);
      expect(byCursor.body.transactions.map(key)).toEqual(all.body.transactions.slice(6, 11).map(key));
    });
  });
}

describeFixtures('gateway: TON Center v3 / v2 over the fixture store', () => gatewaySuite());
describeFixtures('gateway: TON Center v3 / v2 over the fixture store, point reads on (TONFLOW_STORE_POINT_READS)', () =>
  gatewaySuite({ pointReads: true }),
);

describeClickHouse('gateway over a ClickHouse server (--clickhouse URL)', (url) => {
  describeFixtures('TON Center v3 / v2 over the fixture store', () => gatewaySuite({ clickhouseUrl: url }));
});

describe('wallet code hashes (fixtures: compiled wallet codes)', () => {
  it('are the hashes of the real wallet codes', () => {
    const files: Array<[string, string]> = [
      ['wallet_v1r1', 'wallet v1 r1'],
      ['wallet_v1r2', 'wallet v1 r2'],
      ['wallet_v1r3', 'wallet v1 r3'],
      ['wallet_v2r1', 'wallet v2 r1'],
      ['wallet_v2r2', 'wallet v2 r2'],
      ['wallet_v3r1', 'wallet v3 r1'],
      ['wallet_v3r2', 'wallet v3 r2'],
      ['wallet_v4r1', 'wallet v4 r1'],
      ['wallet_v4r2', 'wallet v4 r2'],
      ['wallet_v5r1', 'wallet v5 r1'],
      ['wallet_v5_beta_libref', 'wallet v5 beta'],
    ];
    for (const [file, type] of files) {
      let bytes: Buffer;
      try {
        bytes = readFixture(`contracts/${file}.code.boc`);
      } catch {
        return; // fixtures absent: the fixture suites above report it
      }
      const hash = Cell.fromBoc(bytes)[0]!.hash().toString('base64');
      expect({ file, type: WALLETS.get(hash)?.type }).toEqual({ file, type });
    }
    // A builder sanity check: a v1 data cell is a bare seqno.
    expect(beginCell().storeUint(7, 32).endCell().beginParse().loadUint(32)).toBe(7);
  });
});
