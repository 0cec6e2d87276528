import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { Address, Cell, SendMode, beginCell, external, internal, storeMessage, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { TonClient, WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACTS } from '../../shared/sources/devnet/contracts.js';
import { DEFAULT_SUBWALLET } from '../../shared/sources/devnet/wallets.js';
import { actors } from '../../shared/sources/devnet/genesis.js';
import type { SealedTick } from '../../shared/sources/devnet/chain.js';
import type { DevnetSource } from '../../shared/sources/devnet/source.js';
import { decodeBlock } from '../../shared/ton/decode-block.js';
import { type DevnetTonflow, startDevnetTonflow } from '../helpers/devnet-tonflow.js';

/**
 * TON Center's own clients against a devnet-backed tonflow: the devnet (the real TVM) → follower → in-process bus
 * → decode stage → chdb store → gateway on a real socket, its TVM on a worker pool. @ton/ton's TonClient and
 * tonweb's HttpProvider run get-methods, estimate fees and send signed transfers through `/api/v2/jsonRPC`.
 * Expected values come from outside the code under test: keys and addresses derived with @ton/crypto and the
 * clients' own wallet classes, contract code hashes of the fixture-checked contracts, seqnos the wallets count,
 * fees the devnet's block records for the transaction.
 */

// tonweb's published types have no default export for its CommonJS entry: loaded as it runs.
const TonWeb = createRequire(import.meta.url)('tonweb');
const SEND_MODE = SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS;

const SEED = 'tvm-clients';
const WALLETS_PER_KIND = 2;

/** The devnet's key derivation (wallets.ts deriveKey): an Ed25519 seed of sha256(`<seed>:wallet:<kind>:<i>`). */
function walletKeys(kind: string, i: number) {
  return keyPairFromSeed(createHash('sha256').update(`${SEED}:wallet:${kind}:${i}`).digest());
}

describe('TON Center clients on a devnet-backed tonflow', () => {
  let net: DevnetTonflow;
  let source: DevnetSource;
  let endpoint: string;
  // Wallet, jetton and their addresses do not depend on the genesis time (only the vesting wallet does).
  const a = () => actors({ seed: SEED, now: 0, walletsPerKind: WALLETS_PER_KIND });
  const sealAndIndex = (): Promise<SealedTick> => net.sealAndIndex();

  async function rpc(method: string, params: Record<string, unknown>): Promise<any> {
    const res = await fetch(`${endpoint}/api/v2/jsonRPC`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 1, jsonrpc: '2.0', method, params }),
    });
    return { status: res.status, body: await res.json() };
  }

  beforeAll(async () => {
    net = await startDevnetTonflow({ seed: SEED, walletsPerKind: WALLETS_PER_KIND });
    source = net.source;
    endpoint = net.endpoint;
  }, 600_000);

  afterAll(async () => {
    await net?.close();
  }, 120_000);

  it('TonClient: runGetMethod reads a wallet\'s seqno and public key, and a jetton master\'s get_jetton_data', async () => {
    const client = new TonClient({ endpoint: `${endpoint}/api/v2/jsonRPC` });
    const keys = walletKeys('v4r2', 1);
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey, walletId: DEFAULT_SUBWALLET + 1 });
    // The client's own address derivation finds the devnet's genesis wallet.
    const devnetWallet = a().wallets.find((w) => w.kind === 'v4r2' && w.subwalletId === DEFAULT_SUBWALLET + 1)!;
    expect(wallet.address.toRawString()).toBe(`0:${Buffer.from(devnetWallet.address.hash).toString('hex')}`);

    const seqno = await client.runMethod(wallet.address, 'seqno');
    expect(seqno.stack.readNumber()).toBe(0);
    const pk = await client.runMethod(wallet.address, 'get_public_key');
    expect(pk.stack.readBigNumber()).toBe(BigInt('0x' + keys.publicKey.toString('hex')));

    const jetton = a().jetton;
    const minter = new Address(0, Buffer.from(jetton.minter.hash));
    const data = await client.runMethod(minter, 'get_jetton_data');
    const supply = data.stack.readBigNumber();
    expect(data.stack.readNumber()).toBe(-1); // mintable
    expect(data.stack.readAddress().equals(new Address(0, Buffer.from(jetton.admin.address.hash)))).toBe(true);
    const content = data.stack.readCell();
    // TEP-64 off-chain content: 0x01, then the URL.
    expect(content.beginParse().skip(8).loadStringTail()).toBe('https://devnet.tonflow.local/jetton/devusd.json');
    expect(data.stack.readCell().hash().toString('hex')).toBe(CONTRACTS.jettonWallet.codeHash);
    // The supply the holders' wallets hold between them (get_wallet_data of each).
    let held = 0n;
    for (const h of jetton.holders) {
      const w = await client.runMethod(new Address(0, Buffer.from(jetton.walletOf(h.address).hash)), 'get_wallet_data');
      held += w.stack.readBigNumber();
    }
    expect(supply).toBe(held);
    expect(supply).toBeGreaterThan(0n);

    // A get-method the contract lacks is a result with its exit code, not an error (api-v2.md §3.9).
    const missing = await client.runMethodWithError(wallet.address, 'no_such_method');
    expect(missing.exit_code).toBe(11);
    // An account without code: tonlib's -13.
    const nobody = await client.runMethodWithError(new Address(0, Buffer.alloc(32, 7)), 'seqno');
    expect(nobody.exit_code).toBe(-13);
  });

  it('TonClient: estimates a signed transfer, sends it, and the seqno grows; the estimate is what the devnet charged', async () => {
    const client = new TonClient({ endpoint: `${endpoint}/api/v2/jsonRPC` });
    const keys = walletKeys('v4r2', 1);
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey, walletId: DEFAULT_SUBWALLET + 1 });
    const seqno = (await client.runMethod(wallet.address, 'seqno')).stack.readNumber();
    const to = Address.parseRaw(`0:${'11'.repeat(32)}`);
    const transfer = wallet.createTransfer({
      seqno,
      secretKey: keys.secretKey,
      sendMode: SEND_MODE,
      messages: [internal({ to, value: toNano('1.5'), bounce: false, body: 'tonflow client test' })],
    });
    const estimate = await client.estimateExternalMessageFee(wallet.address, { body: transfer, initCode: null, initData: null, ignoreSignature: false });
    const ext = beginCell().store(storeMessage(external({ to: wallet.address, body: transfer }))).endCell();
    await client.sendFile(ext.toBoc());

    const tick = await sealAndIndex();
    expect((await client.runMethod(wallet.address, 'seqno')).stack.readNumber()).toBe(seqno + 1);

    // The transaction the message caused, as the devnet sealed it.
    const block = tick.blocks.find((b) => b.workchain === 0)!;
    const tx = decodeBlock(block.data).transactions.find((t) => t.in_msg?.hash === ext.hash().toString('base64'));
    expect(tx).toBeDefined();
    const d = tx!.description as any;
    const charged = {
      gas: BigInt(d.compute_ph.gas_fees),
      storage: BigInt(d.storage_ph.storage_fees_collected),
      fwd: BigInt(d.action.total_fwd_fees ?? 0),
      total: BigInt(tx!.total_fees),
    };
    const f = estimate.source_fees;
    expect(BigInt(f.gas_fee)).toBe(charged.gas);
    expect(BigInt(f.fwd_fee)).toBe(charged.fwd);
    // The estimate ran at the last indexed block's time, the transaction in the next block: storage fees differ by
    // the storage of the seconds between them (the one documented difference); the import fee is the rest of the total.
    expect(BigInt(f.storage_fee)).toBeLessThanOrEqual(charged.storage);
    expect(charged.storage - BigInt(f.storage_fee)).toBeLessThan(1000n);
    const actionFees = BigInt(d.action.total_action_fees ?? 0);
    expect(BigInt(f.in_fwd_fee)).toBe(charged.total - charged.storage - charged.gas - actionFees);
    expect(f.in_fwd_fee).toBeGreaterThan(0);

    // The transfer arrived in the next block.
    const after = await sealAndIndex();
    const arrived = decodeBlock(after.blocks.find((b) => b.workchain === 0)!.data).transactions.find((t) => t.account === `0:${'11'.repeat(32).toUpperCase()}`);
    expect(arrived?.in_msg?.value).toBe(toNano('1.5').toString());
  });

  it('TonClient reads the balance, opens the wallet, sends a transfer and finds it with getTransactions (needs the v2 reads)', async (ctx) => {
    const probe = await rpc('getAddressInformation', { address: `0:${'00'.repeat(32)}` });
    if (probe.body.error === 'Unknown method') ctx.skip();
    const client = new TonClient({ endpoint: `${endpoint}/api/v2/jsonRPC` });
    const keys = walletKeys('v4r2', 1);
    const opened = client.open(WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey, walletId: DEFAULT_SUBWALLET + 1 }));
    const balance = await opened.getBalance();
    expect(balance).toBe((await source.getAccount(opened.address.toRawString())).balance);
    const seqno = await opened.getSeqno();
    await opened.sendTransfer({ seqno, secretKey: keys.secretKey, sendMode: SEND_MODE, messages: [internal({ to: Address.parseRaw(`0:${'22'.repeat(32)}`), value: toNano('0.1'), bounce: false })] });
    await sealAndIndex();
    expect(await opened.getSeqno()).toBe(seqno + 1);
    const txs = await client.getTransactions(opened.address, { limit: 5 });
    expect(txs[0]!.inMessage?.info.type).toBe('external-in');
    expect(txs[0]!.outMessages.values()[0]!.info.dest?.toString()).toBe(Address.parseRaw(`0:${'22'.repeat(32)}`).toString());
  });

  it('tonweb: seqno, public key, jetton data, fee estimate and a signed transfer through its HttpProvider', async () => {
    const tonweb = new TonWeb(new TonWeb.HttpProvider(`${endpoint}/api/v2/jsonRPC`));
    const keys = walletKeys('v4r2', 0);
    const WalletClass = tonweb.wallet.all.v4R2;
    const wallet = new WalletClass(tonweb.provider, { publicKey: new Uint8Array(keys.publicKey), wc: 0 });
    const address = await wallet.getAddress();
    const devnetWallet = a().wallets.find((w) => w.kind === 'v4r2' && w.subwalletId === DEFAULT_SUBWALLET)!;
    expect(address.toString(false)).toBe(`0:${Buffer.from(devnetWallet.address.hash).toString('hex')}`);

    // tonweb swallows a failed call into null: a number means the stack parsed.
    const seqno = (await wallet.methods.seqno().call()) as number | null;
    expect(seqno).toBe(0);
    const pk = (await (wallet.methods).getPublicKey()) as { toString(base: number): string };
    expect(pk.toString(16).padStart(64, '0')).toBe(keys.publicKey.toString('hex'));

    const minter = new TonWeb.token.jetton.JettonMinter(tonweb.provider, { address: new TonWeb.utils.Address(`0:${Buffer.from(a().jetton.minter.hash).toString('hex')}`) } as any);
    const jd = await minter.getJettonData();
    expect(jd.isMutable).toBe(true);
    expect(jd.jettonContentUri).toBe('https://devnet.tonflow.local/jetton/devusd.json');
    expect(jd.adminAddress!.toString(false)).toBe(`0:${Buffer.from(a().jetton.admin.address.hash).toString('hex')}`);

    const to = `0:${'33'.repeat(32)}`;
    const method = wallet.methods.transfer({
      secretKey: new Uint8Array(keys.secretKey),
      toAddress: to,
      amount: TonWeb.utils.toNano('0.25'),
      seqno: seqno!,
      payload: 'tonweb',
      sendMode: 3,
    });
    const fee = (await method.estimateFee());
    expect(fee['@type']).toBe('query.fees');
    expect(fee.source_fees.gas_fee).toBeGreaterThan(0);
    const sent = (await method.send());
    expect(sent['@type']).toBe('ok');
    await sealAndIndex();
    expect(await wallet.methods.seqno().call()).toBe(seqno! + 1);
  });

  it('tonweb reads the balance and finds its transfer with getTransactions (needs the v2 reads)', async (ctx) => {
    const probe = await rpc('getTransactions', { address: `0:${'00'.repeat(32)}`, limit: 1 });
    if (probe.body.error === 'Unknown method') ctx.skip();
    const tonweb = new TonWeb(new TonWeb.HttpProvider(`${endpoint}/api/v2/jsonRPC`));
    const keys = walletKeys('v4r2', 0);
    const wallet = new tonweb.wallet.all.v4R2(tonweb.provider, { publicKey: new Uint8Array(keys.publicKey), wc: 0 });
    const address = (await wallet.getAddress()).toString(false);
    expect(BigInt(await tonweb.getBalance(address))).toBe((await source.getAccount(address)).balance);
    const txs = await tonweb.getTransactions(address, 5);
    // The transfer of the test before: the wallet's newest transaction, an external message with one out message.
    expect(txs[0].in_msg.source).toBe('');
    expect(txs[0].out_msgs.map((m: { destination: string }) => new TonWeb.utils.Address(m.destination).toString(false))).toEqual([`0:${'33'.repeat(32)}`]);
  });

  it('v2 and v3 wire shapes: stacks, errors, sendBocReturnHash and v3 message', async () => {
    const keys = walletKeys('v4r2', 1);
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey, walletId: DEFAULT_SUBWALLET + 1 });
    const addr = wallet.address.toRawString();

    // REST POST and JSON-RPC agree.
    const rest = await fetch(`${endpoint}/api/v2/runGetMethod`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: addr, method: 'get_subwallet_id', stack: [] }),
    });
    const restBody = (await rest.json()) as any;
    expect(rest.status).toBe(200);
    expect(restBody.result['@type']).toBe('smc.runResult');
    expect(restBody.result.stack).toEqual([['num', `0x${(DEFAULT_SUBWALLET + 1).toString(16)}`]]);
    expect(restBody.result.block_id['@type']).toBe('ton.blockIdExt');
    expect(restBody.result.last_transaction_id['@type']).toBe('internal.transactionId');

    // A slice in: get_wallet_address of the jetton master, answered as ["cell", {bytes, object}].
    const j = a().jetton;
    const owner = beginCell().storeAddress(new Address(0, Buffer.from(j.holders[0]!.address.hash))).endCell();
    const r = await rpc('runGetMethod', { address: `0:${Buffer.from(j.minter.hash).toString('hex')}`, method: 'get_wallet_address', stack: [['tvm.Slice', owner.toBoc().toString('base64')]] });
    expect(r.status).toBe(200);
    const [type, value] = r.body.result.stack[0];
    expect(type).toBe('cell');
    expect(Cell.fromBase64(value.bytes).beginParse().loadAddress().hash.toString('hex')).toBe(Buffer.from(j.walletOf(j.holders[0]!.address).hash).toString('hex'));
    expect(value.object.data.len).toBe(267);

    // A masterchain block the index does not hold: the liteserver's answer.
    const future = await rpc('runGetMethod', { address: addr, method: 'seqno', stack: [], seqno: 99_999_999 });
    expect(future.status).toBe(500);
    expect(future.body.error).toMatch(/^LITE_SERVER_NOTREADY: cannot find block/);

    // Bad input: 422 in the v2 envelope.
    const bad = await rpc('runGetMethod', { address: addr, method: 'seqno', stack: [['num']] });
    expect(bad).toEqual({ status: 422, body: { ok: false, error: 'Invalid stack entry format: array of exact 2 elements expected', code: 422, jsonrpc: '2.0', id: 1 } });
    const badBoc = await rpc('sendBoc', { boc: 'bm90IGEgYm9j' });
    expect(badBoc.status).toBe(422);
    expect(badBoc.body.error).toMatch(/^failed to parse boc/);

    // A transfer with a stale seqno: the wallet does not accept it (a liteserver's refusal, 500).
    const stale = wallet.createTransfer({ seqno: 0, secretKey: keys.secretKey, sendMode: SEND_MODE, messages: [internal({ to: wallet.address, value: 1n, bounce: false })] });
    const staleBoc = beginCell().store(storeMessage(external({ to: wallet.address, body: stale }))).endCell().toBoc().toString('base64');
    const refused = await rpc('sendBocReturnHash', { boc: staleBoc });
    expect(refused.status).toBe(500);
    expect(refused.body.error).toMatch(/^LITE_SERVER_UNKNOWN: cannot apply external message to current state/);

    // v3: runGetMethod flattens the stack; message answers the hashes.
    const v3 = await fetch(`${endpoint}/api/v3/runGetMethod`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: addr, method: 'get_public_key', stack: [] }),
    });
    expect(await v3.json()).toMatchObject({ exit_code: 0, stack: [{ type: 'num', value: `0x${keys.publicKey.toString('hex').replace(/^0+/, '')}` }] });
    const missing = await fetch(`${endpoint}/api/v3/runGetMethod`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: 'seqno' }) });
    expect({ status: missing.status, body: await missing.json() }).toEqual({ status: 401, body: { error: 'address is required' } });

    const seqno = (await rpc('runGetMethod', { address: addr, method: 'seqno', stack: [] })).body.result.stack[0][1] as string;
    const good = wallet.createTransfer({ seqno: Number(seqno), secretKey: keys.secretKey, sendMode: SEND_MODE, messages: [internal({ to: wallet.address, value: 1n, bounce: false })] });
    const goodMsg = beginCell().store(storeMessage(external({ to: wallet.address, body: good }))).endCell();
    const sent = await fetch(`${endpoint}/api/v3/message`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc: goodMsg.toBoc().toString('base64') }) });
    const sentBody = (await sent.json()) as any;
    expect(sent.status).toBe(200);
    expect(sentBody.message_hash).toBe(goodMsg.hash().toString('base64'));
    // TEP-467: ext_in_msg_info with src addr_none, the same dest, import_fee 0, no init, the body as a reference.
    const norm = beginCell().storeUint(2, 2).storeUint(0, 2).storeAddress(wallet.address).storeCoins(0).storeBit(0).storeBit(1).storeRef(good).endCell();
    expect(sentBody.message_hash_norm).toBe(norm.hash().toString('base64'));
    await sealAndIndex();
  });
});
