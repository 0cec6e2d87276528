import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Address, beginCell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBocRoot, serializeBoc } from '../../shared/sources/devnet/cell.js';
import type { SealedTick } from '../../shared/sources/devnet/chain.js';
import { CONTRACTS } from '../../shared/sources/devnet/contracts.js';
import { TON, actors } from '../../shared/sources/devnet/genesis.js';
import { MAINNET_CONFIG_BOC, MAINNET_CONFIG_ROOT_HASH } from '../../shared/tvm/mainnet-config.js';
import { type DevnetSource, createDevnetSource } from '../../shared/sources/devnet/source.js';
import { jettonTransferBody } from '../../shared/sources/devnet/traffic.js';
import { Wallet, commentBody } from '../../shared/sources/devnet/wallets.js';
import { createFilesSource } from '../../shared/sources/files.js';
import type { BlockGroup } from '../../shared/sources/source.js';
import { type DecodedBlock, decodeBlock, parseBlock } from '../../shared/ton/decode-block.js';
import { Slice } from '../../shared/ton/boc/slice.js';
import { walkInMsgDescr, walkOutMsgDescr } from '../../shared/ton/tlb/BlockExtra.js';
import { describeFixtures, readFixture } from '../helpers/fixtures.js';

/**
 * The devnet end to end: a chain on the real TVM (@ton/sandbox) sealing real blocks, read back by the same decoder
 * that reads mainnet blocks.
 */

const b64 = (h: Uint8Array): string => Buffer.from(h).toString('base64');
const hex = (h: Uint8Array): string => Buffer.from(h).toString('hex');
const GENESIS_MS = 1_800_000_000_000;
const TICKS = 150;

interface Produced {
  group: BlockGroup;
  tick: SealedTick;
  decoded: DecodedBlock[];
}

function fakeClock(): { now: () => number; advance: (ms: number) => void } {
  let t = GENESIS_MS;
  return { now: () => t, advance: (ms) => (t += ms) };
}

async function drain(source: DevnetSource, from: string | null, count: number): Promise<BlockGroup[]> {
  const out: BlockGroup[] = [];
  const ac = new AbortController();
  for await (const g of source.groups(from, ac.signal)) {
    out.push(g);
    if (out.length === count) break;
  }
  ac.abort();
  return out;
}

describe('devnet: a chain on the real TVM sealing real blocks', () => {
  let dir: string;
  let source: DevnetSource;
  const clock = fakeClock();
  const produced: Produced[] = [];
  let lastTick: SealedTick | null = null;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tonflow-devnet-'));
    source = await createDevnetSource({
      dataDir: dir,
      blockMs: 0,
      traffic: 'default',
      tps: 40,
      seed: 'devnet-test',
      clock: clock.now,
      walletsPerKind: 8,
      snapshotEvery: 100,
      onTick: (t) => (lastTick = t),
    });
    for (let i = 0; i < TICKS; i++) {
      clock.advance(1000);
      const group = await source.sealNext();
      produced.push({ group, tick: lastTick!, decoded: group.blocks.map((b) => decodeBlock(b.data, { mcBlockSeqno: b.mcSeqno })) });
    }
  });

  afterAll(async () => {
    await source?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(`seals ${TICKS * 2} blocks; every decoded transaction hash equals the emulator's, and so do the account states`, () => {
    let txs = 0;
    let statesBefore = 0;
    let statesAfter = 0;
    for (const { group, tick, decoded } of produced) {
      expect(group.blocks.map((b) => b.id.workchain)).toEqual([0, -1]);
      group.blocks.forEach((raw, i) => {
        const d = decoded[i]!;
        const sealed = tick.blocks[i]!;
        expect(d.block.root_hash).toBe(b64(raw.rootHash));
        expect(d.block.file_hash).toBe(b64(raw.fileHash));
        expect({ workchain: d.block.workchain, shard: d.block.shard, seqno: d.block.seqno }).toEqual({ ...raw.id, shard: raw.id.shard });
        // The decoder's transactions are the emulator's, in block order (account, then lt).
        const emulated = [...sealed.transactions].sort((a, b) => Buffer.compare(Buffer.from(a.account), Buffer.from(b.account)) || (a.lt < b.lt ? -1 : 1));
        expect(d.transactions.map((t) => t.hash)).toEqual(emulated.map((t) => b64(t.hash)));
        d.transactions.forEach((t, k) => {
          const e = emulated[k]!;
          expect(t.lt).toBe(e.lt.toString());
          expect(t.account_state_before.hash).toBe(b64(e.oldStateHash));
          expect(t.account_state_after.hash).toBe(b64(e.newStateHash));
          if (t.account_state_before.balance !== null) statesBefore++;
          if (t.account_state_after.balance !== null) statesAfter++;
        });
        txs += d.transactions.length;
      });
    }
    // Enough traffic to mean something, and the Merkle update carries the touched accounts' states.
    expect(txs).toBeGreaterThan(3000);
    expect(statesAfter).toBeGreaterThan(txs / 4);
    expect(statesBefore).toBeGreaterThan(txs / 5);
  });

  it('value flow balances, and InMsgDescr / OutMsgDescr account for every message with the right totals', () => {
    for (const { group } of produced) {
      for (const raw of group.blocks) {
        const p = parseBlock(raw.data);
        const vf = p.block.valueFlow;
        const lhs = vf.fromPrevBlk.grams + vf.imported.grams + vf.feesImported.grams + vf.created.grams + vf.minted.grams + vf.recovered.grams;
        const rhs = vf.toNextBlk.grams + vf.exported.grams + vf.feesCollected.grams;
        expect(lhs).toBe(rhs);
        const txByHash = new Map(p.transactions.map((t) => [hex(p.boc.hash(t.cell)), t]));
        const inKeys = new Set<string>();
        const outKeys = new Set<string>();
        const imported = walkInMsgDescr(new Slice(p.boc, p.block.extra.inMsgDescr), (m) => {
          inKeys.add(hex(p.boc.hash(m.msg)));
          expect(txByHash.has(hex(p.boc.hash(m.transaction!)))).toBe(true);
        });
        const exported = walkOutMsgDescr(new Slice(p.boc, p.block.extra.outMsgDescr), (m) => {
          if (m.msg !== null) outKeys.add(hex(p.boc.hash(m.msg)));
          if (m.type !== 'msg_export_deq_short') expect(txByHash.has(hex(p.boc.hash(m.transaction!)))).toBe(true);
        });
        expect(imported.valueImported.grams).toBe(vf.imported.grams);
        expect(exported.grams).toBe(vf.exported.grams);
        for (const t of p.transactions) {
          if (t.inMsg) expect(inKeys.has(hex(p.boc.hash(t.inMsg.cell)))).toBe(true);
          for (const m of t.outMsgs) expect(outKeys.has(hex(p.boc.hash(m.cell)))).toBe(true);
        }
      }
    }
  });

  it('blocks chain: prev refs, master refs, lt ranges, and each Merkle update starts where the last one ended', () => {
    const last = new Map<number, { root: Uint8Array; file: Uint8Array; endLt: bigint; newState: Uint8Array }>();
    for (const { group } of produced) {
      const mcPrev = last.get(-1);
      for (const raw of group.blocks) {
        const p = parseBlock(raw.data);
        const info = p.block.info;
        const prev = last.get(raw.id.workchain);
        if (info.prevRef.afterMerge) throw new Error('unexpected merge');
        if (prev) {
          expect(hex(info.prevRef.prev.rootHash)).toBe(hex(prev.root));
          expect(hex(info.prevRef.prev.fileHash)).toBe(hex(prev.file));
          expect(info.prevRef.prev.endLt).toBe(prev.endLt);
          expect(info.startLt).toBeGreaterThan(prev.endLt);
          expect(hex(p.block.stateUpdate.oldHash)).toBe(hex(prev.newState));
        }
        if (raw.id.workchain === 0 && mcPrev) {
          expect(info.masterRef!.seqno).toBe(raw.id.seqno - 1);
          expect(hex(info.masterRef!.rootHash)).toBe(hex(mcPrev.root));
        }
        for (const t of p.transactions) {
          expect(t.lt).toBeGreaterThanOrEqual(info.startLt);
          expect(t.lt).toBeLessThan(info.endLt);
        }
        last.set(raw.id.workchain, { root: raw.rootHash, file: raw.fileHash, endLt: info.endLt, newState: p.block.stateUpdate.newHash });
      }
    }
  });

  it('masterchain blocks commit every shard block exactly once', () => {
    const committed = new Map<number, number>();
    for (const { decoded } of produced) {
      const mc = decoded[1]!;
      for (const s of mc.shards) committed.set(s.seqno, (committed.get(s.seqno) ?? 0) + 1);
      expect(mc.shards).toEqual([{ workchain: 0, shard: '8000000000000000', seqno: decoded[0]!.block.seqno }]);
    }
    expect([...committed.keys()]).toEqual(produced.map((p) => p.decoded[0]!.block.seqno));
    expect([...committed.values()].every((n) => n === 1)).toBe(true);
  });

  it('internal messages are delivered in a later block than the one that created them', () => {
    const createdIn = new Map<string, number>();
    let delivered = 0;
    for (const { decoded } of produced) {
      for (const d of decoded) {
        for (const t of d.transactions) {
          const m = t.in_msg;
          if (m && m.source !== null) {
            const at = createdIn.get(m.hash);
            expect(at, `message ${m.hash} delivered before it was created`).toBeDefined();
            expect(d.block.seqno).toBeGreaterThan(at!);
            delivered++;
          }
        }
        for (const t of d.transactions) for (const m of t.out_msgs) if (m.destination !== null) createdIn.set(m.hash, d.block.seqno);
      }
    }
    expect(delivered).toBeGreaterThan(1000);
  });

  it('the traffic mix carries the expected kinds of activity', () => {
    const ops = new Map<string, number>();
    let aborted = 0;
    let bounced = 0;
    let deploys = 0;
    for (const { decoded } of produced) {
      for (const d of decoded) {
        for (const t of d.transactions) {
          const op = t.in_msg?.opcode ?? 'none';
          ops.set(op, (ops.get(op) ?? 0) + 1);
          if ((t.description as { aborted?: boolean }).aborted) aborted++;
          if (t.in_msg?.bounced) bounced++;
          if (t.orig_status !== 'active' && t.end_status === 'active') deploys++;
        }
      }
    }
    for (const op of ['0x0f8a7ea5', '0x178d4519', '0x7362d09c', '0xd53276db', '0x5fcc3d14', '0x05138d91', '0x595f07bc', '0x7bdd97de', '0x7369676e', '0xae42e5a4']) {
      expect(ops.get(op) ?? 0, `opcode ${op}`).toBeGreaterThan(0);
    }
    expect(aborted).toBeGreaterThan(0);
    expect(bounced).toBeGreaterThan(0);
    expect(deploys).toBeGreaterThan(0);
  });

  it('serves account states and get-methods on the current state', async () => {
    const a = actors({ seed: 'devnet-test', now: GENESIS_MS / 1000, walletsPerKind: 8 });
    const holder = a.jetton.holders[0]!;
    const addr = `0:${hex(holder.address.hash)}`;
    const acc = await source.getAccount(addr);
    expect(acc.status).toBe('active');
    expect(acc.balance).toBeGreaterThan(0n);
    const seqno = await source.runGetMethod(addr, 'seqno');
    expect(seqno.exitCode).toBe(0);
    const wallet = await source.runGetMethod(`0:${hex(a.jetton.minter.hash)}`, 'get_wallet_address', [
      { type: 'slice', cell: beginCell().storeAddress(new Address(0, Buffer.from(holder.address.hash))).endCell() },
    ]);
    const item = wallet.stack[0]!;
    if (item.type !== 'slice') throw new Error('expected a slice');
    expect(item.cell.beginParse().loadAddress().hash.toString('hex')).toBe(hex(a.jetton.walletOf(holder.address).hash));
    const missing = await source.getAccount(`0:${'ab'.repeat(32)}`);
    expect(missing.status).toBe('nonexist');
  });

  it('genesis contracts answer their get-methods: stablecoin, DNS, multisig v2, vesting, highload v3', async () => {
    const a = actors({ seed: 'devnet-test', now: GENESIS_MS / 1000, walletsPerKind: 8 });
    const addr = (x: { hash: Uint8Array }): string => `0:${hex(x.hash)}`;
    const stable = await source.runGetMethod(addr(a.stablecoin.minter), 'get_jetton_data');
    expect(stable.exitCode).toBe(0);
    expect((await source.runGetMethod(addr(a.stablecoin.walletOf(a.stablecoin.holders[0]!.address)), 'get_status')).stack[0]).toEqual({ type: 'int', value: 0n });
    expect((await source.runGetMethod(addr(a.dns.collection), 'get_collection_data')).exitCode).toBe(0);
    const ms = await source.runGetMethod(addr(a.multisig.address), 'get_multisig_data');
    expect(ms.stack[1]).toEqual({ type: 'int', value: 2n });
    const vesting = await source.runGetMethod(addr(a.vesting.address), 'get_vesting_data');
    expect(vesting.stack[0]).toEqual({ type: 'int', value: BigInt(GENESIS_MS / 1000) });
    const highload = a.wallets.find((w) => w.kind === 'highload-v3')!;
    expect((await source.runGetMethod(addr(highload.address), 'get_timeout')).stack[0]).toEqual({ type: 'int', value: 3600n });
  });

  it('an external message the contract does not accept is rejected without a transaction', async () => {
    const a = actors({ seed: 'devnet-test', now: GENESIS_MS / 1000, walletsPerKind: 8 });
    const w = a.wallets[0]!;
    const current = Wallet.seqnoOf(w.kind, parseBocRoot((await source.getAccount(w.address)).data!));
    const stale = w.transfer([{ to: a.wallets[1]!.address, value: TON, bounce: false }], { seqno: current + 7, now: clock.now() / 1000 });
    const { result } = await source.sendMessage(serializeBoc(stale));
    clock.advance(1000);
    const g = await source.sealNext();
    const r = await result;
    expect(r.accepted).toBe(false);
    expect(r.error).toBeTruthy();
    produced.push({ group: g, tick: lastTick!, decoded: g.blocks.map((b) => decodeBlock(b.data, { mcBlockSeqno: b.mcSeqno })) });
    await expect(source.sendMessage(Uint8Array.of(1, 2, 3))).rejects.toThrow();
  });

  it('the blocks directory replays through the files source, each masterchain block with its shard block', async () => {
    const files = await createFilesSource({ dir: path.join(dir, 'blocks') });
    const groups: BlockGroup[] = [];
    for await (const g of files.groups(null, new AbortController().signal)) groups.push(g);
    expect(groups.length).toBe(source.head);
    expect(groups.every((g) => g.blocks.length === 2 && g.blocks[1]!.id.workchain === -1 && g.blocks[0]!.id.seqno === g.mcSeqno)).toBe(true);
  });

  it('restart from the data directory continues the same chain', async () => {
    const head = source.head;
    const lastGroup = produced[produced.length - 1]!.group;
    await source.close();
    clock.advance(5000);
    let accepted = 0;
    source = await createDevnetSource({ dataDir: dir, blockMs: 0, traffic: 'default', tps: 40, clock: clock.now, onTick: (t) => (lastTick = t) });
    expect(source.head).toBe(head);
    // Replay from a checkpoint behind the head comes from disk, identical to what was produced.
    const replay = await drain(source, JSON.stringify({ mcSeqno: head - 3 }), 3);
    expect(replay.map((g) => g.mcSeqno)).toEqual([head - 2, head - 1, head]);
    expect(hex(replay[2]!.blocks[1]!.rootHash)).toBe(hex(lastGroup.blocks[1]!.rootHash));
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      const g = await source.sealNext();
      accepted += lastTick!.blocks[0]!.transactions.filter((t) => t.inMsgHash !== null).length;
      if (i === 0) {
        for (const [k, raw] of g.blocks.entries()) {
          const p = parseBlock(raw.data);
          const before = lastGroup.blocks[k]!;
          expect(p.block.info.seqno).toBe(head + 1);
          expect(hex(p.block.info.prevRef.afterMerge ? new Uint8Array() : p.block.info.prevRef.prev.rootHash)).toBe(hex(before.rootHash));
          expect(hex(p.block.stateUpdate.oldHash)).toBe(hex(parseBlock(before.data).block.stateUpdate.newHash));
        }
      }
      for (const raw of g.blocks) expect(decodeBlock(raw.data).transactions.length).toBe(lastTick!.blocks[g.blocks.indexOf(raw)]!.transactions.length);
    }
    // Wallet seqnos and queued messages carried over: the traffic keeps running after the restart.
    expect(accepted).toBeGreaterThan(20);
    expect(source.head).toBe(head + 5);
  });
});

describe('devnet: a jetton transfer is a trace over several blocks', () => {
  it('wallet → jetton wallet → jetton wallet → owner: one block per hop, linked by created_lt', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tonflow-devnet-trace-'));
    const clock = fakeClock();
    const source = await createDevnetSource({ dataDir: dir, blockMs: 0, traffic: 'none', seed: 'trace', clock: clock.now, walletsPerKind: 2 });
    try {
      const a = actors({ seed: 'trace', now: GENESIS_MS / 1000, walletsPerKind: 2 });
      const from = a.jetton.holders[0]!;
      // A fresh owner: its jetton wallet is deployed by the transfer, so its balance is exactly what arrives.
      const to = { address: { workchain: 0, hash: new Uint8Array(createHash('sha256').update('trace recipient').digest()) } };
      const acc = await source.getAccount(from.address);
      const seqno = Wallet.seqnoOf(from.kind, parseBocRoot(acc.data!));
      const ext = from.transfer(
        [{ to: a.jetton.walletOf(from.address), value: TON / 10n, bounce: true, body: jettonTransferBody(7n, 5n * TON, to.address, from.address, TON / 100n, commentBody('trace test')) }],
        { seqno, now: GENESIS_MS / 1000 + 1 },
      );
      const { hash, result } = await source.sendMessage(serializeBoc(ext));
      const txs: Array<{ seqno: number; tx: DecodedBlock['transactions'][number] }> = [];
      for (let i = 0; i < 6; i++) {
        clock.advance(1000);
        const g = await source.sealNext();
        for (const raw of g.blocks) for (const tx of decodeBlock(raw.data).transactions) txs.push({ seqno: raw.id.seqno, tx });
      }
      expect((await result).accepted).toBe(true);
      // Follow the trace from the external message through each out message to the transaction it caused.
      const byInMsg = new Map(txs.filter((t) => t.tx.in_msg).map((t) => [t.tx.in_msg!.hash, t]));
      const root = byInMsg.get(b64(hash))!;
      expect(root).toBeDefined();
      const hops: Array<{ seqno: number; op: string | null; lt: bigint }> = [];
      let cur: (typeof txs)[number] | undefined = root;
      while (cur) {
        hops.push({ seqno: cur.seqno, op: cur.tx.in_msg?.opcode ?? null, lt: BigInt(cur.tx.lt) });
        // Each hop's message was created by the previous transaction: its created_lt lies after that lt.
        const next: (typeof txs)[number] | undefined = cur.tx.out_msgs
          .map((m) => byInMsg.get(m.hash))
          .find((t) => t && (t.tx.in_msg!.opcode === '0x178d4519' || t.tx.in_msg!.opcode === '0x0f8a7ea5' || t.tx.in_msg!.opcode === '0x7362d09c'));
        if (next) {
          const m = cur.tx.out_msgs.find((o) => o.hash === next.tx.in_msg!.hash)!;
          expect(BigInt(m.created_lt!)).toBeGreaterThan(BigInt(cur.tx.lt));
          expect(next.tx.in_msg!.created_lt).toBe(m.created_lt);
          expect(BigInt(next.tx.lt)).toBeGreaterThan(BigInt(m.created_lt!));
        }
        cur = next;
      }
      // The external message to the wallet, then transfer, internal_transfer, transfer_notification.
      expect(hops.slice(1).map((h) => h.op)).toEqual(['0x0f8a7ea5', '0x178d4519', '0x7362d09c']);
      const blocks = new Set(hops.map((h) => h.seqno));
      expect(blocks.size).toBeGreaterThanOrEqual(3);
      expect(hops.map((h) => h.seqno)).toEqual([...hops.map((h) => h.seqno)].sort((x, y) => x - y));
      // The excess returns to the sender's wallet too, and the recipient's jetton balance grew.
      expect(txs.some((t) => t.tx.in_msg?.opcode === '0xd53276db')).toBe(true);
      const got = await source.runGetMethod(a.jetton.walletOf(to.address), 'get_wallet_data');
      expect(got.stack[0]).toEqual({ type: 'int', value: 5n * TON });
    } finally {
      await source.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describeFixtures('devnet: embedded contracts and config are the fixture files', () => {
  it('every embedded code BOC equals ../shared/fixtures/contracts/<name>.code.boc and has the stated hash', () => {
    for (const c of Object.values(CONTRACTS)) {
      const fixture = readFixture(`contracts/${c.fixture}.code.boc`);
      expect(Buffer.from(c.boc, 'base64').equals(fixture), c.fixture).toBe(true);
      expect(parseBocRoot(fixture).hashHex()).toBe(c.codeHash);
    }
  });

  it('the embedded mainnet config equals states/mainnet_blockchain_config.boc', async () => {
    const fixture = readFixture('states/mainnet_blockchain_config.boc');
    expect(Buffer.from(MAINNET_CONFIG_BOC, 'base64').equals(fixture)).toBe(true);
    expect(parseBocRoot(fixture).hashHex()).toBe(MAINNET_CONFIG_ROOT_HASH);
  });
});

describe('devnet export', () => {
  it('writes the same blocks for the same seed and genesis time, and they replay through the files source', async () => {
    const { exportDevnet } = await import('../../shared/sources/devnet/export.js');
    const dirs = await Promise.all([0, 1].map(() => mkdtemp(path.join(tmpdir(), 'tonflow-devnet-export-'))));
    try {
      const results = [];
      for (const out of dirs) results.push(await exportDevnet({ out, transactions: 400, tps: 300, seed: 'export', genesisUtime: 1_800_000_000, walletsPerKind: 4 }));
      expect(results[0]!.transactions).toBeGreaterThanOrEqual(400);
      const names = (await readdir(dirs[0]!)).sort();
      expect((await readdir(dirs[1]!)).sort()).toEqual(names);
      for (const n of names) expect((await readFile(path.join(dirs[0]!, n))).equals(await readFile(path.join(dirs[1]!, n))), n).toBe(true);
      const files = await createFilesSource({ dir: dirs[0]! });
      let txs = 0;
      for await (const g of files.groups(null, new AbortController().signal)) for (const b of g.blocks) txs += decodeBlock(b.data).transactions.length;
      expect(txs).toBe(results[0]!.transactions);
    } finally {
      for (const d of dirs) await rm(d, { recursive: true, force: true });
    }
  });
});
