import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { NonRetryableError } from '../../runtime/errors.js';
import { Boc } from '../../ton/boc/reader.js';
import { prevBlockIds } from '../../ton/records/block.js';
import { shardHex } from '../../ton/records/format.js';
import { parseAddressForm } from '../../ton/address.js';
import { BlockProofError, verifyShardBlockProof } from '../../ton/shard-block-proof.js';
import { verifyMasterchainBlockSignatures } from '../../ton/block-signatures.js';
import { verifyMasterchainBackProof } from '../../ton/mc-back-proof.js';
import type { SnapshotAccount } from '../../ton/state-snapshot.js';
import type { BlockGroup, FullBlockRef, RawBlock, RejectedBlock } from '../source.js';
import { type Checkpoint, decodeCheckpoint, encodeCheckpoint } from './checkpoint.js';
import type { MasterchainInfo } from './connection.js';
import { bundledGlobalConfig, parseGlobalConfig } from './global-config.js';
import { Pool } from './pool.js';
import { BlockIntegrityError, type FullBlockId, GLOBAL_ID, IntegrityFailure, LiteserverAnswerError, MessageRefusedError, type LiteserverSource, type LiteserverSourceOptions, MC_SHARD, type SourceLogger, WrongNetworkFailure } from './types.js';
import { type VerifiedBlock, describeId, equalBytes, hex, verifyAccountStateAnswer, verifyBlock } from './verify.js';
import { alreadyCommitted, olderFirst, shardTips } from './walk.js';

const SILENT: SourceLogger = { debug() {}, info() {}, warn() {} };

/**
 * Creates the liteserver block source. Nothing connects until `groups()` is iterated.
 *
 * Each group is one masterchain block N: the shard blocks committed by N and not by N-1 (found by walking prev
 * refs back from N's shard tips, through splits and merges, to the tips N-1 committed), oldest first (every block
 * after its parents), then N itself. The checkpoint is JSON (see {@link Checkpoint}); `groups(checkpoint)` resumes right after it.
 *
 * @example
 * const source = createLiteserverSource({ network: 'mainnet', fromSeqno: null, logger: logger.child({ module: 'liteserver' }) });
 * for await (const group of source.groups(await checkpoints.load(), shutdown.signal)) publish(group);
 */
/** A block as the source interface names it, as a liteserver's `tonNode.blockIdExt`. */
function fullBlockId(b: FullBlockRef): FullBlockId {
  return { workchain: b.id.workchain, shard: BigInt('0x' + b.id.shard), seqno: b.id.seqno, rootHash: b.rootHash, fileHash: b.fileHash };
}

/** A liteserver's `tonNode.blockIdExt` as the source interface names a block. */
function blockRef(b: FullBlockId): FullBlockRef {
  return { id: { workchain: b.workchain, shard: shardHex(b.shard), seqno: b.seqno }, rootHash: b.rootHash, fileHash: b.fileHash };
}

/**
 * Runs a check of a liteserver's answer: a proof that does not check is a bad answer, which the pool penalises
 * (that liteserver) before asking another.
 */
function checked<T>(what: string, check: () => T): T {
  try {
    return check();
  } catch (e) {
    if (e instanceof BlockProofError) throw new IntegrityFailure(`${what}: ${e.message}`);
    throw e;
  }
}

export function createLiteserverSource(options: LiteserverSourceOptions): LiteserverSource {
  const logger = options.logger ?? SILENT;
  const globalId = GLOBAL_ID[options.network];
  if (globalId === undefined) throw new NonRetryableError('LITESERVER_CONFIG_INVALID', `unknown network ${String(options.network)}`);
  if (options.fromSeqno !== undefined && options.fromSeqno !== null && (!Number.isInteger(options.fromSeqno) || options.fromSeqno < 1)) {
    throw new NonRetryableError('LITESERVER_CONFIG_INVALID', `fromSeqno must be a positive integer, got ${options.fromSeqno}`);
  }
  const maxWalk = options.maxShardBlocksPerGroup ?? 10_000;
  let pool: Pool | null = null;
  let zeroStateRootHash: Uint8Array | null = null;
  let closed = false;

  const getPool = async (): Promise<Pool> => {
    if (pool) return pool;
    const parsed = parseGlobalConfig(options.globalConfig ?? (await bundledGlobalConfig(options.network)));
    zeroStateRootHash = parsed.zeroStateRootHash;
    pool = new Pool(parsed.liteservers, {
      queryTimeoutMs: options.queryTimeoutMs ?? 10_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
      backoffInitialMs: options.backoffInitialMs ?? 1_000,
      backoffMaxMs: options.backoffMaxMs ?? 60_000,
      pollIntervalMs: options.pollIntervalMs ?? 1_000,
      maxIntegrityFailures: options.maxIntegrityFailures ?? Math.max(3, parsed.liteservers.length),
      logger,
    });
    logger.info({ network: options.network, liteservers: parsed.liteservers.length }, 'liteserver source ready');
    return pool;
  };

  /** Highest masterchain seqno some liteserver reported; avoids asking for the head before every block. */
  let knownHead = 0;

  const checkNetwork = (info: MasterchainInfo): void => {
    if (zeroStateRootHash && !equalBytes(info.init.rootHash, zeroStateRootHash)) {
      throw new WrongNetworkFailure(`zero state ${hex(info.init.rootHash)}, the config names ${hex(zeroStateRootHash)}`);
    }
  };

  const headSeqno = async (p: Pool, signal: AbortSignal): Promise<number> => {
    const info = await p.run(
      'masterchain head',
      async (c) => {
        const i = await c.getMasterchainInfo();
        checkNetwork(i);
        return i;
      },
      signal,
    );
    knownHead = Math.max(knownHead, info.last.seqno);
    return info.last.seqno;
  };

  /** Waits until some liteserver has masterchain block `seqno`: at the head, the next block is a gap to wait for. */
  const waitForMc = async (p: Pool, seqno: number, signal: AbortSignal): Promise<void> => {
    while (knownHead < seqno) {
      if ((await headSeqno(p, signal)) >= seqno) return;
      await delay(options.pollIntervalMs ?? 1_000, undefined, { signal });
    }
  };

  /**
   * Where the served bytes that failed verification go: the group being prepared, whose `rejected` the follower
   * sends to the dead-letter topic. The block itself is fetched again (from another liteserver), never skipped.
   */
  type Rejects = RejectedBlock[];
  const collect =
    (into: Rejects | undefined) =>
    (failure: IntegrityFailure & { served: { id: FullBlockId; data: Uint8Array } }, liteserver: string): void => {
      if (!into) return;
      const { id, data } = failure.served;
      let rootHash: Uint8Array = new Uint8Array(32);
      try {
        const boc = Boc.parse(data);
        rootHash = boc.hash(boc.root).slice();
      } catch {
        // Not a BOC: the root hash header stays zero; the reason says so.
      }
      into.push({
        block: {
          id: { workchain: id.workchain, shard: shardHex(id.shard), seqno: id.seqno },
          rootHash,
          fileHash: createHash('sha256').update(data).digest(),
          data,
          mcSeqno: null,
        },
        error: new BlockIntegrityError(`${describeId(id)} from ${liteserver}: ${failure.message}`),
      });
    };

  /** Masterchain block `seqno`, looked up and fetched from one liteserver, chained to `prev` when known. */
  const fetchMc = (p: Pool, seqno: number, prev: FullBlockId | null, signal: AbortSignal, rejects?: Rejects): Promise<VerifiedBlock> =>
    p.run(
      `(-1,${shardHex(MC_SHARD)},${seqno})`,
      async (c) => {
        const id = await c.lookupBlock({ workchain: -1, shard: MC_SHARD, seqno });
        const { id: answered, data } = await c.getBlock(id);
        const v = verifyBlock(id, answered, data, globalId);
        if (prev) {
          const ref = v.block.info.prevRef;
          if (ref.afterMerge || ref.prev.seqno !== prev.seqno || !equalBytes(ref.prev.rootHash, prev.rootHash) || !equalBytes(ref.prev.fileHash, prev.fileHash)) {
            throw new IntegrityFailure(`masterchain block ${seqno} does not follow the published block ${prev.seqno} (${hex(prev.rootHash)})`, { id, data });
          }
        }
        return v;
      },
      signal,
      collect(rejects),
    );

  const fetchById = (p: Pool, id: FullBlockId, signal: AbortSignal, rejects?: Rejects): Promise<VerifiedBlock> =>
    p.run(
      describeId(id),
      async (c) => {
        const { id: answered, data } = await c.getBlock(id);
        return verifyBlock(id, answered, data, globalId);
      },
      signal,
      collect(rejects),
    );

  /**
   * Every shard block reachable from `tips` by prev refs and not committed by `committed`, oldest first. Fetches run
   * concurrently; the order is then fixed: a block comes after all of its parents, and among the blocks whose
   * parents are out, the lowest start_lt goes first (logical time grows along every shard chain, so this is the
   * order the blocks were made in), ties broken by workchain and shard so the same chain always gives the same group.
   */
  const walkShards = async (
    p: Pool,
    tips: FullBlockId[],
    committed: FullBlockId[],
    mcSeqno: number,
    signal: AbortSignal,
    rejects: Rejects,
  ): Promise<VerifiedBlock[]> => {
    const fetched = new Map<string, Promise<VerifiedBlock | null>>();
    const key = (id: FullBlockId): string => `${id.workchain}:${id.shard}:${id.seqno}`;
    const parents = (b: VerifiedBlock): FullBlockId[] =>
      prevBlockIds(b.block).map((r) => ({ workchain: r.workchain, shard: BigInt(`0x${r.shard}`), seqno: r.seqno, rootHash: r.ref.rootHash, fileHash: r.ref.fileHash }));
    const visit = (id: FullBlockId): Promise<VerifiedBlock | null> => {
      // seqno 0 is a zero state, not a block: the walk of a brand-new workchain ends there.
      if (id.seqno === 0 || alreadyCommitted(id, committed)) return Promise.resolve(null);
      const k = key(id);
      let f = fetched.get(k);
      if (!f) {
        if (fetched.size >= maxWalk) {
          throw new NonRetryableError('LITESERVER_WALK_TOO_LONG', `masterchain block ${mcSeqno}: more than ${maxWalk} new shard blocks; refusing to walk further`);
        }
        f = fetchById(p, id, signal, rejects).then(async (b) => {
          await Promise.all(parents(b).map(visit));
          return b;
        });
        fetched.set(k, f);
      }
      return f;
    };
    await Promise.all(tips.map(visit));
    const blocks = (await Promise.all(fetched.values())).filter((b): b is VerifiedBlock => b !== null);
    const waiting = new Map(blocks.map((b) => [key(b.id), parents(b).filter((parent) => fetched.has(key(parent))).map(key)]));
    const out: VerifiedBlock[] = [];
    const done = new Set<string>();
    while (out.length < blocks.length) {
      let best: VerifiedBlock | null = null;
      for (const b of blocks) {
        if (done.has(key(b.id)) || !waiting.get(key(b.id))!.every((k) => done.has(k))) continue;
        if (!best || olderFirst(b, best) < 0) best = b;
      }
      out.push(best!);
      done.add(key(best!.id));
    }
    return out;
  };

  const raw = (v: VerifiedBlock, mcSeqno: number): RawBlock => ({
    id: { workchain: v.id.workchain, shard: shardHex(v.id.shard), seqno: v.id.seqno },
    rootHash: v.id.rootHash,
    fileHash: v.id.fileHash,
    data: v.data,
    mcSeqno,
  });

  /** A masterchain block whose prev ref has been checked against the block before it, with the tips it commits. */
  interface ChainedMc {
    mc: VerifiedBlock;
    checkpoint: Checkpoint;
  }

  async function* groups(checkpoint: string | null, outer: AbortSignal): AsyncGenerator<BlockGroup> {
    if (closed) throw new NonRetryableError('SOURCE_CLOSED', 'liteserver source is closed');
    const p = await getPool();
    // Work fetched ahead must stop when the caller stops iterating, whether it aborts or just breaks out.
    const stop = new AbortController();
    const signal = AbortSignal.any([outer, stop.signal]);
    try {
      // `last`: the masterchain block the previous group ended with and the shard tips it committed.
      let last: Checkpoint;
      let first: VerifiedBlock | null = null;
      // Rejected answers met before the first group is prepared travel with the first group.
      let startRejects: Rejects = [];
      const resume = checkpoint === null ? null : decodeCheckpoint(checkpoint);
      if (resume !== null && typeof resume === 'object') {
        last = resume;
      } else if (typeof resume === 'number') {
        await waitForMc(p, resume, signal);
        const mc = await fetchMc(p, resume, null, signal, startRejects);
        last = { mc: mc.id, shards: shardTips(mc.block) };
      } else {
        const start = options.fromSeqno ?? (await headSeqno(p, signal));
        await waitForMc(p, start, signal);
        first = await fetchMc(p, start, null, signal, startRejects);
        // The first group holds what `start` commits beyond `start - 1`, so the walk needs `start - 1`'s tips; its
        // id comes hash-chained from `start`'s prev ref. Before masterchain block 1 there is only the zero state.
        const prevRef = first.block.info.prevRef;
        if (prevRef.afterMerge) throw new BlockIntegrityError(`masterchain block ${start} claims a merge`);
        const prevId: FullBlockId = { workchain: -1, shard: MC_SHARD, seqno: prevRef.prev.seqno, rootHash: prevRef.prev.rootHash, fileHash: prevRef.prev.fileHash };
        const prevTips = prevId.seqno === 0 ? [] : shardTips((await fetchById(p, prevId, signal, startRejects)).block);
        last = { mc: prevId, shards: prevTips };
        logger.info({ fromSeqno: start }, 'following the masterchain');
      }

      // Groups are prepared up to `prefetch` masterchain blocks ahead (only blocks some liteserver already reported,
      // so at the head nothing is polled twice) and yielded strictly in order. Group N's walk needs only masterchain
      // blocks N-1 and N, so walks of consecutive groups run concurrently and never overlap.
      const window = Math.max(1, options.prefetch ?? 4);
      const prepared: Array<Promise<{ group: BlockGroup; chained: ChainedMc }>> = [];
      let prevChained: Promise<Checkpoint> = Promise.resolve(last);
      let nextSeqno = last.mc.seqno + 1;
      const prepare = (seqno: number): Promise<{ group: BlockGroup; chained: ChainedMc }> => {
        const prev = prevChained;
        const rejects: Rejects = startRejects;
        startRejects = [];
        const fetched =
          first && first.id.seqno === seqno
            ? Promise.resolve(first)
            : (async () => {
                await waitForMc(p, seqno, signal);
                return fetchMc(p, seqno, null, signal, rejects);
              })();
        const chained = (async (): Promise<ChainedMc> => {
          const [mc, before] = await Promise.all([fetched, prev]);
          const ref = mc.block.info.prevRef;
          const follows = !ref.afterMerge && ref.prev.seqno === before.mc.seqno && equalBytes(ref.prev.rootHash, before.mc.rootHash) && equalBytes(ref.prev.fileHash, before.mc.fileHash);
          // Fetched ahead without its predecessor; if it does not chain, fetch it again with the check (and rotation).
          const ok = follows ? mc : await fetchMc(p, seqno, before.mc, signal, rejects);
          return { mc: ok, checkpoint: { mc: ok.id, shards: shardTips(ok.block) } };
        })();
        const group = (async () => {
          const [c, before] = await Promise.all([chained, prev]);
          const shardBlocks = await walkShards(p, c.checkpoint.shards, before.shards, seqno, signal, rejects);
          const blocks = [...shardBlocks.map((b) => raw(b, seqno)), raw(c.mc, seqno)];
          const group: BlockGroup = { mcSeqno: seqno, blocks, checkpoint: encodeCheckpoint(c.checkpoint) };
          if (rejects.length > 0) group.rejected = rejects;
          return { group, chained: c };
        })();
        // A prepared group may be abandoned (an earlier one failed, or the caller stopped): never an unhandled rejection.
        fetched.catch(() => {});
        chained.catch(() => {});
        group.catch(() => {});
        prevChained = chained.then((c) => c.checkpoint);
        prevChained.catch(() => {});
        return group;
      };
      for (;;) {
        while (prepared.length === 0 || (prepared.length < window && nextSeqno <= knownHead)) prepared.push(prepare(nextSeqno++));
        const { group } = await prepared.shift()!;
        first = null;
        yield group;
        signal.throwIfAborted();
      }
    } catch (e) {
      // Aborting is how the caller stops following: end the iteration quietly.
      if (outer.aborted) return;
      throw e;
    } finally {
      stop.abort();
    }
  }

  return {
    groups,
    async send(boc) {
      const p = await getPool();
      // A liteserver that refuses the message (its account does not accept it) is an answer, not a reason to ask
      // another: the pool's retry-until-available is for blocks.
      const refused = (e: unknown): never => {
        throw e instanceof LiteserverAnswerError ? new MessageRefusedError(e.message, { cause: e }) : e;
      };
      await p.run('sendMessage', (c) => c.sendMessage(boc).catch(refused), AbortSignal.timeout(2 * (options.queryTimeoutMs ?? 10_000)));
    },
    async accountStatesAt(block, addresses, signal) {
      const p = await getPool();
      const id: FullBlockId = { workchain: block.id.workchain, shard: BigInt('0x' + block.id.shard), seqno: block.id.seqno, rootHash: block.rootHash, fileHash: block.fileHash };
      const found: Array<SnapshotAccount | null> = new Array<SnapshotAccount | null>(addresses.length).fill(null);
      // A bounded number in flight: the liteservers' own rate limits are met by the pool's backoff on failures,
      // and a large batch does not open hundreds of queries at once.
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < addresses.length) {
          const i = next++;
          const address = parseAddressForm(addresses[i]!);
          const account = { workchain: address.workchain, hash: address.hash };
          found[i] = await p.run(
            `account ${address.raw} at ${describeId(id)}`,
            async (c) => verifyAccountStateAnswer(id, account, await c.getAccountState(id, account)),
            signal,
          );
        }
      };
      const concurrency = Math.max(1, options.accountStateConcurrency ?? 4);
      await Promise.all(Array.from({ length: Math.min(concurrency, addresses.length) }, worker));
      return found.filter((a): a is SnapshotAccount => a !== null);
    },
    async shardBlockProof(block, signal) {
      const p = await getPool();
      const id = fullBlockId(block);
      const what = `shard block proof of ${describeId(id)}`;
      return p.run(
        what,
        async (c) => {
          const r = await c.getShardBlockProof(id);
          checked(what, () => verifyShardBlockProof(r.masterchainId, r.links, id));
          return { mc: blockRef(r.masterchainId), links: r.links.map((l) => ({ block: blockRef(l.id), proof: l.proof })) };
        },
        signal,
      );
    },
    async masterchainBlockSignatures(keyBlock, block, signal) {
      const p = await getPool();
      const known = fullBlockId(keyBlock);
      const target = fullBlockId(block);
      const what = `signatures of ${describeId(target)}`;
      return p.run(
        what,
        async (c) => {
          const r = await c.getBlockProof(known, target);
          return { signatures: checked(what, () => verifyMasterchainBlockSignatures(known, target, r)) };
        },
        signal,
      );
    },
    async masterchainBackProof(from, to, signal) {
      const p = await getPool();
      const known = fullBlockId(from);
      const target = fullBlockId(to);
      const what = `masterchain proof of ${describeId(target)} from ${describeId(known)}`;
      return p.run(
        what,
        async (c) => {
          const r = await c.getBlockProof(known, target);
          const links = checked(what, () => verifyMasterchainBackProof(known, target, r));
          return { links: links.map((l) => ({ ...l, from: blockRef(l.from), to: blockRef(l.to) })) };
        },
        signal,
      );
    },
    status: () => pool?.status() ?? [],
    async close() {
      closed = true;
      pool?.close();
    },
  };
}
