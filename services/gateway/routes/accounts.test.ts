import { Cell, loadShardAccount } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../../shared/runtime/metrics.js';
import { StoreUnavailableError } from '../../../shared/store/errors.js';
import { readFixture } from '../../../test/helpers/fixtures.js';
import { b64, describeGatewaySuites, get, silentLogger } from '../../../test/helpers/gateway.js';
import { friendlyAddress } from '../../../shared/ton/address.js';
import { buildApp } from '../app.js';
import { WALLETS } from '../../../shared/ton/interfaces/wallets.js';

/*
 * The gateway's accounts: accountStates, walletStates, addressBook, addressInformation, walletInformation,
 * topAccountsByBalance (routes/accounts.ts), over a store filled from every real fixture block
 * (test/helpers/gateway.ts describeGatewaySuites: the expected values and where they come from).
 */

describeGatewaySuites('accounts', (s) => {
  const api = s.api;

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
      const store = new Proxy(s.fx.store, { get: (t, p, r) => (p === 'query' ? () => Promise.reject(down) : Reflect.get(t, p, r)) });
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
      const slow = new Proxy(s.fx.store, { get: (t, p, r) => (p === 'query' ? () => Promise.reject(late) : Reflect.get(t, p, r)) });
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
      const states = s.fx.blocks.flatMap((b) => b.rows.latest_account_states);
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
      const found: Array<{ address: string; code: string; codeBoc: string; data: Cell }> = [];
      let rebuilt = 0;
      for (const a of accounts) {
        const sa = loadShardAccount(Cell.fromBase64(a.shard_account_boc_base64).beginParse());
        const st = sa.account?.storage.state;
        if (st?.type !== 'active' || !st.state.code || !st.state.data) continue;
        const code = st.state.code.hash().toString('base64');
        if (WALLETS.has(code) && !found.some((f) => f.code === code)) found.push({ address: a.account.toUpperCase(), code, codeBoc: st.state.code.toBoc({ idx: false, crc32: false }).toString('base64'), data: st.state.data });
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
      await s.fx.store.insert('latest_account_states', rows);
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
        expect(ai.body).toMatchObject({ balance: '123', data: rows[found.indexOf(f)]!.data_boc, frozen_hash: null, status: 'active' });
        // The row has no code cell: it is rebuilt from the cell store (0025_cells.sql) when some fixture block held
        // that code whole, and is then the very code of the wallet's real pre-block state.
        if (ai.body.code !== null) {
          expect(ai.body.code).toBe(found.find((x) => x.address === f.address)!.codeBoc);
          rebuilt++;
        }
        const full = await api(`/api/v3/accountStates?address=${f.address}&include_boc=false`);
        expect(full.body.accounts[0]).not.toHaveProperty('data_boc');
        const withBoc = await api(`/api/v3/accountStates?address=${f.address}`);
        expect(withBoc.body.accounts[0].data_boc).toBe(rows[found.indexOf(f)]!.data_boc);
      }
      expect(rebuilt).toBeGreaterThan(0);
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
        // use_v2=true: the v2 layer's answer in v3 form (gateway-v2-read.test.ts checks it in full).
        expect(await api(`/api/v3/${ep}?address=${ELECTOR}&use_v2=true`)).toMatchObject({ status: 200, body: { status: 'active', last_transaction_lt: '56255102000002' } });
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
      await s.fx.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(s.fx.app.server.address() as { port: number }).port}`;
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

});
