import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Address, Cell, SendMode, beginCell, external, internal, storeMessage, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { TonClient, WalletContractV3R2, WalletContractV4 } from '@ton/ton';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../services/gateway/app.js';
import { createStateFiller } from '../../services/follower/fill-states.js';
import { follow } from '../../services/follower/follow.js';
import { runDecodeStage } from '../../services/indexer/decode.js';
import { createStoreWriter } from '../../services/indexer/sink.js';
import { blockToRows } from '../../services/indexer/to-rows.js';
import { createMemoryBus } from '../../shared/bus/memory.js';
import { createMetrics } from '../../shared/runtime/metrics.js';
import { exportDevnet } from '../../shared/sources/devnet/export.js';
import { actors, genesis } from '../../shared/sources/devnet/genesis.js';
import { DEFAULT_SUBWALLET } from '../../shared/sources/devnet/wallets.js';
import { createFilesSource } from '../../shared/sources/files.js';
import { createStore } from '../../shared/store/client.js';
import { migrate } from '../../shared/store/migrate.js';
import type { Store } from '../../shared/store/store.js';
import { decodeBlock } from '../../shared/ton/decode-block.js';
import { STATE_SNAPSHOT_FILE, StateSnapshotError } from '../../shared/ton/state-snapshot.js';
import { type DevnetTonflow, startDevnetTonflow } from '../helpers/devnet-tonflow.js';
import { readFixture } from '../helpers/fixtures.js';
import { patience } from '../helpers/patience.js';
import { silentLogger } from '../helpers/gateway.js';

/**
 * Full account states (issue 30 part 1): accounts that no indexed block touches get their state from the source's
 * state snapshot (the devnet's zerostate; a files directory's `state-snapshot.json`, which `devnet export` writes),
 * and code pruned from a later block's state update is rebuilt from the cells an earlier block carried whole.
 * Expected values come from outside the indexer: the devnet chain's own account state (the chain is the truth),
 * @ton/ton's wallet classes (code and data of a wallet from its public key), the contract fixture files.
 */

const SEED = 'full-states';
const WALLETS_PER_KIND = 2;
const SEND_MODE = SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS;

/** The devnet's key derivation (wallets.ts deriveKey): an Ed25519 seed of sha256(`<seed>:wallet:<kind>:<i>`). */
function walletKeys(seed: string, kind: string, i: number) {
  return keyPairFromSeed(createHash('sha256').update(`${seed}:wallet:${kind}:${i}`).digest());
}

const hashB64 = (boc: string): string => Cell.fromBase64(boc).hash().toString('base64');

async function rpc(endpoint: string, method: string, params: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${endpoint}/api/v2/jsonRPC`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 1, jsonrpc: '2.0', method, params }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: any }).result;
}

async function getJson(endpoint: string, url: string): Promise<any> {
  const res = await fetch(`${endpoint}${url}`);
  expect(res.status, url).toBe(200);
  return res.json();
}

describe('full states on a devnet-backed tonflow', () => {
  let net: DevnetTonflow;

  beforeAll(async () => {
    net = await startDevnetTonflow({ seed: SEED, walletsPerKind: WALLETS_PER_KIND });
  }, 600_000);

  afterAll(async () => {
    await net?.close();
  }, 120_000);

  it('a genesis wallet with no transaction: v2 getAddressInformation and v3 account answer its real balance, code and data', async () => {
    const keys = walletKeys(SEED, 'v3r2', 1);
    const wallet = WalletContractV3R2.create({ workchain: 0, publicKey: keys.publicKey, walletId: DEFAULT_SUBWALLET + 1 });
    const raw = wallet.address.toRawString();
    // The chain's own view of the account: never transacted, funded at genesis.
    const chain = await net.source.getAccount(raw);
    expect(chain.status).toBe('active');
    expect(chain.lastTransLt).toBe(0n);
    expect(chain.balance).toBeGreaterThan(0n);
    const accountCell = Cell.fromBoc(Buffer.from(chain.shardAccount))[0]!.refs[0]!;

    const info = await rpc(net.endpoint, 'getAddressInformation', { address: wallet.address.toString() });
    expect(info.state).toBe('active');
    expect(info.balance).toBe(chain.balance.toString());
    expect(info.last_transaction_id.lt).toBe('0');
    // Code and data as @ton/ton builds them for this key and subwallet.
    expect(hashB64(info.code)).toBe(wallet.init.code.hash().toString('base64'));
    expect(hashB64(info.data)).toBe(wallet.init.data.hash().toString('base64'));

    const v3 = await getJson(net.endpoint, `/api/v3/account?address=${encodeURIComponent(wallet.address.toString())}`);
    expect(v3.status).toBe('active');
    expect(v3.balance).toBe(chain.balance.toString());
    expect(hashB64(v3.code)).toBe(wallet.init.code.hash().toString('base64'));
    expect(hashB64(v3.data)).toBe(wallet.init.data.hash().toString('base64'));

    const states = await getJson(net.endpoint, `/api/v3/accountStates?address=${encodeURIComponent(raw)}&include_boc=true`);
    expect(states.accounts).toHaveLength(1);
    expect(states.accounts[0].account_state_hash).toBe(accountCell.hash().toString('base64'));
    expect(states.accounts[0].code_hash).toBe(wallet.init.code.hash().toString('base64'));

    // The TVM runs on it too: its seqno and public key through runGetMethod.
    const client = new TonClient({ endpoint: `${net.endpoint}/api/v2/jsonRPC` });
    expect((await client.runMethod(wallet.address, 'seqno')).stack.readNumber()).toBe(0);
  });

  it('code deployed in one block and pruned from a later block\'s state update is rebuilt from the cells seen before', async () => {
    const client = new TonClient({ endpoint: `${net.endpoint}/api/v2/jsonRPC` });
    const sendExternal = async (to: Address, body: Cell, init?: { code: Cell; data: Cell }): Promise<void> => {
      const ext = beginCell().store(storeMessage(external({ to, body, ...(init ? { init } : {}) }))).endCell();
      await client.sendFile(ext.toBoc());
    };
    // A wallet that is not in the genesis: funded by a genesis wallet, deployed, then used once more.
    const fresh = keyPairFromSeed(createHash('sha256').update(`${SEED}: a wallet deployed later`).digest());
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: fresh.publicKey });
    const raw = wallet.address.toRawString();
    const funderKeys = walletKeys(SEED, 'v4r2', 0);
    const funder = WalletContractV4.create({ workchain: 0, publicKey: funderKeys.publicKey, walletId: DEFAULT_SUBWALLET });
    const funderSeqno = (await client.runMethod(funder.address, 'seqno')).stack.readNumber();
    await sendExternal(
      funder.address,
      funder.createTransfer({ seqno: funderSeqno, secretKey: funderKeys.secretKey, sendMode: SEND_MODE, messages: [internal({ to: wallet.address, value: toNano('10'), bounce: false })] }),
    );
    // The funder's transaction, then the credit to the new address (delivered in a later block).
    for (let i = 0; i < 4 && (await net.source.getAccount(raw)).status !== 'uninit'; i++) await net.sealAndIndex();
    expect((await net.source.getAccount(raw)).status).toBe('uninit');

    // Block N: deployed; its state update holds the new code whole.
    await sendExternal(
      wallet.address,
      wallet.createTransfer({ seqno: 0, secretKey: fresh.secretKey, sendMode: SEND_MODE, messages: [internal({ to: funder.address, value: toNano('0.1'), bounce: false })] }),
      wallet.init,
    );
    await net.sealAndIndex();
    expect((await net.source.getAccount(raw)).status).toBe('active');
    // Block M: touched again; the code did not change, so the state update prunes it.
    await sendExternal(
      wallet.address,
      wallet.createTransfer({ seqno: 1, secretKey: fresh.secretKey, sendMode: SEND_MODE, messages: [internal({ to: funder.address, value: toNano('0.2'), bounce: false })] }),
    );
    await net.sealAndIndex();
    const chain = await net.source.getAccount(raw);
    const chainAccount = Cell.fromBoc(Buffer.from(chain.shardAccount))[0]!.refs[0]!;
    const codeHash = wallet.init.code.hash().toString('base64');
    expect(Cell.fromBoc(Buffer.from(chain.code!))[0]!.hash().toString('base64')).toBe(codeHash);

    // The stored latest state is block M's: its own row has no code (the block pruned it).
    const [row] = await net.store.query<{ account_state_hash: string; code_hash: string | null; code_boc: string | null; data_boc: string | null }>(
      `SELECT account_state_hash, code_hash, code_boc, data_boc FROM latest_account_states FINAL WHERE account = {a:String}`,
      { a: raw.toUpperCase() },
    );
    expect(row).toBeDefined();
    expect(row!.account_state_hash).toBe(chainAccount.hash().toString('base64'));
    expect(row!.code_hash).toBe(codeHash);
    expect(row!.code_boc).toBeNull();

    // v3 accountStates and v2 getAddressInformation still give the whole code, hashing to the chain's code_hash.
    const states = await getJson(net.endpoint, `/api/v3/accountStates?address=${encodeURIComponent(raw)}&include_boc=true`);
    const st = states.accounts[0];
    expect(st.account_state_hash).toBe(chainAccount.hash().toString('base64'));
    expect(st.code_hash).toBe(codeHash);
    expect(hashB64(st.code_boc)).toBe(codeHash);
    expect(hashB64(st.data_boc)).toBe(st.data_hash);
    const info = await rpc(net.endpoint, 'getAddressInformation', { address: wallet.address.toString() });
    expect(hashB64(info.code)).toBe(codeHash);
    expect(info.balance).toBe(chain.balance.toString());
  });
});

describe('the fill path: code that no block carried, fetched once through the source port', () => {
  const seed = 'full-states-fill';
  let net: DevnetTonflow;

  beforeAll(async () => {
    // Without the zerostate snapshot: a genesis wallet's code was never in any indexed block.
    net = await startDevnetTonflow({ seed, walletsPerKind: WALLETS_PER_KIND, genesisStates: false });
  }, 600_000);

  afterAll(async () => {
    await net?.close();
  }, 120_000);

  it('a genesis wallet touched once: its pruned code is fetched from the devnet\'s chain, lands in the cell store, and is not fetched again', async () => {
    const keys = walletKeys(seed, 'v4r2', 0);
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey, walletId: DEFAULT_SUBWALLET });
    const raw = wallet.address.toRawString().toUpperCase();
    const codeHash = wallet.init.code.hash().toString('base64');
    // No snapshot: the index knows nothing of the wallet yet.
    expect((await rpc(net.endpoint, 'getAddressInformation', { address: wallet.address.toString() })).state).toBe('uninitialized');
    const transfer = wallet.createTransfer({ seqno: 0, secretKey: keys.secretKey, sendMode: SEND_MODE, messages: [internal({ to: Address.parseRaw(`0:${'22'.repeat(32)}`), value: toNano('1'), bounce: false })] });
    const sent = await net.source.sendMessage(beginCell().store(storeMessage(external({ to: wallet.address, body: transfer }))).endCell().toBoc());
    sent.result.catch(() => {});
    await net.sealAndIndex();
    expect((await net.source.getAccount(raw)).lastTransLt).toBeGreaterThan(0n);

    const accountStates = () => getJson(net.endpoint, `/api/v3/accountStates?address=${encodeURIComponent(raw)}&include_boc=true`);
    const before = (await accountStates()).accounts[0];
    expect(before.code_hash).toBe(codeHash);
    // The block's state update pruned the code, and no other block ever held it.
    expect(before.code_boc).toBeUndefined();

    const filler = createStateFiller({
      store: net.store,
      source: { accountStatesAt: net.source.accountStatesAt!.bind(net.source) },
      producer: { send: (_topic, messages) => net.publish(messages) },
      topic: 'unused',
      logger: silentLogger(),
      signal: new AbortController().signal,
    });
    const first = await filler.round('');
    expect(first.missing).toBeGreaterThanOrEqual(1);
    expect(first.published).toBe(first.missing);
    await expect.poll(async () => (await accountStates()).accounts[0].code_boc, { timeout: patience(30_000), interval: 200 }).toBeDefined();
    const after = (await accountStates()).accounts[0];
    expect(hashB64(after.code_boc)).toBe(codeHash);
    expect(after.account_state_hash).toBe(before.account_state_hash);
    // The chain's state of the wallet: the one fetched.
    const chain = await net.source.getAccount(raw);
    expect(after.account_state_hash).toBe(Cell.fromBoc(Buffer.from(chain.shardAccount))[0]!.refs[0]!.hash().toString('base64'));
    // Its code is in the cell store now: the next round finds nothing to fetch for it.
    const second = await filler.round('');
    expect(second.missing).toBe(0);
    expect(second.published).toBe(0);
  });
});

/** Replays `dir` through the files source into a fresh chdb store (follower → in-process bus → decode stage). */
async function indexFiles(dir: string, storeDir: string): Promise<{ store: Store; app: FastifyInstance; endpoint: string; close: () => Promise<void> }> {
  const store = await createStore({ mode: 'embedded', dataDir: storeDir, database: `full_states_${process.pid}_${Date.now().toString(36)}` });
  await migrate(store);
  const bus = createMemoryBus({ partitionsDefault: 1 });
  const topic = 'full-states-files.blocks.raw';
  await bus.ensureTopics([
    { name: topic, partitions: 1, maxMessageBytes: 64 * 1024 * 1024 },
    { name: `${topic}.mc`, partitions: 1 },
  ]);
  const producer = await bus.producer();
  const logger = silentLogger();
  const consumer = bus.consumer({ groupId: 'full-states-files.decode', topics: [topic] });
  let stored = 0;
  let wake: () => void = () => {};
  const stage = runDecodeStage({
    consumer,
    toRows: blockToRows,
    write: createStoreWriter({ store, logger }),
    deadLetter: async (_m, e) => {
      throw e;
    },
    decodeWorkers: 0,
    onBatch: (b) => {
      stored += b.blocks;
      wake();
    },
  });
  stage.catch(() => {});
  let published = 0;
  const source = await createFilesSource({ dir });
  await follow({
    source,
    producer,
    topic,
    mcTopic: `${topic}.mc`,
    checkpoints: { load: async () => null, save: async () => {} },
    saveAfterPublish: false,
    signal: new AbortController().signal,
    onGroup: (g) => (published += g.blocks),
  });
  while (stored < published) await new Promise<void>((r) => (wake = r));
  await consumer.stop();
  await bus.close();
  const app = await buildApp({
    store,
    logger,
    metrics: createMetrics({ service: 'gateway', processMetrics: false }),
    config: { apiKeys: [], rpsWithoutKey: 0, testnet: false, validateResponses: true, responseCacheEntries: 0 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  return {
    store,
    app,
    endpoint: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`,
    close: async () => {
      await app.close();
      await store.command(`DROP DATABASE IF EXISTS ${store.database}`);
      await store.close();
    },
  };
}

describe('full states from a files directory with a state snapshot (devnet export)', () => {
  const genesisUtime = 1_800_000_000;
  const seed = 'full-states-files';
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tonflow-full-states-export-'));
    await exportDevnet({ out: dir, transactions: 60, tps: 30, seed, genesisUtime, walletsPerKind: WALLETS_PER_KIND, traffic: 'transfers' });
  }, 600_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('answers getAddressInformation for genesis accounts no exported block touches, with their genesis balance and code', async () => {
    const g = genesis({ seed, now: genesisUtime, walletsPerKind: WALLETS_PER_KIND });
    // Accounts with a transaction in the exported blocks (decoded independently of the pipeline).
    const touched = new Set<string>();
    for (const f of (await readdir(dir)).filter((n) => n.endsWith('.boc'))) {
      for (const t of decodeBlock(await readFile(path.join(dir, f))).transactions) touched.add(t.account);
    }
    const multisig = actors({ seed, now: genesisUtime, walletsPerKind: WALLETS_PER_KIND }).multisig.address;
    const multisigRaw = `0:${Buffer.from(multisig.hash).toString('hex').toUpperCase()}`;
    expect(touched.has(multisigRaw)).toBe(false);
    const genesisMultisig = g.accounts.find((a) => Buffer.from(a.hash).equals(Buffer.from(multisig.hash)))!;

    const storeDir = await mkdtemp(path.join(tmpdir(), 'tonflow-full-states-store-'));
    const t = await indexFiles(dir, storeDir);
    try {
      const address = new Address(0, Buffer.from(multisig.hash)).toString();
      const info = await rpc(t.endpoint, 'getAddressInformation', { address });
      expect(info.state).toBe('active');
      expect(info.balance).toBe(genesisMultisig.balance.toString());
      expect(info.last_transaction_id.lt).toBe('0');
      // The multisig v2 code of the fixture file (MANIFEST: ton-blockchain/multisig-contract-v2).
      expect(hashB64(info.code)).toBe(Cell.fromBoc(readFixture('contracts/multisig_v2.code.boc'))[0]!.hash().toString('base64'));
      expect(info.data).not.toBe('');

      const v3 = await getJson(t.endpoint, `/api/v3/account?address=${encodeURIComponent(address)}`);
      expect(v3.balance).toBe(genesisMultisig.balance.toString());
      expect(hashB64(v3.code)).toBe(hashB64(info.code));

      // Every genesis account has a state; touched ones the newer one their blocks gave.
      const [count] = await t.store.query<{ n: string }>('SELECT count() AS n FROM latest_account_states FINAL');
      expect(Number(count!.n)).toBeGreaterThanOrEqual(g.accounts.length);
    } finally {
      await t.close();
      await rm(storeDir, { recursive: true, force: true });
    }
  }, 600_000);

  it('a malformed snapshot stops the source with STATE_SNAPSHOT_INVALID before anything is read from the directory', async () => {
    const bad = await mkdtemp(path.join(tmpdir(), 'tonflow-full-states-bad-'));
    try {
      for (const f of await readdir(dir)) await copyFile(path.join(dir, f), path.join(bad, f));
      const text = await readFile(path.join(dir, STATE_SNAPSHOT_FILE), 'utf8');
      const snapshot = JSON.parse(text) as { accounts: Array<{ balance: string }> };
      snapshot.accounts[3]!.balance = (BigInt(snapshot.accounts[3]!.balance) + 1n).toString();
      await writeFile(path.join(bad, STATE_SNAPSHOT_FILE), JSON.stringify(snapshot));
      const err = await createFilesSource({ dir: bad }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StateSnapshotError);
      expect((err as StateSnapshotError).code).toBe('STATE_SNAPSHOT_INVALID');
      expect((err as Error).message).toContain(`${path.join(bad, STATE_SNAPSHOT_FILE)}: accounts[3]: balance`);

      await writeFile(path.join(bad, STATE_SNAPSHOT_FILE), text.slice(0, text.length / 2));
      const truncated = await createFilesSource({ dir: bad }).then(
        () => null,
        (e: unknown) => e,
      );
      expect((truncated as StateSnapshotError).code).toBe('STATE_SNAPSHOT_INVALID');
      expect((truncated as Error).message).toMatch(/not JSON/);

      // The directory without a snapshot replays as before: blocks only, no states.
      await rm(path.join(bad, STATE_SNAPSHOT_FILE));
      const plain = await createFilesSource({ dir: bad });
      for await (const grp of plain.groups(null, new AbortController().signal)) {
        expect(grp.states).toBeUndefined();
        break;
      }
      // With it, the first group of a replay from the start carries it; a resumed one does not.
      await copyFile(path.join(dir, STATE_SNAPSHOT_FILE), path.join(bad, STATE_SNAPSHOT_FILE));
      const withStates = await createFilesSource({ dir: bad });
      const seen: Array<{ states: boolean; checkpoint: string }> = [];
      for await (const grp of withStates.groups(null, new AbortController().signal)) {
        seen.push({ states: grp.states !== undefined, checkpoint: grp.checkpoint });
        if (seen.length === 2) break;
      }
      expect(seen.map((s) => s.states)).toEqual([true, false]);
      for await (const grp of withStates.groups(seen[0]!.checkpoint, new AbortController().signal)) {
        expect(grp.states).toBeUndefined();
        break;
      }
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  }, 300_000);
});
