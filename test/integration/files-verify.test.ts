import { Cell } from '@ton/core';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it, onTestFinished } from 'vitest';
import { openBus, openStore } from '../../services/common/wiring.js';
import { topicNames, topicSpecs } from '../../shared/contracts/topics.js';
import { follow } from '../../services/follower/follow.js';
import { runDecodeStage } from '../../services/indexer/decode.js';
import { createStoreWriter } from '../../services/indexer/sink.js';
import { blockToRows } from '../../services/indexer/to-rows.js';
import { deadLetter } from '../../shared/bus/dead-letter.js';
import { loadConfig, tonflowConfigSchema } from '../../shared/runtime/config.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { migrate } from '../../shared/store/migrate.js';
import { HEADER_ERROR_CODE, HEADER_ERROR_MESSAGE, type Bus, type IncomingMessage } from '../../shared/bus/bus.js';
import { createMemoryBus } from '../../shared/bus/memory.js';
import { decodeRawBlock } from '../../shared/contracts/raw-block.js';
import { createFilesSource } from '../../shared/sources/files.js';
import type { BlockVerificationError } from '../../shared/sources/verify.js';
import { crc32c } from '../../shared/ton/boc/crc32c.js';
import { Boc } from '../../shared/ton/boc/reader.js';
import { loadBlock } from '../../shared/ton/tlb/Block.js';
import { collect, waitFor } from '../helpers/bus-contract.js';
import { describeFixtures, fixturePath, readFixture } from '../helpers/fixtures.js';

/*
 * Verified blocks (files source → follower → in-process bus): a block file that claims an id the chain states
 * another root hash for is dead-lettered with its reason and the real block is published; two different files for
 * an id nothing in the directory can decide between are a conflict. Root hashes the tests expect are computed by
 * @ton/core (`Cell.fromBoc(...).hash()`), not by the code under test; the corrupted copies are made here, by
 * flipping one byte of one cell's data and recomputing the BOC's CRC32C.
 */

const RAW = 'blocks.raw';
const DLQ = 'blocks.raw.dlq';

/** The representation hash of a BOC's root cell, as @ton/core computes it (hex). */
const tonCoreRootHash = (bytes: Uint8Array): string => Cell.fromBoc(Buffer.from(bytes))[0]!.hash().toString('hex');

/** Block id (`wc:SHARD:seqno`) of a block BOC, read with @ton/core: block_info is the root's first reference. */
function tonCoreBlockId(bytes: Uint8Array): string {
  // block_info#9bc7a987 version:uint32 not_master:(## 1) after_merge:(## 1) before_split:(## 1) after_split:(## 1)
  // want_split:Bool want_merge:Bool key_block:Bool vert_seqno_incr:(## 1) flags:(## 8) seq_no:# vert_seq_no:#
  // shard:ShardIdent … and shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64 (block.tlb)
  const s = Cell.fromBoc(Buffer.from(bytes))[0]!.refs[0]!.beginParse();
  s.skip(32 + 32 + 8 + 8);
  const seqno = s.loadUint(32);
  s.skip(32 + 2);
  const prefixBits = s.loadUint(6);
  const workchain = s.loadInt(32);
  const prefix = s.loadUintBig(64);
  const shard = prefix | (1n << BigInt(63 - prefixBits));
  return `${workchain}:${shard.toString(16).toUpperCase()}:${seqno}`;
}

/**
 * A copy of a block with one byte of one ordinary cell's data flipped and the CRC32C recomputed: a valid BOC of a
 * different block with the same id. Tries cells from the middle of the bag until the copy still reads as a block
 * with the same id (a flip inside BlockInfo would change the id or the layout).
 */
function flipOneCellByte(bytes: Buffer, from = 0.5): Buffer {
  const boc = Boc.parse(bytes);
  const id = tonCoreBlockId(bytes);
  const root = tonCoreRootHash(bytes);
  for (let k = 0; k < boc.count; k++) {
    const cell = (Math.floor(boc.count * from) + k) % boc.count;
    if (boc.isExotic(cell) || boc.bitLen[cell]! < 16) continue;
    const out = Buffer.from(bytes);
    out[boc.dataOff[cell]! + 1]! ^= 0x10;
    if (out.readUInt32BE(0) === 0xb5ee9c72 && (out[4]! & 0x40) !== 0) out.writeUInt32LE(crc32c(out, 0, out.length - 4), out.length - 4);
    try {
      // Still a block to the files source's loader too (a flip inside, say, ValueFlow's tag would make it a file
      // that is not a block, skipped before verification).
      loadBlock(Boc.parse(out));
      if (tonCoreBlockId(out) === id && tonCoreRootHash(out) !== root) return out;
    } catch {
      // not a block any more: try another cell
    }
  }
  throw new Error('no cell whose flip keeps the block readable');
}

interface Run {
  published: Array<{ id: string; rootHash: string; bytes: Buffer; mcSeqno: number | null }>;
  dead: IncomingMessage[];
  rejects: Array<{ file: string; error: BlockVerificationError }>;
  conflicts: Array<{ id: string; files: string[]; kept: string | null }>;
}

/** Replays `dir` through the follower onto an in-process bus and collects what reaches each topic. */
async function replay(dir: string): Promise<Run> {
  const bus: Bus = createMemoryBus({ partitionsDefault: 1 });
  onTestFinished(() => bus.close());
  await bus.ensureTopics([
    { name: RAW, partitions: 1 },
    { name: `${RAW}.mc`, partitions: 1 },
    { name: DLQ, partitions: 1 },
  ]);
  const raw = collect(bus, { groupId: 'raw-reader', topics: [RAW] });
  const dlq = collect(bus, { groupId: 'dlq-reader', topics: [DLQ] });
  const rejects: Run['rejects'] = [];
  const conflicts: Run['conflicts'] = [];
  const source = await createFilesSource({
    dir,
    onReject: (file, error) => rejects.push({ file, error }),
    onConflict: (id, files, kept) => conflicts.push({ id: `${id.workchain}:${id.shard}:${id.seqno}`, files: [...files].sort(), kept }),
  });
  let groups = 0;
  let blocks = 0;
  await follow({
    source,
    producer: await bus.producer(),
    topic: RAW,
    mcTopic: `${RAW}.mc`,
    dlqTopic: DLQ,
    checkpoints: { load: async () => null, save: async () => {} },
    saveAfterPublish: false,
    signal: new AbortController().signal,
    onGroup: (g) => {
      groups++;
      blocks += g.blocks;
    },
  });
  await waitFor(() => raw.received.length >= blocks && dlq.received.length >= rejects.length, 30_000, 'every published and dead-lettered block delivered');
  expect(groups).toBeGreaterThan(0);
  await raw.consumer.stop();
  await dlq.consumer.stop();
  const published = raw.received.map((m) => {
    const { block } = decodeRawBlock(m);
    const { workchain, shard, seqno } = block.id;
    return { id: `${workchain}:${shard}:${seqno}`, rootHash: Buffer.from(block.rootHash).toString('hex'), bytes: m.value, mcSeqno: block.mcSeqno };
  });
  return { published, dead: dlq.received, rejects, conflicts };
}

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

let exported: Promise<string> | null = null;

/**
 * A devnet chain exported as block files (consecutive masterchain blocks and the shard blocks they commit), copied
 * into a fresh directory: the chain is exported once per file, each test gets its own copy to alter.
 */
async function devnetDirectory(): Promise<string> {
  exported ??= (async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'tonflow-verify-export-'));
    const { exportDevnet } = await import('../../shared/sources/devnet/export.js');
    await exportDevnet({ out, transactions: 40, tps: 10, seed: 'verify', genesisUtime: 1_800_000_000, walletsPerKind: 4 });
    return out;
  })();
  const from = await exported;
  const dir = tempDir('tonflow-verify-devnet-');
  // The blocks only (not the export's state snapshot): these tests read every raw-topic message as a block.
  for (const f of readdirSync(from).filter((n) => n.endsWith('.boc'))) copyFileSync(path.join(from, f), path.join(dir, f));
  return dir;
}

afterAll(async () => {
  if (exported) rmSync(await exported, { recursive: true, force: true });
});

function filesById(dir: string): Map<string, { file: string; bytes: Buffer }> {
  const out = new Map<string, { file: string; bytes: Buffer }>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.boc'))) {
    const bytes = readFileSync(path.join(dir, file));
    out.set(tonCoreBlockId(bytes), { file, bytes });
  }
  return out;
}

it('a masterchain block and a shard block with corrupted copies among a devnet chain: the real ones are published, the copies dead-lettered with their reason', async () => {
  const dir = await devnetDirectory();
  const originals = filesById(dir);
  const masters = [...originals.keys()].filter((k) => k.startsWith('-1:')).sort((a, b) => Number(a.split(':')[2]) - Number(b.split(':')[2]));
  expect(masters.length).toBeGreaterThanOrEqual(3);
  // Not the newest masterchain block: its successor states its hash. A shard block the newest one commits is
  // stated by that masterchain block's ShardDescr (or its successor's prev_ref).
  const mcId = masters[masters.length - 2]!;
  const shardIds = [...originals.keys()].filter((k) => !k.startsWith('-1:')).sort((a, b) => Number(b.split(':')[2]) - Number(a.split(':')[2]));
  expect(shardIds.length).toBeGreaterThan(0);
  const shardId = shardIds[Math.floor(shardIds.length / 2)]!;
  // Named to sort after the originals: before verification, the file sorting last replaced the other one.
  const badMc = flipOneCellByte(originals.get(mcId)!.bytes);
  const badShard = flipOneCellByte(originals.get(shardId)!.bytes);
  writeFileSync(path.join(dir, 'zz_corrupt_mc.boc'), badMc);
  writeFileSync(path.join(dir, 'zz_corrupt_shard.boc'), badShard);

  const run = await replay(dir);

  // Every real block published once, with the root hash @ton/core computes for the original file.
  const publishedIds = run.published.map((p) => p.id).sort();
  expect(publishedIds).toEqual([...originals.keys()].sort());
  for (const p of run.published) {
    const original = originals.get(p.id)!;
    expect(p.rootHash, p.id).toBe(tonCoreRootHash(original.bytes));
    expect(p.bytes.equals(original.bytes), p.id).toBe(true);
  }

  // The two copies dead-lettered with their bytes, the code and a reason naming both hashes and who stated the real one.
  expect(run.dead).toHaveLength(2);
  const deadBy = new Map(run.dead.map((m) => [tonCoreRootHash(m.value), m]));
  const mcDead = deadBy.get(tonCoreRootHash(badMc))!;
  const shardDead = deadBy.get(tonCoreRootHash(badShard))!;
  for (const [m, bad, id] of [
    [mcDead, badMc, mcId],
    [shardDead, badShard, shardId],
  ] as const) {
    expect(m, id).toBeDefined();
    expect(m.value.equals(bad)).toBe(true);
    expect(m.headers[HEADER_ERROR_CODE]).toBe('BLOCK_HASH_MISMATCH');
    expect(m.headers[HEADER_ERROR_MESSAGE]).toContain(tonCoreRootHash(bad));
    expect(m.headers[HEADER_ERROR_MESSAGE]).toContain(tonCoreRootHash(originals.get(id)!.bytes));
    expect(decodeRawBlock(m).block.id.seqno).toBe(Number(id.split(':')[2]));
  }
  expect(mcDead.headers[HEADER_ERROR_MESSAGE]).toContain(`prev_ref of -1:8000000000000000:${Number(mcId.split(':')[2]) + 1}`);
  // Reported (the service logs it) with the file name.
  expect(run.rejects.map((r) => r.file).sort()).toEqual(['zz_corrupt_mc.boc', 'zz_corrupt_shard.boc']);
  // And each pair reported as a conflict, naming the file kept.
  expect(run.conflicts.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
    [
      { id: mcId, files: [originals.get(mcId)!.file, 'zz_corrupt_mc.boc'].sort(), kept: originals.get(mcId)!.file },
      { id: shardId, files: [originals.get(shardId)!.file, 'zz_corrupt_shard.boc'].sort(), kept: originals.get(shardId)!.file },
    ].sort((a, b) => a.id.localeCompare(b.id)),
  );
}, 240_000);

it('a mixed directory: several corrupted copies, a corrupted copy alone without its original, and a re-serialized copy', async () => {
  const dir = await devnetDirectory();
  const originals = filesById(dir);
  const ids = [...originals.keys()].sort();
  const masters = ids.filter((k) => k.startsWith('-1:')).sort((a, b) => Number(a.split(':')[2]) - Number(b.split(':')[2]));
  const shards = ids.filter((k) => !k.startsWith('-1:'));
  // Corrupted copies next to the original: every second shard block, and the oldest masterchain block (named to
  // sort first this time, so neither file order wins).
  const copied = shards.filter((_, i) => i % 2 === 0);
  for (const id of copied) writeFileSync(path.join(dir, `zz_${id.replace(/:/g, '_')}.boc`), flipOneCellByte(originals.get(id)!.bytes, 0.3));
  writeFileSync(path.join(dir, `00_${masters[0]!.replace(/:/g, '_')}.boc`), flipOneCellByte(originals.get(masters[0]!)!.bytes));
  // A shard block whose original is replaced by a corrupted copy: nothing real to publish, the copy is dead-lettered.
  const replaced = shards.find((id) => !copied.includes(id))!;
  writeFileSync(path.join(dir, originals.get(replaced)!.file), flipOneCellByte(originals.get(replaced)!.bytes));
  // The same block serialized another way (no CRC, other flags): same root hash, so the same block, published once.
  const reserialized = masters[1]!;
  const again = Cell.fromBoc(originals.get(reserialized)!.bytes)[0]!.toBoc({ idx: true, crc32: false });
  expect(again.equals(originals.get(reserialized)!.bytes)).toBe(false);
  writeFileSync(path.join(dir, 'zz_reserialized.boc'), again);

  const run = await replay(dir);

  expect(run.published.map((p) => p.id).sort()).toEqual(ids.filter((id) => id !== replaced));
  for (const p of run.published) expect(p.rootHash, p.id).toBe(tonCoreRootHash(originals.get(p.id)!.bytes));
  expect(run.dead).toHaveLength(copied.length + 2);
  for (const m of run.dead) {
    expect(m.headers[HEADER_ERROR_CODE]).toBe('BLOCK_HASH_MISMATCH');
    const id = tonCoreBlockId(m.value);
    expect(tonCoreRootHash(m.value)).not.toBe(tonCoreRootHash(originals.get(id)!.bytes));
  }
  const deadIds = run.dead.map((m) => tonCoreBlockId(m.value)).sort();
  expect(deadIds).toEqual([...copied, masters[0]!, replaced].sort());
}, 240_000);

it('through the pipeline (follower, decode stage, chdb): the store holds the real blocks, the dead-letter topic the copies', async () => {
  const dir = await devnetDirectory();
  const originals = filesById(dir);
  const masters = [...originals.keys()].filter((k) => k.startsWith('-1:')).sort((a, b) => Number(a.split(':')[2]) - Number(b.split(':')[2]));
  const mcId = masters[0]!;
  const shardId = [...originals.keys()].find((k) => !k.startsWith('-1:'))!;
  const badMc = flipOneCellByte(originals.get(mcId)!.bytes);
  const badShard = flipOneCellByte(originals.get(shardId)!.bytes);
  writeFileSync(path.join(dir, 'zz_corrupt_mc.boc'), badMc);
  writeFileSync(path.join(dir, 'zz_corrupt_shard.boc'), badShard);

  const data = tempDir('tonflow-verify-data-');
  const config = loadConfig(tonflowConfigSchema, {
    env: { TONFLOW_MODE: 'embedded', TONFLOW_SOURCE: `files:${dir}`, TONFLOW_DATA: data, TONFLOW_CLICKHOUSE_DATABASE: `verify_${process.pid}`, TONFLOW_LOG_LEVEL: 'warn' },
  });
  const logger = createLogger({ service: 'files-verify-test', level: 'warn' });
  const store = await openStore(config, logger);
  onTestFinished(() => store.close());
  await migrate(store);
  const bus = openBus(config, logger, 'files-verify-test');
  onTestFinished(() => bus.close());
  await bus.ensureTopics(topicSpecs(config));
  const producer = await bus.producer();
  const topics = topicNames(config);
  const dlq = collect(bus, { groupId: 'dlq-reader', topics: [topics.rawBlocksDlq] });
  const consumer = bus.consumer({ groupId: `${config.topicPrefix}.decode`, topics: [topics.rawBlocks] });
  let stored = 0;
  const stage = runDecodeStage({
    consumer,
    toRows: blockToRows,
    write: createStoreWriter({ store, logger }),
    deadLetter: (msg, error) => deadLetter(producer, topics.rawBlocksDlq, msg, error),
    onBatch: (b) => {
      stored += b.blocks + b.deadLettered;
    },
  });
  stage.catch(() => {});
  const rejects: string[] = [];
  const source = await createFilesSource({ dir, onReject: (file) => rejects.push(file) });
  await follow({
    source,
    producer,
    topic: topics.rawBlocks,
    mcTopic: topics.mcBlocks,
    dlqTopic: topics.rawBlocksDlq,
    checkpoints: { load: async () => null, save: async () => {} },
    saveAfterPublish: false,
    signal: new AbortController().signal,
  });
  await waitFor(() => stored >= originals.size && dlq.received.length >= 2, 120_000, 'every block stored and both copies dead-lettered');
  await consumer.stop();
  await dlq.consumer.stop();

  const rows = await store.query<{ workchain: number; shard: string; seqno: number; root_hash: string }>(
    'SELECT workchain, shard, seqno, root_hash FROM blocks FINAL',
  );
  const storedIds = new Map(rows.map((r) => [`${r.workchain}:${BigInt(r.shard).toString(16).toUpperCase()}:${r.seqno}`, r.root_hash]));
  expect([...storedIds.keys()].sort()).toEqual([...originals.keys()].sort());
  for (const id of [mcId, shardId]) {
    expect(Buffer.from(storedIds.get(id)!, 'base64').toString('hex'), id).toBe(tonCoreRootHash(originals.get(id)!.bytes));
  }
  expect(dlq.received.map((m) => m.headers[HEADER_ERROR_CODE])).toEqual(['BLOCK_HASH_MISMATCH', 'BLOCK_HASH_MISMATCH']);
  expect(new Set(dlq.received.map((m) => tonCoreRootHash(m.value)))).toEqual(new Set([tonCoreRootHash(badMc), tonCoreRootHash(badShard)]));
  expect(rejects.sort()).toEqual(['zz_corrupt_mc.boc', 'zz_corrupt_shard.boc']);
}, 300_000);

describeFixtures('files source verification on mainnet fixture blocks', () => {
  it('two different files for a masterchain block nothing in the directory vouches for: a conflict, both dead-lettered, the other blocks replayed', async () => {
    const dir = tempDir('tonflow-verify-fixtures-');
    const names = ['mainnet_-1_8000000000000000_46991999_keyblock.boc', 'mainnet_0_6000000000000000_52111590.boc', 'mainnet_-1_8000000000000000_24374597.boc'];
    for (const n of names) copyFileSync(fixturePath(`blocks/${n}`), path.join(dir, n));
    const good = readFixture(`blocks/${names[0]}`);
    // MANIFEST.md: key block 46991999, root hash stated upstream (tonlib_new).
    expect(tonCoreRootHash(good)).toBe('cbebaa6ac4270c987c90c5ed930ff37f9b73c705999585d6d8c1c5e9fa3dd6e3');
    const bad = flipOneCellByte(good);
    writeFileSync(path.join(dir, 'zz_keyblock_copy.boc'), bad);

    const run = await replay(dir);

    expect(run.published.map((p) => p.id).sort()).toEqual(['-1:8000000000000000:24374597', '0:6000000000000000:52111590']);
    expect(run.dead).toHaveLength(2);
    expect(run.dead.map((m) => m.headers[HEADER_ERROR_CODE])).toEqual(['BLOCK_CONFLICT', 'BLOCK_CONFLICT']);
    expect(new Set(run.dead.map((m) => tonCoreRootHash(m.value)))).toEqual(new Set([tonCoreRootHash(good), tonCoreRootHash(bad)]));
    expect(run.dead[0]!.headers[HEADER_ERROR_MESSAGE]).toContain('cbebaa6ac4270c987c90c5ed930ff37f9b73c705999585d6d8c1c5e9fa3dd6e3');
    expect(run.conflicts).toEqual([{ id: '-1:8000000000000000:46991999', files: [names[0]!, 'zz_keyblock_copy.boc'].sort(), kept: null }]);
  });
});
