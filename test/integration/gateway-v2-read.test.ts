import { Address, Cell, Dictionary, loadAccount, loadTransaction } from '@ton/core';
import { TonClient } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { friendlyAddress } from '../../shared/ton/address.js';
import { v2MessageData } from '../../shared/ton/v2-message-data.js';
import { readFixture } from '../helpers/fixtures.js';
import { type GatewayFixture, createGatewayFixture, get } from '../helpers/gateway.js';

/*
 * The v2 read operations (getAddressInformation … unpackAddress) over a store filled from every real fixture block,
 * through inject() and through @ton/ton's TonClient on a real socket. Expected values are independent of the gateway:
 * MANIFEST.md (block ids, root hashes, lt ranges, the key block's shard tips), the tonutils (account, lt) list of
 * block 71398501, the tongo expected transaction hashes of block 17734191, @ton/core's own parse of the transaction
 * BOCs, the recorded TON Center v2 responses in fixtures/api-responses (field names and types), and an Account cell
 * of the fixtures (written as a full-state source would write it).
 */

const MC_SHARD_SIGNED = '-9223372036854775808';
const ELECTOR = '-1:3333333333333333333333333333333333333333333333333333333333333333';
const ELECTOR_FRIENDLY = 'Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF';
const ZERO_HASH = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
const b64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');

/** JSON type of a value, for comparing shapes with the recorded responses. */
function shape(v: unknown): string {
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;
}

let fx: GatewayFixture;
const api = (url: string) => get(fx.app, url);
const rpc = async (method: string, params: Record<string, unknown>) => {
  const r = await fx.app.inject({ method: 'POST', url: '/api/v2/jsonRPC', payload: { jsonrpc: '2.0', id: 7, method, params } });
  return { status: r.statusCode, body: r.json() as any };
};

beforeAll(async () => {
  fx = await createGatewayFixture();
}, 180_000);
afterAll(async () => {
  await fx?.close();
});

describe('v2 account operations', () => {
  it('getAddressInformation: the elector at the newest indexed masterchain block (raw.fullAccountState)', async () => {
    const r = await api(`/api/v2/getAddressInformation?address=${ELECTOR_FRIENDLY}`);
    expect(r.status).toBe(200);
    const res = r.body.result;
    expect(Object.keys(res)).toEqual([
      '@type',
      'balance',
      'extra_currencies',
      'last_transaction_id',
      'block_id',
      'code',
      'data',
      'frozen_hash',
      'sync_utime',
      'state',
      '@extra',
    ]);
    // MANIFEST: the elector's newest transaction among the fixtures is in key block 46991999 (lt 56255102000000..04);
    // the newest masterchain fixture block is 49383163 (utime 1751303785).
    expect(res).toMatchObject({ '@type': 'raw.fullAccountState', state: 'active', sync_utime: 1751303785, frozen_hash: '' });
    expect(BigInt(res.last_transaction_id.lt)).toBeGreaterThanOrEqual(56255102000000n);
    expect(BigInt(res.last_transaction_id.lt)).toBeLessThanOrEqual(56255102000004n);
    expect(res.block_id).toMatchObject({ '@type': 'ton.blockIdExt', workchain: -1, shard: MC_SHARD_SIGNED, seqno: 49383163 });
    // The same state as the v3 endpoint's (one store, two APIs).
    const v3 = (await api(`/api/v3/accountStates?address=${ELECTOR}`)).body.accounts[0];
    expect(res.balance).toBe(v3.balance);
    expect(res.last_transaction_id.hash).toBe(v3.last_transaction_hash);

    // An account the index never saw: api-v2.md §3.5.
    const unknown = (await api(`/api/v2/getAddressInformation?address=0:${'12'.repeat(32)}`)).body.result;
    expect(unknown).toMatchObject({ balance: '0', code: '', data: '', frozen_hash: '', state: 'uninitialized', last_transaction_id: { lt: '0', hash: ZERO_HASH } });
  });

  it('getAddressInformation at a masterchain seqno: the state after the account\'s last transaction by then', async () => {
    const r = await api(`/api/v2/getAddressInformation?address=${ELECTOR}&seqno=24374597`);
    expect(r.status).toBe(200);
    // MANIFEST: block 24374597 spans lt 32119774000000..32119774000004, and its elector tick-tock is the newest by then.
    const lt = BigInt(r.body.result.last_transaction_id.lt);
    expect(lt >= 32119774000000n && lt <= 32119774000004n).toBe(true);
    expect(r.body.result.block_id.seqno).toBe(24374597);
    expect(r.body.result.sync_utime).toBe(1666094058);
    // A masterchain block the index lacks: the liteserver's error.
    expect((await api(`/api/v2/getAddressInformation?address=${ELECTOR}&seqno=5`)).status).toBe(500);
    expect(await api(`/api/v2/getAddressInformation?address=${ELECTOR}&seqno=0`)).toMatchObject({ status: 422, body: { ok: false, code: 422, error: 'seqno should be positive' } });
  });

  it('validation errors in the v2 envelope (C++ ton-http-api texts)', async () => {
    expect(await api('/api/v2/getAddressInformation')).toMatchObject({ status: 422, body: { ok: false, error: 'empty address', code: 422 } });
    expect(await api('/api/v2/getAddressInformation?address=zz')).toMatchObject({ status: 422, body: { ok: false, error: 'failed to parse address', code: 422 } });
    expect(await api('/api/v2/getAddressBalance?address=zz&seqno=x')).toMatchObject({ status: 422 });
    expect(await rpc('getAddressState', { address: 'zz' })).toMatchObject({ status: 422, body: { ok: false, id: 7, jsonrpc: '2.0' } });
  });

  it('getAddressBalance / getAddressState / getWalletInformation / getExtendedAddressInformation agree with it', async () => {
    const info = (await api(`/api/v2/getAddressInformation?address=${ELECTOR}`)).body.result;
    expect((await api(`/api/v2/getAddressBalance?address=${ELECTOR}`)).body).toEqual({ ok: true, result: info.balance });
    expect((await rpc('getAddressState', { address: ELECTOR })).body).toMatchObject({ ok: true, result: 'active', id: 7 });
    const w = (await api(`/api/v2/getWalletInformation?address=${ELECTOR}`)).body.result;
    expect(w).toEqual({
      '@type': 'ext.accounts.walletInformation',
      wallet: false,
      balance: info.balance,
      account_state: 'active',
      last_transaction_id: info.last_transaction_id,
    });
    const ext = (await api(`/api/v2/getExtendedAddressInformation?address=${ELECTOR}`)).body.result;
    expect(ext).toMatchObject({
      '@type': 'fullAccountState',
      address: { '@type': 'accountAddress', account_address: ELECTOR_FRIENDLY },
      balance: info.balance,
      last_transaction_id: info.last_transaction_id,
      account_state: { '@type': 'raw.accountState' },
      revision: 0,
    });
  });

  it('a full state (as a liteserver source writes it): code, data, wallet fields from a real Account cell', async () => {
    // MANIFEST: EQDEGeK4… is active, balance 31011747, last_trans_lt 28370239000003.
    const cell = Cell.fromBoc(readFixture('states/mainnet_account_state_tonutils_EQDEGeK4.boc'))[0]!;
    // The cell is an `Account` (account$1 …); @ton/core's loadAccount reads what follows the tag.
    const sl = cell.beginParse();
    expect(sl.loadBit()).toBe(true);
    const acc = loadAccount(sl);
    const st = acc.storage.state;
    if (st.type !== 'active') throw new Error('fixture account is not active');
    const addr = Address.parse('EQDEGeK4o7bNgazTln27r0RC4YcOmerzIni3gUpsyqxfgMWk');
    const raw = `0:${addr.hash.toString('hex').toUpperCase()}`;
    await fx.store.insert('latest_account_states', [
      {
        account: raw,
        account_state_hash: cell.hash().toString('base64'),
        last_trans_lt: '28370239000003',
        last_trans_hash: b64('cd'.repeat(32)),
        last_trans_now: 1600000000,
        balance: '31011747',
        extra_currencies: {},
        status: 'active',
        frozen_hash: null,
        data_hash: st.state.data!.hash().toString('base64'),
        code_hash: st.state.code!.hash().toString('base64'),
        data_boc: st.state.data!.toBoc().toString('base64'),
        code_boc: st.state.code!.toBoc().toString('base64'),
      },
    ]);
    const r = (await api(`/api/v2/getAddressInformation?address=${addr.toString()}`)).body.result;
    expect(r).toMatchObject({ balance: '31011747', state: 'active', last_transaction_id: { lt: '28370239000003' } });
    expect(Cell.fromBase64(r.code).hash().equals(st.state.code!.hash())).toBe(true);
    expect(Cell.fromBase64(r.data).hash().equals(st.state.data!.hash())).toBe(true);

    // TonClient reads the same state (getBalance, getContractState).
    const client = await tonClient();
    expect(await client.getBalance(addr)).toBe(31011747n);
    const cs = await client.getContractState(addr);
    expect(cs.state).toBe('active');
    expect(cs.lastTransaction?.lt).toBe('28370239000003');
    expect(Cell.fromBoc(cs.code!)[0]!.hash().equals(st.state.code!.hash())).toBe(true);

    // v3 with use_v2=true: the same answer flattened (api-v3.md §8.1).
    const v3 = await api(`/api/v3/addressInformation?address=${addr.toString()}&use_v2=true`);
    expect(v3.status).toBe(200);
    expect(v3.body).toEqual({
      balance: '31011747',
      code: r.code,
      data: r.data,
      last_transaction_lt: '28370239000003',
      last_transaction_hash: b64('cd'.repeat(32)),
      frozen_hash: null,
      status: 'active',
    });
  });

  it('v3 addressInformation / walletInformation with use_v2=true: v2 statuses, 409 for a non-wallet', async () => {
    const a = await api(`/api/v3/addressInformation?address=${ELECTOR}&use_v2=true`);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ status: 'active', frozen_hash: null });
    const unknown = await api(`/api/v3/addressInformation?address=0:${'12'.repeat(32)}&use_v2=true`);
    expect(unknown.body).toEqual({ balance: '0', code: null, data: null, last_transaction_lt: '0', last_transaction_hash: ZERO_HASH, frozen_hash: null, status: 'uninitialized' });
    expect(await api(`/api/v3/walletInformation?address=${ELECTOR}&use_v2=true`)).toMatchObject({ status: 409, body: { error: 'not a wallet' } });
    const w = await api(`/api/v3/wallet?address=0:${'12'.repeat(32)}&use_v2=true`);
    expect(w).toMatchObject({ status: 200, body: { balance: '0', last_transaction_lt: '0', status: 'uninitialized' } });
  });
});

describe('v2 transactions', () => {
  it('getTransactions: data is the real transaction (hash checked by @ton/core), newest first, paged by lt/hash', async () => {
    // tongo expected: the hashes of masterchain block 17734191's transactions, and the elector's two there (the second
    // names the first as its previous transaction).
    const tongo = JSON.parse(readFixture('blocks/mainnet_-1_8000000000000000_17734191.tongo-expected.json').toString('utf8'));
    const expectedHashes = new Set<string>((tongo.TxHashes as string[]).map((h) => b64(h)));
    const electorTxs = tongo.Accounts['3'.repeat(64)].Transactions as Record<string, { PrevTransHash: string }>;
    expect(Object.keys(electorTxs)).toEqual(['24836995000001', '24836995000002']);
    const r = await api(`/api/v2/getTransactions?address=${ELECTOR}&limit=10`);
    expect(r.status).toBe(200);
    const txs = r.body.result as any[];
    expect(txs.length).toBeGreaterThanOrEqual(4);
    const lts = txs.map((t) => BigInt(t.transaction_id.lt));
    expect(lts).toEqual([...lts].sort((a, b) => (a < b ? 1 : -1)));
    let fromTongo = 0;
    for (const t of txs) {
      const cell = Cell.fromBase64(t.data);
      expect(cell.hash().toString('base64')).toBe(t.transaction_id.hash);
      const tx = loadTransaction(cell.beginParse());
      expect(tx.lt.toString()).toBe(t.transaction_id.lt);
      expect(tx.now).toBe(t.utime);
      // fee = total fees + forwarding fees of the out messages (MANIFEST: TON Center v2 fee semantics).
      let fwd = 0n;
      for (const m of tx.outMessages.values()) if (m.info.type === 'internal') fwd += m.info.forwardFee + m.info.ihrFee;
      expect(t.fee).toBe((tx.totalFees.coins + fwd).toString());
      expect(BigInt(t.other_fee) + BigInt(t.storage_fee)).toBe(BigInt(t.fee));
      if (expectedHashes.has(t.transaction_id.hash)) fromTongo++;
      expect(t.address.account_address).toBe(ELECTOR_FRIENDLY);
      expect(t.account).toBe(ELECTOR.toUpperCase());
    }
    expect(fromTongo).toBe(2);
    const first = txs.find((t) => t.transaction_id.lt === '24836995000001');
    expect(first.transaction_id.hash).toBe(b64(electorTxs['24836995000002']!.PrevTransHash));
    // From the second one (lt + hash), inclusive, down to (exclusive) to_lt.
    const second = txs[1];
    const page = await api(`/api/v2/getTransactions?address=${ELECTOR}&lt=${second.transaction_id.lt}&hash=${encodeURIComponent(second.transaction_id.hash)}&limit=2`);
    expect(page.body.result.map((t: any) => t.transaction_id.lt)).toEqual(txs.slice(1, 3).map((t) => t.transaction_id.lt));
    const window = await api(`/api/v2/getTransactions?address=${ELECTOR}&to_lt=${txs[2].transaction_id.lt}`);
    expect(window.body.result.map((t: any) => t.transaction_id.lt)).toEqual(txs.slice(0, 2).map((t) => t.transaction_id.lt));
    expect(await api(`/api/v2/getTransactions?address=${ELECTOR}&lt=1`)).toMatchObject({ status: 422, body: { error: 'lt and hash should be used together' } });
    expect(await api(`/api/v2/getTransactions?address=${ELECTOR}&limit=0`)).toMatchObject({ status: 422, body: { error: 'limit should be positive' } });
    expect(await api(`/api/v2/getTransactions?address=${ELECTOR}&lt=${second.transaction_id.lt}&hash=${ZERO_HASH}`)).toMatchObject({ status: 404 });
    expect((await api(`/api/v2/getTransactions?address=0:${'12'.repeat(32)}`)).body).toEqual({ ok: true, result: [] });
  });

  it('the fields of the recorded TON Center v2 transactions, with the same JSON types', async () => {
    const recorded = JSON.parse(readFixture('api-responses/toncenter_v2_raw_transaction_PadTON.json').toString('utf8'));
    // An account of 71398501 whose transaction received a message with a body (jetton traffic).
    const meta = JSON.parse(readFixture('blocks/mainnet_0_8000000000000000_71398501.meta.json').toString('utf8'));
    let ours: any;
    for (const c of meta.transaction_configs as Array<{ account: string; lt: number }>) {
      const r = await api(`/api/v2/getTransactions?address=${c.account}&limit=1`);
      const t = r.body.result[0];
      if (t?.in_msg?.source && t.out_msgs.length > 0 && t.in_msg.msg_data['@type'] === 'msg.dataRaw') {
        ours = t;
        break;
      }
    }
    expect(ours).toBeDefined();
    for (const [k, v] of Object.entries(recorded)) {
      if (k === '@type') continue;
      expect(shape(ours[k]), k).toBe(shape(v));
    }
    for (const [k, v] of Object.entries(recorded.in_msg)) if (k !== '@type') expect(shape(ours.in_msg[k]), `in_msg.${k}`).toBe(shape(v));
    for (const [k, v] of Object.entries(recorded.in_msg.msg_data)) expect(shape(ours.in_msg.msg_data[k]), `msg_data.${k}`).toBe(shape(v));
    // The C++ server's names (ext.transaction / ext.message) and its additions: account, hash, extra_currencies.
    expect(ours['@type']).toBe('ext.transaction');
    expect(ours.in_msg['@type']).toBe('ext.message');
    expect(ours.account).toMatch(/^0:[0-9A-F]{64}$/);
    expect(ours.in_msg.hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    // Addresses are tonlib's bounceable user-friendly form.
    expect(ours.address.account_address).toBe(friendlyAddress(ours.account, { bounceable: true, testnet: false }));
  });

  it('message bodies as the recorded responses print them: `message` = base64 of the body root cell data', () => {
    for (const file of ['toncenter_v2_raw_transaction_PadTON.json', 'toncenter_v2_raw_transaction_jeyroik.json']) {
      const rec = JSON.parse(readFixture(`api-responses/${file}`).toString('utf8'));
      for (const m of [rec.in_msg, ...rec.out_msgs]) {
        if (!m.msg_data.body.startsWith('te6')) continue;
        const ours = v2MessageData(m.msg_data.body, m.msg_data.init_state);
        expect(ours.msg_data).toEqual({ '@type': 'msg.dataRaw', body: m.msg_data.body, init_state: m.msg_data.init_state });
        expect(ours.message).toBe(m.message);
      }
    }
  });

  it('tryLocateTx / tryLocateResultTx / tryLocateSourceTx: the two sides of an internal message', async () => {
    // A message sent and received inside 71398501: an out message of one of its transactions whose receiver is there too.
    const meta = JSON.parse(readFixture('blocks/mainnet_0_8000000000000000_71398501.meta.json').toString('utf8'));
    const inBlock = new Set((meta.transaction_configs as Array<{ account: string; lt: number }>).map((c) => `${c.account.toUpperCase()}|${c.lt}`));
    let found: { source: string; destination: string; created_lt: string; srcLt: string } | undefined;
    for (const c of meta.transaction_configs as Array<{ account: string; lt: number }>) {
      const v3 = (await api(`/api/v3/transactions?account=${c.account}&lt=${c.lt}`)).body.transactions[0];
      const out = v3.out_msgs.find((m: any) => m.destination && m.destination.startsWith('0:'));
      if (!out) continue;
      const recv = (await api(`/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(out.hash)}&direction=in`)).body.transactions[0];
      if (recv && inBlock.has(`${recv.account}|${recv.lt}`)) {
        found = { source: out.source, destination: out.destination, created_lt: out.created_lt, srcLt: String(c.lt) };
        break;
      }
    }
    expect(found).toBeDefined();
    const q = `source=${found!.source}&destination=${found!.destination}&created_lt=${found!.created_lt}`;
    const src = await api(`/api/v2/tryLocateSourceTx?${q}`);
    expect(src.status).toBe(200);
    expect(src.body.result.transaction_id.lt).toBe(found!.srcLt);
    expect(src.body.result.out_msgs.some((m: any) => m.created_lt === found!.created_lt)).toBe(true);
    for (const m of ['tryLocateTx', 'tryLocateResultTx']) {
      const res = await api(`/api/v2/${m}?${q}`);
      expect(res.status).toBe(200);
      expect(res.body.result.in_msg.created_lt).toBe(found!.created_lt);
      expect(Cell.fromBase64(res.body.result.data).hash().toString('base64')).toBe(res.body.result.transaction_id.hash);
    }
    expect(await api(`/api/v2/tryLocateTx?source=${found!.source}&destination=${found!.destination}&created_lt=1`)).toMatchObject({
      status: 404,
      body: { ok: false, code: 404, error: 'transaction not found' },
    });
  });
});

describe('v2 block operations', () => {
  it('getBlockTransactions: the tonutils (account, lt) list of 71398501, in pages; Ext with full transactions', async () => {
    const meta = JSON.parse(readFixture('blocks/mainnet_0_8000000000000000_71398501.meta.json').toString('utf8'));
    const expected = (meta.transaction_configs as Array<{ account: string; lt: number }>).map((c) => `${c.account}|${c.lt}`).sort();
    const seen: string[] = [];
    let after = '';
    for (let i = 0; i < 10; i++) {
      const r = await api(`/api/v2/getBlockTransactions?workchain=0&shard=${MC_SHARD_SIGNED}&seqno=71398501&count=100${after}`);
      expect(r.status).toBe(200);
      const res = r.body.result;
      expect(res.id).toMatchObject({ workchain: 0, shard: MC_SHARD_SIGNED, seqno: 71398501, root_hash: b64(meta.block.root_hash) });
      expect(res.req_count).toBe(100);
      for (const t of res.transactions) {
        expect(t).toMatchObject({ '@type': 'blocks.shortTxId', mode: 135 });
        seen.push(`${t.account}|${t.lt}`);
      }
      if (!res.incomplete) break;
      const last = res.transactions.at(-1);
      after = `&after_lt=${last.lt}&after_hash=${last.account.split(':')[1]}`;
    }
    expect(seen).toHaveLength(269);
    expect([...seen].sort()).toEqual(expected);
    // Block order: by account, then lt.
    expect(seen).toEqual([...seen].sort((a, b) => (a.split('|')[0]! < b.split('|')[0]! ? -1 : a.split('|')[0]! > b.split('|')[0]! ? 1 : Number(BigInt(a.split('|')[1]!) - BigInt(b.split('|')[1]!)))));

    const ext = await rpc('getBlockTransactionsExt', { workchain: 0, shard: MC_SHARD_SIGNED, seqno: 71398501, count: 5 });
    expect(ext.status).toBe(200);
    expect(ext.body.result).toMatchObject({ '@type': 'blocks.transactionsExt', incomplete: true, req_count: 5 });
    expect(ext.body.result.transactions).toHaveLength(5);
    for (const t of ext.body.result.transactions) {
      expect(t['@type']).toBe('raw.transactionExt');
      expect(Cell.fromBase64(t.data).hash().toString('base64')).toBe(t.transaction_id.hash);
      expect(`${t.account.toLowerCase()}|${t.transaction_id.lt}`).toBe(seen[ext.body.result.transactions.indexOf(t)]);
    }
    expect(await api(`/api/v2/getBlockTransactions?workchain=0&shard=${MC_SHARD_SIGNED}&seqno=71398501&after_lt=1`)).toMatchObject({
      status: 422,
      body: { error: 'after_lt and after_hash should be used together' },
    });
    expect((await api(`/api/v2/getBlockTransactions?workchain=0&shard=${MC_SHARD_SIGNED}&seqno=71398502`)).status).toBe(500);
  });

  it('getBlockTransactions(Ext) of all 269 at once (sent in slices) are the pages of 100, over REST and JSON-RPC', async () => {
    const block = `workchain=0&shard=${MC_SHARD_SIGNED}&seqno=71398501`;
    // `@extra` is a fresh request tag in every answer.
    const withoutExtra = (result: Record<string, unknown>) => ({ ...result, '@extra': undefined });
    // Where each page of 100 starts, from the short ids (as the test above pages).
    const starts = [''];
    for (let i = 0; i < 10; i++) {
      const r = await api(`/api/v2/getBlockTransactions?${block}&count=100${starts.at(-1)}`);
      if (!r.body.result.incomplete) break;
      const last = r.body.result.transactions.at(-1);
      starts.push(`&after_lt=${last.lt}&after_hash=${last.account.split(':')[1]}`);
    }
    expect(starts).toHaveLength(3);
    for (const method of ['getBlockTransactions', 'getBlockTransactionsExt']) {
      const pages: unknown[] = [];
      for (const after of starts) {
        const r = await api(`/api/v2/${method}?${block}&count=100${after}`);
        expect(r.status).toBe(200);
        pages.push(...r.body.result.transactions);
      }
      expect(pages).toHaveLength(269);
      const all = await fx.app.inject({ method: 'GET', url: `/api/v2/${method}?${block}&count=1000` });
      expect(all.statusCode).toBe(200);
      expect(all.headers['content-length']).toBe(String(Buffer.byteLength(all.body)));
      const body = all.json() as { ok: boolean; result: Record<string, unknown> & { transactions: unknown[] } };
      expect(Object.keys(body)).toEqual(['ok', 'result']);
      expect(body.result).toMatchObject({ req_count: 1000, incomplete: false });
      // Same records, same key order (JSON.stringify of what JSON.parse read keeps it).
      expect(JSON.stringify(body.result.transactions)).toBe(JSON.stringify(pages));
      const viaRpc = await rpc(method, { workchain: 0, shard: MC_SHARD_SIGNED, seqno: 71398501, count: 1000 });
      expect(viaRpc.status).toBe(200);
      expect(Object.keys(viaRpc.body)).toEqual(['ok', 'result', 'jsonrpc', 'id']);
      expect(viaRpc.body.id).toBe(7);
      expect(JSON.stringify(withoutExtra(viaRpc.body.result))).toBe(JSON.stringify(withoutExtra(body.result)));
    }
  });

  it('lookupBlock by seqno, lt and unixtime (MANIFEST lt ranges and utimes)', async () => {
    const root = b64('244d0a2f58561995bd57943b0db945cb9fa6a5181d501efc334636aa4401c241');
    for (const by of ['seqno=71398501', 'lt=76734069000020', 'unixtime=1778681725', 'unixtime=1778681800']) {
      const r = await api(`/api/v2/lookupBlock?workchain=0&shard=${MC_SHARD_SIGNED}&${by}`);
      expect(r.status, by).toBe(200);
      expect(r.body.result).toMatchObject({ '@type': 'ton.blockIdExt', workchain: 0, seqno: 71398501, root_hash: root });
    }
    expect(await api(`/api/v2/lookupBlock?workchain=0&shard=${MC_SHARD_SIGNED}`)).toMatchObject({
      status: 422,
      body: { error: 'exactly one of seqno, lt, unixtime should be specified' },
    });
    expect((await api(`/api/v2/lookupBlock?workchain=0&shard=${MC_SHARD_SIGNED}&lt=1`)).status).toBe(500);
  });

  it('shards of key block 46991999: the four basechain tips MANIFEST states', async () => {
    const r = await api('/api/v2/shards?seqno=46991999');
    expect(r.status).toBe(200);
    const tips = r.body.result.shards.map((s: any) => [s.workchain, BigInt.asUintN(64, BigInt(s.shard)).toString(16), s.seqno]);
    expect(tips).toEqual([
      [0, '2000000000000000', 52077744],
      [0, '6000000000000000', 52097945],
      [0, 'a000000000000000', 51731388],
      [0, 'e000000000000000', 51757085],
    ]);
    expect((await api('/api/v2/shards?seqno=46991998')).status).toBe(500);
  });

  it('shards carry the tips\' hashes as the masterchain block names them (MANIFEST: 6000… tip of 46991999 is 52097945)', async () => {
    const r = await api('/api/v2/shards?seqno=46991999');
    for (const s of r.body.result.shards) {
      expect(s.root_hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      expect(s.file_hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    }
    // Shard block 52111590 (6000…) names its previous block 52111589 with root E05BBE43… (MANIFEST); tip hashes
    // of an indexed block equal its own row's (the block's root hash is MANIFEST's for 71398501's masterchain ref).
    const header = (await api(`/api/v2/getBlockHeader?workchain=0&shard=${BigInt.asIntN(64, 0x6000000000000000n)}&seqno=52111590`)).body.result;
    expect(Buffer.from(header.prev_blocks[0].root_hash, 'base64').toString('hex').startsWith('e05bbe4312f8')).toBe(true);
  });

  it('getConfigAll / getConfigParam at key block 46991999: the config fixture of that block (MANIFEST root 7387cdff…)', async () => {
    // The fixture is the ConfigParams cell (config_addr, ^dictionary); tonlib's config is the dictionary.
    const params = Cell.fromBoc(readFixture('states/mainnet_config_params_mc46991999.boc'))[0]!;
    expect(params.hash().toString('hex')).toBe('7387cdffe272d6b17bf25efd2c4119e1fbe6aa7637b9bec70b874fc7c2eedb1b');
    const fixture = params.refs[0]!;
    const all = await api('/api/v2/getConfigAll?seqno=46991999');
    expect(all.status).toBe(200);
    expect(all.body.result).toMatchObject({ '@type': 'configInfo', config: { '@type': 'tvm.cell' } });
    expect(Cell.fromBase64(all.body.result.config.bytes).hash().toString('hex')).toBe(fixture.hash().toString('hex'));
    // Param 34 (current validator set) and 8 (global version) as the fixture's dictionary holds them.
    const dict = fixture.beginParse().loadDictDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
    for (const id of [0, 8, 34]) {
      const p = await rpc('getConfigParam', { config_id: id, seqno: 46991999 });
      expect(p.status).toBe(200);
      expect(Cell.fromBase64(p.body.result.config.bytes).hash().equals(dict.get(id)!.hash())).toBe(true);
    }
    expect(await api('/api/v2/getConfigParam?config_id=12345&seqno=46991999')).toMatchObject({ status: 500, body: { ok: false } });
    // Masterchain blocks whose key block the index lacks: no config to answer with (their key block is older).
    const older = await api('/api/v2/getConfigParam?config_id=34&seqno=24374597');
    expect(older).toMatchObject({ status: 500, body: { ok: false, code: 500 } });
    expect(older.body.error).toMatch(/not available from the index/);
    // The newest indexed masterchain block (49383163) is after 46991999; its key block is not the fixture's.
    expect((await api('/api/v2/getConfigAll')).status).toBe(500);
    expect((await api('/api/v2/getConfigAll?seqno=46991998')).status).toBe(500);
  });

  it('operations that need a liteserver answer the v2 error envelope, never a fake result', async () => {
    for (const url of [`/api/v2/getShardBlockProof?workchain=0&shard=${MC_SHARD_SIGNED}&seqno=71398501`]) {
      const r = await api(url);
      expect(r.status, url).toBe(500);
      expect(r.body).toMatchObject({ ok: false, code: 500 });
      expect(r.body.error).toMatch(/not available from the index/);
    }
    // getTokenData runs get-methods: a gateway without a TVM says so (test/integration/v2-token-data.test.ts runs it).
    expect(await api(`/api/v2/getTokenData?address=${ELECTOR}`)).toMatchObject({ status: 503, body: { ok: false, code: 503, error: 'the TVM is not available on this instance' } });
  });
});

describe('v2 address utilities', () => {
  // The C++ ton-http-api's own test vectors (tests/utils/test_001_detect_address.py, test_003, test_004).
  const RAW = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
  const BOUNCEABLE = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
  const NON_BOUNCEABLE = 'UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI';

  it('detectAddress / packAddress / unpackAddress', async () => {
    for (const [form, given] of [
      [BOUNCEABLE, 'friendly_bounceable'],
      [NON_BOUNCEABLE, 'friendly_non_bounceable'],
      [RAW, 'raw_form'],
      [RAW.toUpperCase(), 'raw_form'],
    ] as const) {
      const r = await api(`/api/v2/detectAddress?address=${form}`);
      expect(r.status).toBe(200);
      expect(r.body.result).toEqual({
        '@type': 'ext.utils.detectedAddress',
        raw_form: RAW,
        bounceable: { '@type': 'ext.utils.detectedAddressVariant', b64: BOUNCEABLE, b64url: BOUNCEABLE },
        non_bounceable: { '@type': 'ext.utils.detectedAddressVariant', b64: NON_BOUNCEABLE, b64url: NON_BOUNCEABLE },
        given_type: given,
        test_only: false,
      });
    }
    expect((await api(`/api/v2/packAddress?address=${RAW}`)).body).toEqual({ ok: true, result: BOUNCEABLE });
    for (const form of [BOUNCEABLE, NON_BOUNCEABLE, RAW, RAW.toUpperCase()]) {
      expect((await api(`/api/v2/unpackAddress?address=${form}`)).body).toEqual({ ok: true, result: RAW.toUpperCase() });
    }
    expect((await api(`/api/v2/packAddress?address=${NON_BOUNCEABLE}`)).body).toEqual({ ok: true, result: NON_BOUNCEABLE });
    expect(await api('/api/v2/unpackAddress')).toMatchObject({ status: 422, body: { ok: false } });
    expect(await api('/api/v2/packAddress?address=invalid')).toMatchObject({ status: 422, body: { ok: false } });
    expect(await api('/api/v2/detectAddress?address=not_an_address')).toMatchObject({ status: 422, body: { ok: false, code: 422 } });
    expect(await api('/api/v2/detectAddress?address=')).toMatchObject({ status: 422, body: { ok: false, code: 422 } });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// TonClient (@ton/ton 16.3.0) on a real socket
// ---------------------------------------------------------------------------------------------------------------

let client: TonClient | undefined;
async function tonClient(): Promise<TonClient> {
  if (client) return client;
  await fx.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (fx.app.server.address() as { port: number }).port;
  client = new TonClient({ endpoint: `http://127.0.0.1:${port}/api/v2/jsonRPC` });
  return client;
}

describe('TonClient against the gateway', () => {
  it('getMasterchainInfo: the newest masterchain fixture block (MANIFEST 49383163)', async () => {
    const c = await tonClient();
    const info = await c.getMasterchainInfo();
    expect(info).toMatchObject({ workchain: -1, shard: MC_SHARD_SIGNED, initSeqno: 0, latestSeqno: 49383163 });
  });

  it('getWorkchainShards(46991999): the key block\'s shard tips (MANIFEST)', async () => {
    const c = await tonClient();
    const shards = await c.getWorkchainShards(46991999);
    expect(shards.map((s) => s.seqno)).toEqual([52077744, 52097945, 51731388, 51757085]);
    expect(shards.every((s) => s.workchain === 0)).toBe(true);
  });

  it('getShardTransactions: the 30 transactions of 52111590 (MANIFEST), each a real transaction', async () => {
    const c = await tonClient();
    const txs = await c.getShardTransactions(0, 52111590, BigInt.asIntN(64, 0x6000000000000000n).toString());
    expect(txs).toHaveLength(30);
    // MANIFEST: lt 56269616000000..56269616000011.
    for (const t of txs) expect(BigInt(t.lt) >= 56269616000000n && BigInt(t.lt) <= 56269616000011n).toBe(true);
    const first = txs[0]!;
    const tx = await c.getTransaction(first.account, first.lt, first.hash);
    expect(tx).not.toBeNull();
    expect(tx!.hash().toString('base64')).toBe(first.hash);
    expect(tx!.lt.toString()).toBe(first.lt);
  });

  it('getTransactions / getBalance / getContractState of the elector', async () => {
    const c = await tonClient();
    const addr = Address.parse(ELECTOR_FRIENDLY);
    const txs = await c.getTransactions(addr, { limit: 5 });
    expect(txs.length).toBeGreaterThanOrEqual(4);
    // MANIFEST: the newest elector transaction is in key block 46991999 (utime 1745112841).
    expect(txs[0]!.now).toBe(1745112841);
    const more = await c.getTransactions(addr, { limit: 2, lt: txs[1]!.lt.toString(), hash: txs[1]!.hash().toString('base64') });
    // Not inclusive (TonClient drops the transaction it started from).
    expect(more.map((t) => t.lt)).toEqual([txs[2]!.lt, txs[3]!.lt]);
    const cs = await c.getContractState(addr);
    expect(cs.state).toBe('active');
    expect(cs.lastTransaction?.lt).toBe(txs[0]!.lt.toString());
    expect(cs.lastTransaction?.hash).toBe(txs[0]!.hash().toString('base64'));
    expect(await c.getBalance(addr)).toBe(cs.balance);
  });
});
