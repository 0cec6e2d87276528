import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Boc } from '../ton/boc/reader.js';
import { DecodeError } from '../ton/errors.js';
import { STATE_SNAPSHOT_FILE, type StateSnapshot, StateSnapshotError, parseStateSnapshot } from '../ton/state-snapshot.js';
import { prevBlockIds } from '../ton/records/block.js';
import { shardHex } from '../ton/records/format.js';
import { loadBlock } from '../ton/tlb/Block.js';
import { shardId } from '../ton/tlb/ShardIdent.js';
import type { BlockGroup, BlockId, BlockSource, RawBlock, RejectedBlock } from './source.js';
import { type BlockCandidate, type BlockVerificationError, blockKey, verifyCandidates } from './verify.js';

/** What the index keeps of a block file: enough to order, link and verify it without holding its bytes. */
interface IndexedBlock extends BlockCandidate {
  file: string;
  genUtime: number;
}

/**
 * A unit of replay: a masterchain block with the shard blocks it commits, or a shard block on its own; plus the
 * rejected files that claimed one of its blocks' ids.
 */
interface Unit {
  key: string;
  utime: number;
  mcSeqno: number | null;
  blocks: IndexedBlock[];
  rejected: Array<{ block: IndexedBlock; error: BlockVerificationError }>;
}

/** How much of a directory could be verified (see {@link createFilesSource}). */
export interface FilesVerification {
  /** Blocks whose root hash a later accepted block states, and that match it. */
  verified: number;
  /** Blocks published without a stated hash: the newest masterchain block, shard blocks nothing in the directory commits. */
  unverified: number;
  rejected: number;
}

export interface FilesSourceOptions {
  dir: string;
  /** Called for files that are not block BOCs (they are skipped, never silently). */
  onSkip?: (file: string, reason: string) => void;
  /** Called when a masterchain block commits a shard block the directory does not have. */
  onGap?: (missing: BlockId, committedBy: number) => void;
  /** Called for each file that fails verification (it is not replayed; the follower dead-letters it). */
  onReject?: (file: string, error: BlockVerificationError) => void;
  /**
   * Called for each id that two or more different blocks (root hashes) claim: the files, and the one replayed (null
   * when none could be verified). The others are also reported through `onReject`.
   */
  onConflict?: (id: BlockId, files: string[], kept: string | null) => void;
  /** Called for a further copy of a block (same root hash, different bytes): replayed once. */
  onDuplicate?: (file: string, of: string) => void;
  /** Called once the directory is indexed. */
  onVerified?: (summary: FilesVerification) => void;
  /** Called when the directory holds a state snapshot (read and checked in full before any block is replayed). */
  onSnapshot?: (info: { file: string; mcSeqno: number; accounts: number }) => void;
}

/** The checkpoint key of the group that carries a snapshot of a directory without blocks. */
const SNAPSHOT_ONLY = 'state-snapshot';

/** Largest state snapshot file read (it is held in memory while checked and published). */
export const MAX_STATE_SNAPSHOT_BYTES = 512 * 1024 * 1024;

const idKey = blockKey;

/**
 * Replays a directory of block BOCs (`--source files:DIR`): any mix of masterchain and shard blocks, and the
 * optional state snapshot beside them (`state-snapshot.json`, shared/ton/state-snapshot.ts), which comes with the
 * first group: accounts no replayed block touches get their state from it. The snapshot is checked in full when the
 * source is created; a malformed one is an error (StateSnapshotError) before anything is replayed.
 *
 * Each masterchain block is grouped with the shard blocks it commits: those reachable from its ShardHashes tips
 * through prev links (block.tlb BlkPrevInfo, across splits and merges) that an earlier masterchain block did not
 * already commit. Shard blocks that no masterchain block in the directory commits are replayed on their own with
 * an unknown masterchain seqno. Units are ordered by generation time, which keeps every shard in seqno order.
 *
 * Before anything is replayed every block is verified against the root hash the chain states for its id
 * (verify.ts): a masterchain block against the next masterchain block's `prev_ref`, a shard block against the
 * ShardDescr of the masterchain block that commits it or the `prev_ref` of its verified successor. A file that
 * fails, or one of two different files for an id nothing can decide between (a conflict), is not replayed: it comes
 * in its unit's `rejected` list with the reason, for the dead-letter topic. What a directory cannot verify:
 * - its newest masterchain block (no successor states its hash; it anchors the rest, as a liteserver source's first
 *   block does), and any masterchain block right before a gap in the masterchain seqnos;
 * - shard blocks that no masterchain block in the directory commits and no verified shard block names as its
 *   predecessor: a directory of shard blocks alone is replayed unverified, except that two different files for one
 *   id are still reported as a conflict and neither is replayed;
 * - validator signatures: a consistent chain of forged blocks is accepted (a liteserver source does not check them
 *   either).
 */
export async function createFilesSource(opts: FilesSourceOptions): Promise<BlockSource> {
  // The snapshot first: a malformed one stops the source before anything is published.
  const snapshot = await readStateSnapshot(opts);
  const units = await indexDirectory(opts);
  return {
    async *groups(checkpoint: string | null, signal: AbortSignal): AsyncIterable<BlockGroup> {
      let start = 0;
      if (checkpoint !== null) {
        const done = JSON.parse(checkpoint) as { key: string };
        // The checkpoint of a directory that held only its snapshot: its blocks (if it has some now) start from the first.
        if (done.key !== SNAPSHOT_ONLY) {
          const at = units.findIndex((u) => u.key === done.key);
          if (at < 0) throw new DecodeError('TLB_INVALID', `files source: checkpoint ${done.key} is not in ${opts.dir}`);
          start = at + 1;
        }
      }
      for (let i = start; i < units.length; i++) {
        if (signal.aborted) return;
        const u = units[i]!;
        const blocks: RawBlock[] = [];
        const read = async (b: IndexedBlock): Promise<RawBlock> => ({
          id: b.id,
          rootHash: b.rootHash,
          fileHash: b.fileHash,
          data: await readFile(path.join(opts.dir, b.file)),
          mcSeqno: u.mcSeqno,
        });
        for (const b of u.blocks) blocks.push(await read(b));
        const rejected: RejectedBlock[] = [];
        for (const r of u.rejected) rejected.push({ block: await read(r.block), error: r.error });
        // The snapshot travels with the first group of a replay from the start; a resumed replay stored it already.
        const states = checkpoint === null && i === start && snapshot ? { states: snapshot } : {};
        yield { mcSeqno: u.mcSeqno, blocks, checkpoint: JSON.stringify({ key: u.key }), ...(rejected.length > 0 ? { rejected } : {}), ...states };
      }
      if (checkpoint === null && units.length === 0 && snapshot && !signal.aborted) {
        yield { mcSeqno: null, blocks: [], checkpoint: JSON.stringify({ key: SNAPSHOT_ONLY }), states: snapshot };
      }
    },
    async close() {},
  };
}

/**
 * The directory's state snapshot (`state-snapshot.json`, shared/ton/state-snapshot.ts), checked account by account;
 * null when there is none. Throws StateSnapshotError for a file that is not one.
 */
async function readStateSnapshot(opts: FilesSourceOptions): Promise<StateSnapshot | null> {
  const file = path.join(opts.dir, STATE_SNAPSHOT_FILE);
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  if (size > MAX_STATE_SNAPSHOT_BYTES) throw new StateSnapshotError(`${file}: ${size} bytes, more than the ${MAX_STATE_SNAPSHOT_BYTES} a snapshot may have`);
  const snapshot = parseStateSnapshot(await readFile(file, 'utf8'), file);
  opts.onSnapshot?.({ file, mcSeqno: snapshot.mc_seqno, accounts: snapshot.accounts.length });
  return snapshot;
}

async function indexDirectory(opts: FilesSourceOptions): Promise<Unit[]> {
  const files = (await readdir(opts.dir)).filter((f) => f.endsWith('.boc')).sort();
  const candidates: IndexedBlock[] = [];
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
    candidates.push(indexed);
  }
  const verdict = verifyCandidates(candidates);
  const byId = new Map<string, IndexedBlock>();
  let verified = 0;
  for (const [key, { block, stated }] of verdict.accepted) {
    byId.set(key, block);
    if (stated) verified++;
  }
  for (const d of verdict.duplicates) opts.onDuplicate?.(d.block.file, d.of.file);
  const claims = new Map<string, IndexedBlock[]>();
  for (const c of candidates) claims.set(idKey(c.id), [...(claims.get(idKey(c.id)) ?? []), c]);
  for (const [key, list] of claims) {
    if (new Set(list.map((c) => Buffer.from(c.rootHash).toString('hex'))).size < 2) continue;
    opts.onConflict?.(list[0]!.id, list.map((c) => c.file), byId.get(key)?.file ?? null);
  }
  for (const r of verdict.rejected) opts.onReject?.(r.block.file, r.error);
  opts.onVerified?.({ verified, unverified: byId.size - verified, rejected: verdict.rejected.length });

  const masters = [...byId.values()].filter((b) => b.id.workchain === -1).sort((a, b) => a.id.seqno - b.id.seqno);
  const committed = new Set<string>();
  const units: Unit[] = [];
  for (const mc of masters) {
    const fresh: IndexedBlock[] = [];
    const stack = mc.shardTips.map((t) => t.id);
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
      stack.push(...b.prev.map((p) => p.id));
    }
    fresh.sort((a, b) => a.genUtime - b.genUtime || a.id.seqno - b.id.seqno);
    for (const b of fresh) committed.add(idKey(b.id));
    committed.add(idKey(mc.id));
    units.push({ key: idKey(mc.id), utime: mc.genUtime, mcSeqno: mc.id.seqno, blocks: [...fresh, mc], rejected: [] });
  }
  for (const b of byId.values()) {
    if (committed.has(idKey(b.id))) continue;
    units.push({ key: idKey(b.id), utime: b.genUtime, mcSeqno: null, blocks: [b], rejected: [] });
  }
  // A rejected file travels with the unit that replays its id's accepted block (so a resumed replay does not report
  // it again), or, when no block of its id was accepted, in a unit of its own that replays nothing.
  const unitOf = new Map<string, Unit>();
  for (const u of units) for (const b of u.blocks) unitOf.set(idKey(b.id), u);
  const orphans = new Map<string, Unit>();
  for (const r of verdict.rejected) {
    const key = idKey(r.block.id);
    let u = unitOf.get(key) ?? orphans.get(key);
    if (!u) {
      u = { key: `rejected:${key}`, utime: r.block.genUtime, mcSeqno: null, blocks: [], rejected: [] };
      orphans.set(key, u);
    }
    u.rejected.push(r);
  }
  units.push(...orphans.values());
  units.sort((a, b) => a.utime - b.utime || (a.mcSeqno === null ? 1 : 0) - (b.mcSeqno === null ? 1 : 0) || a.key.localeCompare(b.key));
  return units;
}

function indexBlock(file: string, bytes: Uint8Array): IndexedBlock {
  const boc = Boc.parse(bytes);
  const block = loadBlock(boc);
  boc.hashAll();
  const info = block.info;
  const id: BlockId = { workchain: info.shard.workchain, shard: shardHex(shardId(info.shard)), seqno: info.seqno };
  const prev = prevBlockIds(block).map(({ workchain, shard, seqno, ref }) => ({
    id: { workchain, shard, seqno },
    // Copies: the loaded fields are views into the file's bytes, which the index must not keep alive.
    rootHash: ref.rootHash.slice(),
    fileHash: ref.fileHash.slice(),
  }));
  const shardTips = (block.extra.custom?.shardHashes ?? []).map((h) => ({
    id: { workchain: h.workchain, shard: shardHex(h.shard), seqno: h.descr.seqno },
    rootHash: h.descr.rootHash.slice(),
    fileHash: h.descr.fileHash.slice(),
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
