import { createHash } from 'node:crypto';
import { Address, Cell, Dictionary, type Slice } from '@ton/core';
import { TonClient } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACTS } from '../../shared/sources/devnet/contracts.js';
import { actors } from '../../shared/sources/devnet/genesis.js';
import type { StdAddr } from '../../shared/sources/devnet/tlb.js';
import { type DevnetTonflow, startDevnetTonflow } from '../helpers/devnet-tonflow.js';

/**
 * API v2 getTokenData on a devnet-backed tonflow (the devnet's genesis jettons, NFT collection and items, the
 * .ton DNS collection, on the real TVM), over REST and JSON-RPC. Expected values are what the genesis set up (its
 * URIs, owners, admins, item count), what @ton/ton's TonClient reads with the contracts' own get-methods through
 * runGetMethod, and addresses printed by @ton/core; the wire follows the C++ ton-http-api (`ext.tokens.*`).
 */

const SEED = 'v2-token-data';
const a = () => actors({ seed: SEED, now: 0, walletsPerKind: 2 });
const address = (s: StdAddr) => new Address(s.workchain, Buffer.from(s.hash));
const raw = (s: StdAddr) => `${s.workchain}:${Buffer.from(s.hash).toString('hex').toUpperCase()}`;
/** How the server prints a contract's addresses: bounceable, mainnet, url-safe. */
const printed = (s: StdAddr) => address(s).toString({ bounceable: true, testOnly: false, urlSafe: true });

describe('v2 getTokenData on a devnet-backed tonflow', () => {
  let net: DevnetTonflow;
  let client: TonClient;

  async function get(addr: string | undefined, extra = ''): Promise<{ status: number; body: any }> {
    const q = addr === undefined ? '' : `address=${encodeURIComponent(addr)}`;
    const res = await fetch(`${net.endpoint}/api/v2/getTokenData?${q}${extra}`);
    return { status: res.status, body: await res.json() };
  }

  async function rpc(params: Record<string, unknown>): Promise<{ status: number; body: any }> {
    const res = await fetch(`${net.endpoint}/api/v2/jsonRPC`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 7, jsonrpc: '2.0', method: 'getTokenData', params }),
    });
    return { status: res.status, body: await res.json() };
  }

  beforeAll(async () => {
    net = await startDevnetTonflow({ seed: SEED, walletsPerKind: 2 });
    client = new TonClient({ endpoint: `${net.endpoint}/api/v2/jsonRPC` });
  }, 600_000);

  afterAll(async () => {
    await net?.close();
  }, 120_000);

  it('a jetton master: supply, mintable, admin, off-chain content and wallet code; the address echoed as given', async () => {
    const j = a().jetton;
    const onChain = await client.runMethod(address(j.minter), 'get_jetton_data');
    const supply = onChain.stack.readBigNumber();
    expect(supply).toBeGreaterThan(0n);

    const r = await get(raw(j.minter));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      ok: true,
      result: {
        '@type': 'ext.tokens.jettonMasterData',
        address: raw(j.minter),
        contract_type: 'jetton_master',
        total_supply: supply.toString(),
        mintable: true,
        admin_address: printed(j.admin.address),
        jetton_content: { type: 'offchain', data: 'https://devnet.tonflow.local/jetton/devusd.json' },
        jetton_wallet_code: expect.any(String),
      },
    });
    expect(Cell.fromBase64(r.body.result.jetton_wallet_code).hash().toString('hex')).toBe(CONTRACTS.jettonWallet.codeHash);

    // A user-friendly address comes back in its own form (flags kept, url-safe), and JSON-RPC answers the same.
    const friendly = address(j.minter).toString({ bounceable: false, testOnly: true, urlSafe: false });
    const f = await get(friendly);
    expect(f.body.result.address).toBe(address(j.minter).toString({ bounceable: false, testOnly: true, urlSafe: true }));
    const viaRpc = await rpc({ address: raw(j.minter) });
    expect(viaRpc.status).toBe(200);
    expect(viaRpc.body).toEqual({ ...r.body, jsonrpc: '2.0', id: 7 });
  });

  it('a jetton wallet, confirmed by its master: balance, owner, master, code; no mintless flag', async () => {
    const j = a().jetton;
    const holder = j.holders[0]!;
    const wallet = j.walletOf(holder.address);
    const onChain = await client.runMethod(address(wallet), 'get_wallet_data');
    const r = await get(raw(wallet));
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual({
      '@type': 'ext.tokens.jettonWalletData',
      address: raw(wallet),
      contract_type: 'jetton_wallet',
      balance: onChain.stack.readBigNumber().toString(),
      owner: printed(holder.address),
      jetton: printed(j.minter),
      jetton_wallet_code: expect.any(String),
    });
    expect(Cell.fromBase64(r.body.result.jetton_wallet_code).hash().toString('hex')).toBe(CONTRACTS.jettonWallet.codeHash);
  });

  it('the stablecoin master\'s on-chain content (TEP-64 dictionary) and one of its wallets', async () => {
    const s = a().stablecoin;
    // The content cell as the contract returns it, read with @ton/core: snake values under sha256 keys.
    const onChain = await client.runMethod(address(s.minter), 'get_jetton_data');
    onChain.stack.skip(3);
    const cs = onChain.stack.readCell().beginParse();
    expect(cs.loadUint(8)).toBe(0); // onchain#00
    const dict = cs.loadDict(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
    const key = (name: string) => BigInt('0x' + createHash('sha256').update(name).digest('hex'));
    const text = (c: Cell | undefined) => {
      const v: Slice = c!.beginParse();
      expect(v.loadUint(8)).toBe(0); // snake#00
      return v.loadStringTail();
    };
    const expected: Record<string, string> = {};
    for (const name of ['uri', 'name', 'description', 'image', 'symbol', 'decimals']) if (dict.has(key(name))) expected[name] = text(dict.get(key(name)));
    expect(expected.uri).toBe('https://devnet.tonflow.local/jetton/dusdt.json');

    const r = await get(raw(s.minter));
    expect(r.status).toBe(200);
    expect(r.body.result.contract_type).toBe('jetton_master');
    expect(r.body.result.jetton_content).toEqual({ type: 'onchain', data: expected });
    expect(r.body.result.admin_address).toBe(printed(s.admin.address));

    const holder = s.holders[0]!;
    const w = await get(raw(s.walletOf(holder.address)));
    expect(w.status).toBe(200);
    expect(w.body.result).toMatchObject({ contract_type: 'jetton_wallet', owner: printed(holder.address), jetton: printed(s.minter) });
    expect(Cell.fromBase64(w.body.result.jetton_wallet_code).hash().toString('hex')).toBe(CONTRACTS.stablecoinWallet.codeHash);
  });

  it('an NFT collection with an owner, and the DNS collection without one', async () => {
    const n = a().nft;
    const r = await get(raw(n.collection));
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual({
      '@type': 'ext.tokens.nftCollectionData',
      address: raw(n.collection),
      contract_type: 'nft_collection',
      next_item_index: String(n.items),
      owner_address: printed(n.owner.address),
      collection_content: { type: 'offchain', data: 'https://devnet.tonflow.local/nft/collection.json' },
    });

    const dns = a().dns.collection;
    const onChain = await client.runMethod(address(dns), 'get_collection_data');
    const d = await get(raw(dns));
    expect(d.status).toBe(200);
    expect(d.body.result).toEqual({
      '@type': 'ext.tokens.nftCollectionData',
      address: raw(dns),
      contract_type: 'nft_collection',
      next_item_index: onChain.stack.readBigNumber().toString(),
      collection_content: { type: 'offchain', data: 'https://dns.ton.org/collection.json' },
    });
  });

  it('an NFT item, confirmed by its collection, with the full content the collection builds', async () => {
    const actorsNow = a();
    const n = actorsNow.nft;
    const index = 1;
    const item = n.itemAddress(index);
    const r = await get(raw(item));
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual({
      '@type': 'ext.tokens.nftItemData',
      address: raw(item),
      contract_type: 'nft_item',
      init: true,
      index: String(index),
      collection_address: printed(n.collection),
      owner_address: printed(actorsNow.wallets[index % actorsNow.wallets.length]!.address),
      // The collection's common prefix and the item's own part (genesis: `<i>.json`).
      content: { type: 'offchain', data: `https://devnet.tonflow.local/nft/${index}.json` },
    });
  });

  it('anything else is ton-http-api\'s 409; a bad or missing address its 422', async () => {
    const wallet = a().wallets[0]!;
    const w = await get(raw(wallet.address));
    expect(w).toEqual({ status: 409, body: { ok: false, error: `Smart contract ${raw(wallet.address)} is not Jetton or NFT`, code: 409 } });
    const nobody = `0:${'07'.repeat(32).toUpperCase()}`;
    expect((await get(nobody)).body.error).toBe(`Smart contract ${nobody} is not Jetton or NFT`);
    const viaRpc = await rpc({ address: raw(wallet.address) });
    expect(viaRpc.status).toBe(409);
    expect(viaRpc.body).toMatchObject({ ok: false, code: 409, id: 7 });

    expect(await get('not-an-address')).toEqual({ status: 422, body: { ok: false, error: 'failed to parse address', code: 422 } });
    expect(await get(undefined)).toEqual({ status: 422, body: { ok: false, error: 'empty address', code: 422 } });
    expect((await get(raw(a().jetton.minter), '&seqno=0')).body.error).toBe('seqno should be positive');
  });
});
