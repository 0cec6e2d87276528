import { Cell, loadShardAccount } from '@ton/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeTransactionDocument } from '../../../shared/contracts/transaction-document.js';
import { readFixture } from '../../../test/helpers/fixtures.js';
import { b64, b64url, describeGatewaySuites, get, insertRows, isLtOrdered, key, MC_SHARD, raw, tongo } from '../../../test/helpers/gateway.js';
import { friendlyAddress } from '../../../shared/ton/address.js';
import { WALLETS } from '../../../shared/ton/interfaces/wallets.js';

/*
 * The gateway's transactions, transactionsByMasterchainBlock, transactionsByMessage, adjacentTransactions, messages
 * (routes/transactions.ts), over a store filled from every real fixture block (test/helpers/gateway.ts
 * describeGatewaySuites: the expected values and where they come from).
 */

describeGatewaySuites('transactions', (s) => {
  const api = s.api;

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
      const stored = new Map(s.fx.blocks.flatMap((b) => b.rows.transactions).map((t) => [t.hash, JSON.parse(t.description) as Descr]));
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

    it('messages: a page of 1000 (sent in slices) is its pages of 97, records and address book', async () => {
      const q = 'start_lt=1';
      const big = await s.fx.app.inject({ method: 'GET', url: `/api/v3/messages?${q}&limit=1000` });
      expect(big.statusCode).toBe(200);
      expect(big.headers['content-length']).toBe(String(Buffer.byteLength(big.body)));
      const all = big.json() as { messages: unknown[]; address_book: Record<string, unknown>; metadata: unknown };
      expect(Object.keys(all)).toEqual(['messages', 'address_book', 'metadata']);
      expect(all.messages).toHaveLength(1000);
      const small: unknown[] = [];
      const book: Record<string, unknown> = {};
      for (let off = 0; off < 1000; off += 97) {
        const r = await api(`/api/v3/messages?${q}&limit=${Math.min(97, 1000 - off)}&offset=${off}`);
        small.push(...r.body.messages);
        Object.assign(book, r.body.address_book);
      }
      // Same records with the same key order (JSON.stringify of what JSON.parse read keeps it), same book entries.
      expect(JSON.stringify(all.messages)).toBe(JSON.stringify(small));
      expect(all.address_book).toEqual(book);
      expect(all.metadata).toEqual({});
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
      expect(await api(`/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(all[0])}&direction=both`)).toMatchObject({
        status: 200,
        body: { transactions: [] },
      });
      expect((await api(`/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(all[0])}`)).body.transactions.length).toBeGreaterThan(0);
      for (const [qq, status, error] of cases) {
        const r = await api(`/api/v3/messages?${qq}`);
        expect({ qq, status: r.status, body: r.body }).toEqual({ qq, status, body: { error } });
      }
    });
  });

  // -----------------------------------------------------------------------------------------------------------
  describe('with rows written after the fixtures (these tests change the store)', () => {
    it('transaction pages are the same while replayed rows are not merged yet: each transaction once, none skipped', async () => {
      const app = await s.uncachedApp(false);
      const busiest = s.fx.blocks
        .flatMap((b) => b.rows.transactions)
        .reduce((m, t) => m.set(t.account, (m.get(t.account) ?? 0) + 1), new Map<string, number>());
      const [account, count] = [...busiest].sort((a, b) => b[1] - a[1])[0]!;
      expect(count).toBeGreaterThan(10);
      const mcBlocks = new Set(s.fx.blocks.flatMap((b) => b.rows.blocks).filter((b) => b.workchain === -1).map((b) => b.seqno));
      const perMc = s.fx.blocks
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
        for (const t of ['transactions', 'account_transactions', 'account_recent_transactions']) await s.fx.store.command(`SYSTEM STOP MERGES ${t}`);
        await insertRows(s.fx.store, s.fx.blocks, ['transactions']);
        await insertRows(s.fx.store, s.fx.blocks, ['transactions']);
        const stored = s.fx.blocks.reduce((k, b) => k + b.rows.transactions.length, 0);
        for (const t of ['transactions', 'account_transactions']) {
          const [n] = await s.fx.store.query<{ n: string }>(`SELECT count() AS n FROM ${t}`);
          expect(Number(n!.n), t).toBeGreaterThanOrEqual(3 * stored);
        }
        expect(await read()).toEqual(before);
      } finally {
        for (const t of ['transactions', 'account_transactions', 'account_recent_transactions']) await s.fx.store.command(`SYSTEM START MERGES ${t}`);
        await app.close();
      }
    });

    it('transactionsByMessage: internal and external-out messages from message_side_points, external-in ones from message_sides', async () => {
      const msgs = s.fx.blocks.flatMap((b) => b.rows.messages);
      const pick = (rows: typeof msgs, n: number): string[] => {
        const hashes = [...new Set(rows.map((m) => m.msg_hash))];
        return Array.from({ length: Math.min(n, hashes.length) }, (_, i) => hashes[Math.floor((i * hashes.length) / n)]!);
      };
      // External messages carry no value (TL-B ext_in_msg_info / ext_out_msg_info).
      const internal = pick(msgs.filter((m) => m.value !== null), 40);
      const extOut = pick(msgs.filter((m) => m.value === null && m.direction === 'out'), 10);
      const extIn = pick(msgs.filter((m) => m.value === null && m.direction === 'in'), 10);
      const norms = s.fx.blocks.flatMap((b) => b.rows.message_hash_norms).slice(0, 5).map((n) => n.hash_norm);
      for (const kind of [internal, extOut, extIn, norms]) expect(kind.length).toBeGreaterThan(0);
      // Each side in exactly one of the two tables (0015, 0016).
      const keys = (list: string[]) => list.flatMap((h) => [`${h}|in`, `${h}|out`]);
      const points = async (list: string[]) =>
        Number((await s.fx.store.query<{ n: string }>('SELECT count() AS n FROM message_side_points WHERE key IN {keys:Array(String)}', { keys: keys(list) }))[0]!.n);
      const sides = async (list: string[]) =>
        Number((await s.fx.store.query<{ n: string }>('SELECT count() AS n FROM message_sides WHERE lookup_hash IN {list:Array(String)}', { list }))[0]!.n);
      const stored = (list: string[]) => new Set(msgs.filter((m) => list.includes(m.msg_hash)).map((m) => `${m.msg_hash}|${m.direction}`)).size;
      expect(await points([...internal, ...extOut])).toBe(stored([...internal, ...extOut]));
      expect(await sides([...internal, ...extOut])).toBe(0);
      expect(await points([...extIn, ...norms])).toBe(0);
      expect(await sides(extIn)).toBe(stored(extIn));
      // What the fixture rows say: the transactions whose messages carry the hash (a normalized hash: its message's),
      // from either direction alone too; with and without the point tables.
      const normOf = new Map(s.fx.blocks.flatMap((b) => b.rows.message_hash_norms).map((n) => [n.hash_norm, n.msg_hash]));
      const expected = (h: string, direction: string): string[] =>
        [...new Set(msgs.filter((m) => m.msg_hash === (normOf.get(h) ?? h) && (direction === '' || m.direction === direction)).map((m) => m.tx_hash))].sort();
      const apps = [await s.uncachedApp(false), await s.uncachedApp(true)];
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
      // 390 requests through two uncached gateways, one after another: minutes on a busy machine.
    });

    it('transaction records and hash lookups come from transaction_documents, equal to the MergeTree tables without them', async () => {
      const app = await s.uncachedApp(true);
      const POINTS = ['transaction_documents', 'transaction_hash_points'] as const;
      try {
        const txs = s.fx.blocks.flatMap((b) => b.rows.transactions);
        const sample = [0, 1, 7, 100, 400, 900, 1200].map((i) => txs[i % txs.length]!);
        const withMsgs = s.fx.blocks.flatMap((b) => b.decoded.transactions).find((t) => t.in_msg && t.out_msgs.length > 1 && t.in_msg.source)!;
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
          const [c] = await s.fx.store.query<{ n: string }>(`SELECT count() AS n FROM ${t}`);
          expect(Number(c!.n), t).toBe(txs.length);
        }
        // A transaction only the point tables hold is found by its hash: the lookup, the record, its messages' bodies
        // and its states all come from them (hashes no MergeTree table holds).
        type Doc = { account: string; lt: string; hash: string; account_state_hash_after: string; description: unknown; messages: Array<{ direction: string; body_hash: string }>; contents: Array<{ hash: string; boc: string }>; states: object[] };
        // The ghost is a version-1 document (the object form, written before version 2) with its description as JSON
        // text (older still): the reader takes every form the decode stage ever wrote.
        const docs = s.fx.blocks
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
        await s.fx.store.insert('transaction_documents', [ghost]);
        await s.fx.store.insert('transaction_hash_points', [{ hash: doc.hash, account: doc.account, lt }]);
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
        for (const t of POINTS) await s.fx.store.command(`TRUNCATE TABLE ${t}`);
        expect(await read()).toEqual(withPoints);
      } finally {
        for (const t of POINTS) await s.fx.store.command(`TRUNCATE TABLE ${t}`);
        await insertRows(s.fx.store, s.fx.blocks, POINTS);
        await app.close();
      }
    });

    it('a cursor keeps its place when newer transactions arrive; offset paging repeats a row', async () => {
      const block = s.fx.blocks.find((b) => b.decoded.block.seqno === 40484416)!;
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
      await s.fx.store.insert('transactions', [{ ...newest, lt: (BigInt(newest.lt) + 1_000_000n).toString(), hash: b64('ee'.repeat(32)) }]);
      const byOffset = await api(`/api/v3/transactions?${q}&offset=5`);
      const byCursor = await api(`/api/v3/transactions?${q}&cursor=${cursor}`);
      const firstKeys = first.body.transactions.map(key);
      expect(byOffset.body.transactions.map(key)).toContain(firstKeys[4]);
      expect(byCursor.body.transactions.map(key).some((k: string) => firstKeys.includes(k))).toBe(false);
      const all = await api(`/api/v3/transactions?account=${account}&limit=11`);
      expect(byCursor.body.transactions.map(key)).toEqual(all.body.transactions.slice(6, 11).map(key));
    });
  });
});
