import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { Boc } from '../ton/boc/reader.js';
import { DecodeError } from '../ton/errors.js';
import { prevBlockIds } from '../ton/records/block.js';
import { shardHex } from '../ton/records/format.js';
import { loadBlock } from '../ton/tlb/Block.js';
import { shardId } from '../ton/tlb/ShardIdent.js';
import type { BlockGroup, BlockId, BlockSource, RawBlock } from './source.js';

/** What the index keeps of a block file: enough to order and link it without holding its bytes. */
interface IndexedBlock {
  file: string;
  id: BlockId;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
  genUtime: number;
  prev: BlockId[];
  /** Shard tips a masterchain block commits (empty for shard blocks). */
  shardTips: BlockId[];
}

/** A unit of replay: a masterchain block with the shard blocks it commits, or a shard block on its own. */
interface Unit {
  key: string;
  utime: number;
  mcSeqno: number | null;
  blocks: IndexedBlock[];
}

export interface FilesSourceOptions {
  dir: string;
  /** Called for files that are not block BOCs (they are skipped, never silently). */
  onSkip?: (file: string, reason: string) => void;
  /** Called when a masterchain block commits a shard block the directory does not have. */
  onGap?: (missing: BlockId, committedBy: number) => void;
}

const idKey = (id: BlockId): string => `${id.workchain}:${id.shard}:${id.seqno}`;

/**
 * Replays a directory of block BOCs (`--source files:DIR`): any mix of masterchain and shard blocks.
 *
 * Each masterchain block is grouped with the shard blocks it commits: those reachable from its ShardHashes tips
 * through prev links (block.tlb BlkPrevInfo, across splits and merges) that an earlier masterchain block did not
 * already commit. Shard blocks that no masterchain block in the directory commits are replayed on their own with
 * an unknown masterchain seqno. Units are ordered by generation time, which keeps every shard in seqno order.
 */
export async function createFilesSource(opts: FilesSourceOptions): Promise<BlockSource> {
  const units = await indexDirectory(opts);
  return {
    async *groups(checkpoint: string | null, signal: AbortSignal): AsyncIterable<BlockGroup> {
      let start = 0;
      if (checkpoint !== null) {
        const done = JSON.parse(checkpoint) as { key: string };
        const at = units.findIndex((u) => u.key === done.key);
        if (at < 0) throw new DecodeError('TLB_INVALID', `files source: checkpoint ${done.key} is not in ${opts.dir}`);
        start = at + 1;
      }
      for (let i = start; i < units.length; i++) {
        if (signal.aborted) return;
        const u = units[i]!;
        const blocks: RawBlock[] = [];
        for (const b of u.blocks) {
          blocks.push({
            id: b.id,
            rootHash: b.rootHash,
            fileHash: b.fileHash,
            data: await readFile(path.join(opts.dir, b.file)),
            mcSeqno: u.mcSeqno,
          });
        }
        yield { mcSeqno: u.mcSeqno, blocks, checkpoint: JSON.stringify({ key: u.key }) };
      }
    },
    async close() {},
  };
}

async function indexDirectory(opts: FilesSourceOptions): Promise<Unit[]> {
  const files = (await readdir(opts.dir)).filter((f) => f.endsWith('.boc')).sort();
  const byId = new Map<string, IndexedBlock>();
  for (const file of files) {
    const bytes = await readFile(path.join(opts.dir, file));
    let indexed: IndexedBlock;
    try {
      indexed = indexBlock(file, bytes);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      opts.onSkip?.(file, e.message);
      continue;
    }
    byId.set(idKey(indexed.id), indexed);
  }

  const masters = [...byId.values()].filter((b) => b.id.workchain === -1).sort((a, b) => a.id.seqno - b.id.seqno);
  const committed = new Set<string>();
  const units: Unit[] = [];
  for (const mc of masters) {
    const fresh: IndexedBlock[] = [];
    const stack = [...mc.shardTips];
    const visited = new Set<string>();
    while (stack.length > 0) {
      const id = stack.pop()!;
      const key = idKey(id);
      if (committed.has(key) || visited.has(key)) continue;
      visited.add(key);
      const b = byId.get(key);
      if (!b) {
        // The walk stops at the first block the directory lacks (for the first masterchain block of a replay that
        // is simply where the directory begins); older ones behind it cannot be reached.
        opts.onGap?.(id, mc.id.seqno);
        continue;
      }
      fresh.push(b);
      stack.push(...b.prev);
    }
    fresh.sort((a, b) => a.genUtime - b.genUtime || a.id.seqno - b.id.seqno);
    for (const b of fresh) committed.add(idKey(b.id));
    committed.add(idKey(mc.id));
    units.push({ key: idKey(mc.id), utime: mc.genUtime, mcSeqno: mc.id.seqno, blocks: [...fresh, mc] });
  }
  for (const b of byId.values()) {
    if (committed.has(idKey(b.id))) continue;
    units.push({ key: idKey(b.id), utime: b.genUtime, mcSeqno: null, blocks: [b] });
  }
  units.sort((a, b) => a.utime - b.utime || (a.mcSeqno === null ? 1 : 0) - (b.mcSeqno === null ? 1 : 0) || a.key.localeCompare(b.key));
  return units;
}

function indexBlock(file: string, bytes: Uint8Array): IndexedBlock {
  const boc = Boc.parse(bytes);
  const block = loadBlock(boc);
  boc.hashAll();
  const info = block.info;
  const id: BlockId = { workchain: info.shard.workchain, shard: shardHex(shardId(info.shard)), seqno: info.seqno };
  const prev = prevBlockIds(block).map(({ workchain, shard, seqno }) => ({ workchain, shard, seqno }));
  const shardTips = (block.extra.custom?.shardHashes ?? []).map((h) => ({
    workchain: h.workchain,
    shard: shardHex(h.shard),
    seqno: h.descr.seqno,
  }));
  return {
    file,
    id,
    rootHash: boc.hash(block.cell).slice(),
    fileHash: createHash('sha256').update(bytes).digest(),
    genUtime: info.genUtime,
    prev,
    shardTips,
  };
}
