import { writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Cell, beginCell } from '@ton/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BlockIntegrityError,
  LiteserverAnswerError,
  type LiteserverSource,
  type LiteserverStatus,
  type LiteserverSourceOptions,
  bundledGlobalConfig,
  loadGlobalConfig,
  connectLiteserver,
  createLiteserverSource,
  parseGlobalConfig,
} from '../../shared/sources/liteserver/index.js';
import type { BlockGroup } from '../../shared/sources/source.js';
import { Boc } from '../../shared/ton/boc/reader.js';
import { Slice } from '../../shared/ton/boc/slice.js';
import { loadShardHashes } from '../../shared/ton/tlb/ShardHashes.js';
import { describeFixtures, fixturePath, readFixture } from '../helpers/fixtures.js';
import { clientHandshake, framePacket, takePackets } from '../helpers/liteserver/adnl.js';
import { type ServedBlock, blockKey, loadFixtureBlocks, scaffoldMcBlock } from '../helpers/liteserver/blocks.js';
import { BASE_MC_FIXTURE, type ChainA, type ChainB, MC_A, MC_B, R1_FIXTURE, R1_ROOT, R2_FIXTURE, R2_ROOT, buildChainA, buildChainB } from '../helpers/liteserver/chain.js';
import { LoopbackLiteserver, MAINNET_ZERO_STATE, loopbackGlobalConfig, startLoopbackLiteserver } from '../helpers/liteserver/server.js';
import { TL, TlReader, TlWriter } from '../helpers/liteserver/tl.js';
import { patience } from '../helpers/patience.js';

/*
 * The liteserver source against loopback liteservers that speak the real protocol: ton-lite-client (the client the
 * source uses) does the ADNL handshake over TCP, the AES-CTR framing and lite_api.tl against test/helpers/liteserver,
 * an independent server implementation. Blocks are REAL fixture BOCs (root hashes asserted against MANIFEST.md)
 * and, where the fixtures are not a chain, SCAFFOLD blocks built from real cells; test/helpers/liteserver/chain.ts
 * lists exactly which is which.
 */

const KEY_BLOCK = 46991999;
const KEY_BLOCK_ROOT = 'cbebaa6ac4270c987c90c5ed930ff37f9b73c705999585d6d8c1c5e9fa3dd6e3';
/** MANIFEST: prev_ref of key block 46991999 (root A16DD643…). */
const KEY_BLOCK_PREV = '-1:8000000000000000:46991998';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const PENDING = Symbol('pending');

/** Resolves to PENDING if `p` has not settled within `ms`. */
async function settledWithin<T>(p: Promise<T>, ms: number): Promise<T | typeof PENDING> {
  return Promise.race([p, sleep(ms).then((): typeof PENDING => PENDING)]);
}

async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + patience(ms);
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(blocks: ServedBlock[], head: number | null = null): Promise<LoopbackLiteserver> {
  const s = await startLoopbackLiteserver({ blocks, head });
  cleanups.push(() => s.close());
  return s;
}

interface Follower {
  source: LiteserverSource;
  next(): Promise<IteratorResult<BlockGroup>>;
  abort(): void;
}

/** Starts iterating a source with test-friendly timings; everything is torn down after the test. */
function follow(servers: LoopbackLiteserver[], checkpoint: string | null, extra: Partial<LiteserverSourceOptions> = {}): Follower {
  const source = createLiteserverSource({
    network: 'mainnet',
    globalConfig: loopbackGlobalConfig(...servers),
    pollIntervalMs: 50,
    backoffInitialMs: 100,
    backoffMaxMs: 1_000,
    // A query or connection that outlives these is abandoned and asked again, which would change the request
    // counts the tests assert: far above what a loaded machine needs (the timeout test below sets its own).
    queryTimeoutMs: patience(3_000),
    connectTimeoutMs: patience(1_000),
    ...extra,
  });
  const ac = new AbortController();
  const it = source.groups(checkpoint, ac.signal)[Symbol.asyncIterator]();
  cleanups.push(async () => {
    ac.abort();
    await source.close();
  });
  return { source, next: () => it.next(), abort: () => ac.abort() };
}

async function groups(f: Follower, n: number): Promise<BlockGroup[]> {
  const out: BlockGroup[] = [];
  for (let i = 0; i < n; i++) {
    const r = await f.next();
    if (r.done) throw new Error('source ended');
    out.push(r.value);
  }
  return out;
}

const keysOf = (g: BlockGroup): string[] => g.blocks.map((b) => `${b.id.workchain}:${b.id.shard}:${b.id.seqno}`);
const expectedKeys = (chain: { index: ChainA['index'] }, mcSeqno: number): string[] => {
  const e = chain.index.find((x) => x.mc.seqno === mcSeqno)!;
  return [...e.newBlocks, e.mc].map(blockKey);
};

/** Same bytes, other root: the block's root cell rebuilt with another global_id (a structurally valid BOC). */
const tampered = new Map<string, Buffer>();
function otherRoot(b: ServedBlock): Buffer {
  let t = tampered.get(blockKey(b));
  if (!t) {
    const root = Cell.fromBoc(b.data)[0]!;
    const s = root.beginParse();
    const c = beginCell().storeUint(s.loadUint(32), 32).storeInt(-3, 32);
    for (const r of root.refs) c.storeRef(r);
    t = c.endCell().toBoc();
    tampered.set(blockKey(b), t);
  }
  return t;
}

describe('global config', () => {
  it('bundles the public mainnet and testnet configs', async () => {
    const main = parseGlobalConfig(await bundledGlobalConfig('mainnet'));
    const test = parseGlobalConfig(await bundledGlobalConfig('testnet'));
    expect(main.liteservers.length).toBe(18);
    expect(test.liteservers.length).toBe(13);
    // ton.org global.config.json: {"ip": 84478511, "port": 19949, key n4VDnSCU…}
    expect(main.liteservers[0]).toMatchObject({ host: '5.9.10.47', port: 19949 });
    expect(Buffer.from(main.liteservers[0]!.publicKey).toString('base64')).toBe('n4VDnSCUuSpjnCyUk9e3QOOd6o0ItSWYbTnW3Wnn8wk=');
    expect(hex(main.zeroStateRootHash!)).toBe(MAINNET_ZERO_STATE.rootHash.toString('hex'));
  });

  it('lists every problem of a bad config at once', () => {
    expect(() => parseGlobalConfig({ liteservers: [{ ip: 'x', port: 0, id: { key: 'AAAA' } }] })).toThrow(
      /liteservers\[0\]\.ip[\s\S]*liteservers\[0\]\.port[\s\S]*liteservers\[0\]\.id\.key/,
    );
    expect(() => parseGlobalConfig({})).toThrow(/liteservers: expected a non-empty array/);
  });

  it('loads an override from a file or a URL (--liteserver-config)', async () => {
    const config = { liteservers: [{ ip: 2130706433, port: 1234, id: { '@type': 'pub.ed25519', key: Buffer.alloc(32, 9).toString('base64') } }] };
    const file = path.join(os.tmpdir(), `tonflow-gc-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(config));
    expect(parseGlobalConfig(await loadGlobalConfig(file)).liteservers[0]).toMatchObject({ host: '127.0.0.1', port: 1234 });

    const web = http.createServer((_, res) => res.end(JSON.stringify(config)));
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', () => r()));
    cleanups.push(() => new Promise<void>((r) => web.close(() => r())));
    const url = `http://127.0.0.1:${(web.address() as net.AddressInfo).port}/global.config.json`;
    expect(parseGlobalConfig(await loadGlobalConfig(url)).liteservers).toHaveLength(1);

    await expect(loadGlobalConfig(path.join(os.tmpdir(), 'tonflow-no-such-config.json'))).rejects.toMatchObject({ code: 'LITESERVER_CONFIG_UNREADABLE' });
  });
});

describeFixtures('liteserver source over loopback liteservers (ADNL/TCP, lite_api.tl)', () => {
  let fixtures: ServedBlock[];
  let chainA: ChainA;
  let chainB: ChainB;

  beforeAll(() => {
    fixtures = loadFixtureBlocks(fixturePath('blocks'));
    chainA = buildChainA();
    chainB = buildChainB();
  });

  it('ton-lite-client does the ADNL handshake and fetches real fixture blocks by their real ids', async () => {
    const s = await server(fixtures, KEY_BLOCK);
    const c = connectLiteserver(s.endpoint, { queryTimeoutMs: 3_000 });
    cleanups.push(() => c.close());

    const info = await c.getMasterchainInfo();
    expect(info.last.seqno).toBe(KEY_BLOCK);
    expect(hex(info.last.rootHash)).toBe(KEY_BLOCK_ROOT);
    expect(hex(info.init.rootHash)).toBe(MAINNET_ZERO_STATE.rootHash.toString('hex'));
    const ext = await c.getMasterchainInfoExt();
    expect(ext.last.seqno).toBe(KEY_BLOCK);
    expect(ext.lastUtime).toBe(1745112841); // MANIFEST: gen_utime of 46991999
    expect(Math.abs((await c.getTime()) - Date.now() / 1000)).toBeLessThan(5);
    expect((await c.getVersion()).version).toBe(0x101);

    // Masterchain key block: lookup by seqno, then the bytes, verified here with tonflow's own BOC reader.
    const mcId = await c.lookupBlock({ workchain: -1, shard: 0x8000000000000000n, seqno: KEY_BLOCK });
    expect(hex(mcId.rootHash)).toBe(KEY_BLOCK_ROOT);
    const mc = await c.getBlock(mcId);
    expect(Buffer.from(mc.data).equals(readFixture('blocks/mainnet_-1_8000000000000000_46991999_keyblock.boc'))).toBe(true);
    const mcBoc = Boc.parse(mc.data);
    expect(hex(mcBoc.hash(mcBoc.root))).toBe(KEY_BLOCK_ROOT);

    // Shard block 52111590.
    const shardId = await c.lookupBlock({ workchain: 0, shard: 0x6000000000000000n, seqno: 52111590 });
    expect(hex(shardId.rootHash)).toBe(R1_ROOT);
    const shard = await c.getBlock(shardId);
    expect(Buffer.from(shard.data).equals(readFixture(R1_FIXTURE))).toBe(true);

    // Header proof: a MERKLE_PROOF whose proven hash is the block's root hash.
    const header = await c.getBlockHeader(mcId);
    const proof = Cell.fromBoc(Buffer.from(header.headerProof))[0]!;
    expect(proof.isExotic).toBe(true);
    expect(proof.beginParse(true).skip(8).loadBuffer(32).toString('hex')).toBe(KEY_BLOCK_ROOT);

    // ShardHashes of the key block, decoded with tonflow's decoder: MANIFEST's upstream values.
    const shards = await c.getAllShardsInfo(mcId);
    const boc = Boc.parse(shards.data);
    const tips = loadShardHashes(new Slice(boc, boc.root)).map((h) => `${h.workchain}:${h.shard.toString(16)}:${h.descr.seqno}`);
    expect(tips).toEqual(['0:2000000000000000:52077744', '0:6000000000000000:52097945', '0:a000000000000000:51731388', '0:e000000000000000:51757085']);

    // Unknown block: liteServer.error, surfaced as LiteserverAnswerError.
    await expect(c.lookupBlock({ workchain: 0, shard: 0x6000000000000000n, seqno: 1 })).rejects.toBeInstanceOf(LiteserverAnswerError);
    expect(s.handshakes).toBe(1);
  });

  it('answers tcp.ping with tcp.pong and drops a peer with a bad handshake', async () => {
    const s = await server([]);
    const { init, session } = clientHandshake(s.key.publicKey);
    const sock = net.connect(s.port, '127.0.0.1');
    cleanups.push(() => void sock.destroy());
    let plain = Buffer.alloc(0);
    const payloads: Buffer[] = [];
    sock.on('data', (d: Buffer) => {
      plain = Buffer.concat([plain, session.rx.update(d)]);
      const r = takePackets(plain);
      plain = Buffer.from(r.rest);
      payloads.push(...r.payloads);
    });
    await new Promise<void>((r) => sock.once('connect', () => r()));
    sock.write(init);
    await until(() => payloads.length >= 1, 'handshake confirmation');
    expect(payloads[0]!.length).toBe(0);
    sock.write(session.tx.update(framePacket(new TlWriter().int32(TL.tcpPing).int64(0x1234567890abcdefn).build())));
    await until(() => payloads.length >= 2, 'tcp.pong');
    const pong = new TlReader(payloads[1]!);
    expect(pong.int32()).toBe(TL.tcpPong);
    expect(pong.int64()).toBe(0x1234567890abcdefn);

    // A handshake for another key: the server closes the connection.
    const other = clientHandshake(new Uint8Array(32).fill(7));
    const bad = net.connect(s.port, '127.0.0.1');
    cleanups.push(() => void bad.destroy());
    const closed = new Promise<void>((r) => bad.once('close', () => r()));
    bad.on('error', () => {});
    bad.write(other.init);
    await closed;
  });

  it.each([1, 4])('follows chain A: every shard block, through a real merge and a scaffold split and merge, oldest first (prefetch %i)', async (prefetch) => {
    const s = await server(chainA.blocks);
    const f = follow([s], null, { fromSeqno: MC_A + 1, prefetch });
    const got = await groups(f, 6);
    expect(got.map((g) => g.mcSeqno)).toEqual([1, 2, 3, 4, 5, 6].map((i) => MC_A + i));
    for (const g of got) expect(keysOf(g)).toEqual(expectedKeys(chainA, g.mcSeqno!));

    // S1 holds the two real blocks: real root hashes (MANIFEST) and the fixture bytes as served.
    const r1 = got[0]!.blocks.find((b) => b.id.shard === '6000000000000000')!;
    const r2 = got[0]!.blocks.find((b) => b.id.shard === 'C000000000000000')!;
    expect(hex(r1.rootHash)).toBe(R1_ROOT);
    expect(hex(r2.rootHash)).toBe(R2_ROOT);
    expect(Buffer.from(r2.data).equals(readFixture(R2_FIXTURE))).toBe(true);
    for (const g of got) for (const b of g.blocks) expect(b.mcSeqno).toBe(g.mcSeqno);
    // The split group: the parent of both halves once, before them.
    expect(keysOf(got[1]!)).toEqual(['0:2000000000000000:102', '0:1000000000000000:103', '0:3000000000000000:103', `-1:8000000000000000:${MC_A + 2}`]);
    // Every block of a group is fetched once; nothing committed earlier is fetched again.
    expect(s.count('getBlock', chainA.r2)).toBe(1);
  });

  it('resumes from a checkpoint exactly: no block twice, none skipped', async () => {
    const s = await server(chainA.blocks);
    const whole = await groups(follow([s], null, { fromSeqno: MC_A + 1 }), 6);

    const first = follow([s], null, { fromSeqno: MC_A + 1 });
    const before = await groups(first, 2);
    first.abort();
    expect(await first.next()).toEqual({ done: true, value: undefined });
    const checkpoint = before[1]!.checkpoint;
    expect(JSON.parse(checkpoint)).toMatchObject({ v: 1, mc: { workchain: -1, shard: '8000000000000000', seqno: MC_A + 2 } });

    const after = await groups(follow([s], checkpoint), 4);
    expect([...before, ...after].map(keysOf)).toEqual(whole.map(keysOf));
    expect(after.map((g) => g.checkpoint)).toEqual(whole.slice(2).map((g) => g.checkpoint));

    // A bare masterchain seqno resumes after that block too (its tips are read from the block).
    const bare = await groups(follow([s], String(MC_A + 2)), 1);
    expect(keysOf(bare[0]!)).toEqual(keysOf(whole[2]!));

    await expect(follow([s], '{"v":1,"mc":{}}').next()).rejects.toMatchObject({ code: 'BAD_CHECKPOINT' });
  });

  it('waits for a block that appears later, in a shard and at the head, never skipping it', async () => {
    const { W } = chainA.named;
    const s = await server(chainA.blocks, MC_A + 5);
    s.hide(W);
    const f = follow([s], null, { fromSeqno: MC_A + 5 });

    const pending = f.next();
    // Asked for again (an event, not a time: a slow machine asks later), and still not yielded.
    await until(() => s.count('getBlock', W) >= 2, 'a second request for the hidden block', 800);
    expect(await settledWithin(pending, 0)).toBe(PENDING);
    s.publish(W);
    const g5 = await pending;
    expect(keysOf(g5.value as BlockGroup)).toEqual(expectedKeys(chainA, MC_A + 5));

    // S6 exists but the head is S5: the source polls the head and waits.
    const polls = s.count('getMasterchainInfo');
    const pending6 = f.next();
    await until(() => s.count('getMasterchainInfo') > polls, 'another head poll', 500);
    expect(await settledWithin(pending6, 0)).toBe(PENDING);
    s.setHead(MC_A + 6);
    expect(keysOf((await pending6).value as BlockGroup)).toEqual(expectedKeys(chainA, MC_A + 6));
  });

  it('waits at a real merge whose parent block no liteserver has (chain B), and stops cleanly on abort', async () => {
    const s = await server(chainB.blocks);
    const f = follow([s], null, { fromSeqno: MC_B + 1 });
    const pending = f.next();
    // The real prev ref of (0,c000…,13516764) names (0,a000…,13516763): asked for again and again, never skipped.
    await until(() => s.count('getBlock', chainB.missingKey) >= 3, 'three requests for the missing parent', 1_500);
    expect(await settledWithin(pending, 0)).toBe(PENDING);
    expect(s.count('getBlock', chainB.r2)).toBe(1);
    f.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
  });

  it('verifies the real key block against its real hashes, then waits for its missing predecessor', async () => {
    const s = await server(fixtures, KEY_BLOCK);
    const f = follow([s], null);
    const pending = f.next();
    await until(() => s.count('getBlock', KEY_BLOCK_PREV) >= 2, 'a second request for the missing predecessor', 1_000);
    expect(await settledWithin(pending, 0)).toBe(PENDING);
    expect(s.count('getBlock', `-1:8000000000000000:${KEY_BLOCK}`)).toBe(1);
    expect(s.count('getBlock', KEY_BLOCK_PREV)).toBeGreaterThanOrEqual(2);
    expect(f.source.status()[0]!.failures).toBe(0);
  });

  it.each([
    ['a valid BOC with another root', otherRoot],
    ['truncated bytes', (b: ServedBlock) => b.data.subarray(0, b.data.length - 100)],
  ])('never yields tampered bytes: a lone liteserver serving %s ends in BlockIntegrityError', async (_, tamper) => {
    const s = await server(chainA.blocks);
    s.tamper = (b) => (blockKey(b) === blockKey(chainA.r2) ? tamper(b) : null);
    const f = follow([s], null, { fromSeqno: MC_A + 1, maxIntegrityFailures: 3 });
    const err = await f.next().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BlockIntegrityError);
    expect((err as BlockIntegrityError).code).toBe('LITESERVER_BAD_BLOCK');
    expect((err as Error).message).toMatch(/\(0,C000000000000000,13516764\): 3 answers failed verification/);
    expect(s.count('getBlock', chainA.r2)).toBe(3);
  });

  it('takes a block another liteserver serves correctly when one serves tampered bytes', async () => {
    const bad = await server(chainA.blocks);
    const good = await server(chainA.blocks);
    bad.tamper = (b) => (blockKey(b) === blockKey(chainA.r2) ? otherRoot(b) : null);
    good.hide(chainA.r2); // so the tampering server is asked, whichever the source starts with
    const f = follow([bad, good], null, { fromSeqno: MC_A + 1, maxIntegrityFailures: 20 });
    const pending = f.next();
    await until(() => f.source.status().some((st) => st.address.endsWith(`:${bad.port}`) && st.failures >= 1), 'the tampering liteserver to be penalised');
    const penalised = f.source.status().find((st) => st.address.endsWith(`:${bad.port}`))!;
    expect(penalised.lastError).toMatch(/file hash|root hash/);
    expect(penalised.retryAt).toBeGreaterThan(0);
    good.publish(chainA.r2);
    const g = (await pending).value as BlockGroup;
    const r2 = g.blocks.find((b) => b.id.shard === 'C000000000000000')!;
    expect(hex(r2.rootHash)).toBe(R2_ROOT);
    expect(Buffer.from(r2.data).equals(readFixture(R2_FIXTURE))).toBe(true);
    // The tampered answers travel with the group, for the follower's dead-letter topic, with their reason.
    expect(g.rejected?.length ?? 0).toBeGreaterThanOrEqual(1);
    for (const r of g.rejected!) {
      expect(r.block.id).toEqual(r2.id);
      expect(Buffer.from(r.block.data).equals(readFixture(R2_FIXTURE))).toBe(false);
      expect(hex(r.block.rootHash)).not.toBe(R2_ROOT);
      expect((r.error as BlockIntegrityError).code).toBe('LITESERVER_BAD_BLOCK');
      expect(r.error.message).toContain(`:${bad.port}`);
      expect(r.error.message).toMatch(/file hash|root hash/);
    }
  });

  it('rotates: the liteserver in use dies mid-query, the source continues on the other', async () => {
    const a = await server(chainA.blocks);
    const b = await server(chainA.blocks);
    const f = follow([a, b], null, { fromSeqno: MC_A + 1 });
    const first = await groups(f, 2);
    const active = a.count('getBlock') > 0 ? a : b;
    const other = active === a ? b : a;
    expect(other.count('getBlock')).toBe(0); // sticky: one liteserver while it works

    // The active one hangs on the next query, then dies with the query in flight.
    active.stall = true;
    const seen = active.requests.length;
    const pending = f.next();
    await until(() => active.requests.length > seen, 'a query to reach the active liteserver');
    await active.kill();
    const rest = [(await pending).value as BlockGroup, ...(await groups(f, 3))];
    expect([...first, ...rest].map((g) => g.mcSeqno)).toEqual([1, 2, 3, 4, 5, 6].map((i) => MC_A + i));
    for (const g of rest) expect(keysOf(g)).toEqual(expectedKeys(chainA, g.mcSeqno!));
    expect(other.count('getBlock')).toBeGreaterThan(0);

    const dead = f.source.status().find((st) => st.address.endsWith(`:${active.port}`))!;
    expect(dead.failures).toBeGreaterThanOrEqual(1);
    expect(dead.lastError).toMatch(/connection|no answer/);
  });

  it('skips a liteserver that does not answer within the query timeout', async () => {
    const slow = await server(chainA.blocks);
    const fast = await server(chainA.blocks);
    slow.stall = true;
    const s1 = chainA.index[1]!.mc;
    fast.hide(s1); // so the hung liteserver is asked, whichever the source starts with
    const f = follow([slow, fast], null, { fromSeqno: MC_A + 1, queryTimeoutMs: 300 });
    const pending = f.next();
    const statusOf = (): LiteserverStatus => f.source.status().find((x) => x.address.endsWith(`:${slow.port}`))!;
    await until(() => statusOf().failures >= 1, 'the hung liteserver to time out');
    expect(statusOf().lastError).toMatch(/no answer within 300 ms/);
    fast.publish(s1);
    expect(keysOf((await pending).value as BlockGroup)).toEqual(expectedKeys(chainA, MC_A + 1));
  });

  it('retries a dead liteserver with exponential backoff and recovers when it is back', async () => {
    const first = await server(chainA.blocks);
    const f = follow([first], null, { fromSeqno: MC_A + 1, backoffInitialMs: 100, backoffMaxMs: 800 });
    await groups(f, 1);
    const port = first.port;
    await first.kill();

    const pending = f.next();
    const backoffs: number[] = [];
    let seen = 0;
    await until(
      () => {
        const st = f.source.status()[0]!;
        if (st.failures > seen) {
          seen = st.failures;
          backoffs.push(st.retryAt - Date.now());
        }
        return st.failures >= 4;
      },
      'four failed attempts',
      10_000,
    );
    // 100, 200, 400, 800 ms ±20 % jitter (read here a little late, so compare ends, not neighbours).
    expect(backoffs.length).toBeGreaterThanOrEqual(3);
    expect(backoffs.at(-1)!).toBeGreaterThan(2 * backoffs[0]!);
    expect(backoffs[0]!).toBeLessThanOrEqual(120);
    expect(await settledWithin(pending, 10)).toBe(PENDING);

    // The same liteserver (key and port) comes back: the next attempt connects and the gap closes.
    const again = new LoopbackLiteserver({ key: first.key, blocks: chainA.blocks });
    await again.start(port);
    cleanups.push(() => again.close());
    expect(keysOf((await pending).value as BlockGroup)).toEqual(expectedKeys(chainA, MC_A + 2));
    expect(f.source.status()[0]!.failures).toBe(0);
  });

  it('refuses a masterchain block that does not name the published one as its prev block', async () => {
    const s2 = chainA.index[2]!;
    // Scaffold: S2's shard tips, but chained to a block that is not S1 (a liteserver on a fork, or lying).
    const forked = scaffoldMcBlock(readFixture(BASE_MC_FIXTURE), {
      seqno: s2.mc.seqno,
      prev: { endLt: 1n, seqno: MC_A + 1, rootHash: Buffer.alloc(32, 0xab), fileHash: Buffer.alloc(32, 0xcd) },
      shards: s2.commits,
      genUtime: s2.mc.info.genUtime,
      startLt: s2.mc.info.startLt,
      endLt: s2.mc.info.endLt,
      label: 'forked S2',
    });
    const s = await server([...chainA.blocks.filter((b) => blockKey(b) !== blockKey(s2.mc)), forked]);
    const f = follow([s], null, { fromSeqno: MC_A + 1, maxIntegrityFailures: 2 });
    expect(keysOf((await f.next()).value as BlockGroup)).toEqual(expectedKeys(chainA, MC_A + 1));
    await expect(f.next()).rejects.toThrow(/masterchain block 900000002 does not follow the published block 900000001/);
  });

  it('refuses blocks of another network', async () => {
    const s = await server(chainA.blocks);
    const f = follow([s], null, { fromSeqno: MC_A + 1, network: 'testnet' });
    await expect(f.next()).rejects.toMatchObject({ code: 'LITESERVER_WRONG_NETWORK' });
  });

  it('drops a liteserver whose zero state is not the configured one', async () => {
    const s = await server(chainA.blocks);
    const cfg = loopbackGlobalConfig(s) as { validator: { zero_state: { root_hash: string } } };
    cfg.validator.zero_state.root_hash = Buffer.alloc(32, 1).toString('base64');
    const f = follow([s], null, { globalConfig: cfg });
    await expect(f.next()).rejects.toMatchObject({ code: 'LITESERVER_NONE_USABLE' });
    expect(f.source.status()[0]!.excluded).toMatch(/zero state/);
  });
});
