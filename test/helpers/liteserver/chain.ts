/**
 * Test chains for the liteserver source, and the test-only INDEX that says which masterchain block commits which
 * shard blocks. What is real and what is scaffolding:
 *
 * REAL bytes (fixture BOCs, served under their real root hash; file hash = sha256 of the fixture file):
 *   R1 = (0,6000000000000000,52111590)              root d350895e…, prev (0,6000…,52111589)
 *   R2 = (0,c000000000000000,13516764) after merge  root f2bd9e70…, prevs (0,a000…,13516763) and (0,e000…,13516699)
 * REAL ids without bytes (taken from the prev refs inside R1 and R2): 6000…:52111589, a000…:13516763, e000…:13516699.
 *
 * SCAFFOLD (built by blocks.ts from real cells, hashes of the new cells):
 *   - every masterchain block here (seqnos 900000000+): new BlockInfo and ShardHashes over the real body of
 *     masterchain block 34974098;
 *   - the shard blocks of shard 2000… and its split halves 1000…/3000… (X*, Y*, Z, W): new BlockInfo over the
 *     real body of shard block 29836576. They exist because no fixture has an after_split block or two
 *     consecutive blocks of one shard;
 *   - X0, the oldest 2000… tip, is an id only (no bytes anywhere).
 *
 * Chain A (everything available):
 *   S0 commits 2000:X0   6000:52111589   a000:13516763   e000:13516699
 *   S1 commits 2000:X1   6000:R1         c000:R2                       new: X1, R2, R1      (R2: a real merge)
 *   S2 commits 1000:Ya   3000:Yb  6000:R1  c000:R2                     new: X2, Ya, Yb      (X2 splits into Ya, Yb)
 *   S3 commits 2000:Z    6000:R1  c000:R2                              new: Ya2, Z          (Ya2 and Yb merge into Z)
 *   S4 commits the same tips as S3                                      new: (none)
 *   S5 commits 2000:W    6000:R1  c000:R2                              new: W
 *   S6 commits the same tips as S5                                      new: (none)
 * "new" lists the group a correct follower yields, in its order: oldest (lowest start_lt) first, every block after
 * its parents (the scaffold's lts are below both real blocks', and R2, from 2021, is older than R1, from 2025).
 *
 * Chain B (a gap that never closes): T0 commits a000:13516762 (an older, made-up id) instead of 13516763, so the
 *   walk from R2 in T1 must fetch the real 13516763, which no fixture holds.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../fixtures.js';
import { type OldMcBlock, oldMcBlockOf, scaffoldMcState, stateUpdateTo } from './mc-state.js';
import { MAINNET_ZERO_STATE } from './server.js';
import {
  type ExtRef,
  MC_SHARD,
  type ServedBlock,
  type ShardTipSpec,
  extRefOf,
  scaffoldMcBlock,
  scaffoldShardBlock,
  servedBlock,
  tipOf,
} from './blocks.js';

export const BASE_MC_FIXTURE = 'blocks/mainnet_-1_8000000000000000_34974098.boc';
export const BASE_SHARD_FIXTURE = 'blocks/mainnet_0_8000000000000000_29836576_empty.boc';
export const R1_FIXTURE = 'blocks/mainnet_0_6000000000000000_52111590.boc';
export const R2_FIXTURE = 'blocks/mainnet_0_c000000000000000_13516764_after_merge.boc';

/** MANIFEST.md root hashes of the real blocks used here. */
export const R1_ROOT = 'd350895e85ffd081f564e5d138f374a9b52b53aee0035b07ce5a5d6388b73b45';
export const R2_ROOT = 'f2bd9e70513e9ad395510c37fa075aad0993a0566efd5ec20f3180e4e8e8d68f';

export const MC_A = 900_000_000;
export const MC_B = 900_100_000;

const SHARD_1000 = 0x1000000000000000n;
const SHARD_2000 = 0x2000000000000000n;
const SHARD_3000 = 0x3000000000000000n;

/** One entry of the test-only index: a masterchain block, what it commits, and the shard blocks new in it. */
export interface IndexEntry {
  mc: ServedBlock;
  commits: ShardTipSpec[];
  /** The group a correct follower yields for `mc`, shard blocks in order (then `mc`). */
  newBlocks: ServedBlock[];
}

export interface ChainA {
  index: IndexEntry[];
  /** Every block with bytes, real and scaffold. */
  blocks: ServedBlock[];
  r1: ServedBlock;
  r2: ServedBlock;
  named: Record<'X1' | 'X2' | 'Ya' | 'Yb' | 'Ya2' | 'Z' | 'W', ServedBlock>;
}

function fakeHash(label: string): Buffer {
  return createHash('sha256').update(`tonflow scaffold ${label}`).digest();
}

function idOnly(workchain: number, shard: bigint, seqno: number, ref: { rootHash: Uint8Array; fileHash: Uint8Array; endLt: bigint }): ShardTipSpec {
  return { workchain, shard, seqno, rootHash: Buffer.from(ref.rootHash), fileHash: Buffer.from(ref.fileHash), endLt: ref.endLt };
}

function fixture(rel: string): ServedBlock {
  return servedBlock(readFileSync(fixturePath(rel)), `fixture:${rel}`);
}

let realCache: { r1: ServedBlock; r2: ServedBlock; baseMc: Buffer; baseShard: Buffer } | null = null;

function reals(): NonNullable<typeof realCache> {
  realCache ??= {
    r1: fixture(R1_FIXTURE),
    r2: fixture(R2_FIXTURE),
    baseMc: readFileSync(fixturePath(BASE_MC_FIXTURE)),
    baseShard: readFileSync(fixturePath(BASE_SHARD_FIXTURE)),
  };
  return realCache;
}

/**
 * Builds masterchain blocks first..first+n-1 over `commits[i]`, each naming the previous one as its prev block, and
 * each with a state (mc-state.ts) whose `prev_blocks` lists the zero state (mainnet's), the id before the chain and
 * every earlier block of the chain, so a liteserver can link each block back to any earlier one.
 */
function mcChain(first: number, commits: ShardTipSpec[][], label: string): ServedBlock[] {
  const { baseMc } = reals();
  const out: ServedBlock[] = [];
  let prev: ExtRef = { endLt: 1_000_000n, seqno: first - 1, rootHash: fakeHash(`${label} before`), fileHash: fakeHash(`${label} before file`) };
  const listed: OldMcBlock[] = [
    { seqno: 0, key: true, endLt: 0n, ...MAINNET_ZERO_STATE },
    { seqno: prev.seqno, key: false, endLt: prev.endLt, rootHash: prev.rootHash, fileHash: prev.fileHash },
  ];
  commits.forEach((shards, i) => {
    const lt = 2_000_000_000n + BigInt(first + i - 900_000_000) * 1_000_000n;
    const state = scaffoldMcState(baseMc, { seqno: first + i, prevBlocks: listed });
    const mc = scaffoldMcBlock(baseMc, {
      seqno: first + i,
      prev,
      shards,
      genUtime: 1_800_000_000 + i,
      startLt: lt,
      endLt: lt + 5n,
      label: `${label}${i}`,
      stateUpdate: stateUpdateTo(baseMc, state),
    });
    out.push(mc);
    listed.push(oldMcBlockOf(mc));
    prev = extRefOf(mc);
  });
  return out;
}

export function buildChainA(): ChainA {
  const { r1, r2, baseShard } = reals();
  const r1Prev = idOnly(0, 0x6000000000000000n, r1.info.prev[0]!.seqno, r1.info.prev[0]!);
  const r2Left = idOnly(0, 0xa000000000000000n, r2.info.prev[0]!.seqno, r2.info.prev[0]!);
  const r2Right = idOnly(0, 0xe000000000000000n, r2.info.prev[1]!.seqno, r2.info.prev[1]!);
  const x0: ShardTipSpec = { workchain: 0, shard: SHARD_2000, seqno: 100, rootHash: fakeHash('X0'), fileHash: fakeHash('X0 file'), endLt: 1_000_000n };
  const x0Ref: ExtRef = { endLt: 1_000_000n, seqno: 100, rootHash: x0.rootHash, fileHash: x0.fileHash };
  // master_ref of a shard block points to an older masterchain block; the follower does not read it.
  const masterRef: ExtRef = { endLt: 1n, seqno: MC_A - 1, rootHash: fakeHash('master'), fileHash: fakeHash('master file') };
  let lt = 3_000_000_000n;
  const shard = (label: string, shardId: bigint, seqno: number, prev: ExtRef[], flags: { afterSplit?: boolean; beforeSplit?: boolean } = {}): ServedBlock => {
    lt += 1_000_000n;
    return scaffoldShardBlock(baseShard, { workchain: 0, shard: shardId, seqno, prev, masterRef, genUtime: 1_800_000_000, startLt: lt, endLt: lt + 3n, label, ...flags });
  };
  const X1 = shard('X1', SHARD_2000, 101, [x0Ref]);
  const X2 = shard('X2', SHARD_2000, 102, [extRefOf(X1)], { beforeSplit: true });
  const Ya = shard('Ya', SHARD_1000, 103, [extRefOf(X2)], { afterSplit: true });
  const Yb = shard('Yb', SHARD_3000, 103, [extRefOf(X2)], { afterSplit: true });
  const Ya2 = shard('Ya2', SHARD_1000, 104, [extRefOf(Ya)]);
  const Z = shard('Z', SHARD_2000, 105, [extRefOf(Ya2), extRefOf(Yb)]);
  const W = shard('W', SHARD_2000, 106, [extRefOf(Z)]);

  const commits: ShardTipSpec[][] = [
    [x0, r1Prev, r2Left, r2Right],
    [tipOf(X1), tipOf(r1), tipOf(r2)],
    [tipOf(Ya), tipOf(Yb), tipOf(r1), tipOf(r2)],
    [tipOf(Z), tipOf(r1), tipOf(r2)],
    [tipOf(Z), tipOf(r1), tipOf(r2)],
    [tipOf(W), tipOf(r1), tipOf(r2)],
    [tipOf(W), tipOf(r1), tipOf(r2)],
  ];
  const newBlocks: ServedBlock[][] = [[], [X1, r2, r1], [X2, Ya, Yb], [Ya2, Z], [], [W], []];
  const mcs = mcChain(MC_A, commits, 'S');
  const index = mcs.map((mc, i) => ({ mc, commits: commits[i]!, newBlocks: newBlocks[i]! }));
  return { index, blocks: [...mcs, X1, X2, Ya, Yb, Ya2, Z, W, r1, r2], r1, r2, named: { X1, X2, Ya, Yb, Ya2, Z, W } };
}

export interface ChainB {
  index: IndexEntry[];
  blocks: ServedBlock[];
  r2: ServedBlock;
  /** Key of the real block the walk needs and no fixture has: (0,a000000000000000,13516763). */
  missingKey: string;
}

export function buildChainB(): ChainB {
  const { r1, r2 } = reals();
  const r1Prev = idOnly(0, 0x6000000000000000n, r1.info.prev[0]!.seqno, r1.info.prev[0]!);
  const left = r2.info.prev[0]!;
  const r2Right = idOnly(0, 0xe000000000000000n, r2.info.prev[1]!.seqno, r2.info.prev[1]!);
  const olderLeft: ShardTipSpec = { workchain: 0, shard: 0xa000000000000000n, seqno: left.seqno - 1, rootHash: fakeHash('a000 older'), fileHash: fakeHash('a000 older file') };
  const x0: ShardTipSpec = { workchain: 0, shard: SHARD_2000, seqno: 100, rootHash: fakeHash('X0'), fileHash: fakeHash('X0 file') };
  const commits = [
    [x0, r1Prev, olderLeft, r2Right],
    [x0, r1Prev, tipOf(r2)],
  ];
  const mcs = mcChain(MC_B, commits, 'T');
  return {
    // T1's group would be [(0,a000…,13516763), R2, T1]; the first block does not exist here, so it never comes.
    index: mcs.map((mc, i) => ({ mc, commits: commits[i]!, newBlocks: i === 1 ? [r2] : [] })),
    blocks: [...mcs, r2],
    r2,
    missingKey: `0:A000000000000000:${left.seqno}`,
  };
}

export { MC_SHARD };
