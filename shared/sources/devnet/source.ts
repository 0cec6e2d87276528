import { createHash } from 'node:crypto';
import { Address, Cell, type TupleItem, parseTuple } from '@ton/core';
import { shardHex } from '../../ton/records/format.js';
import { NonRetryableError } from '../../runtime/errors.js';
import { parseAddressForm } from '../../ton/address.js';
import { type SnapshotAccount, type StateSnapshot, snapshotAccountOf } from '../../ton/state-snapshot.js';
import type { BlockGroup, BlockSource, RawBlock } from '../source.js';
import { DevnetChain, type ExternalResult, type SealedTick } from './chain.js';
import { type DCell, parseBocRoot, serializeBoc } from './cell.js';
import { genesis, actors as actorsOf } from './genesis.js';
import { applyMerkleUpdate } from './merkle.js';
import { methodId } from '../../tvm/method-id.js';
import { genesisSnapshot } from './snapshot.js';
import { SHARD_ALL, loadShardStateParts } from './state.js';
import { type ChainFile, DevnetStore } from './store.js';
import { readAccount } from './tlb.js';
import { type TrafficProfile, TrafficGenerator } from './traffic.js';

export interface DevnetSourceOptions {
  /** Where the chain lives; an existing chain there is continued. */
  dataDir: string;
  /** Interval between blocks; 0 seals only on {@link DevnetSource.sealNext} (tests, exports). Default 1000. */
  blockMs?: number;
  /** Generated traffic (default `default`; `none` for a quiet chain that only runs submitted messages). */
  traffic?: TrafficProfile;
  /** Target transactions per second of generated traffic. Default 100. */
  tps?: number;
  /** Seed of a new chain (keys, genesis, traffic); an existing chain keeps its own. Default `tonflow-devnet`. */
  seed?: string;
  /** Milliseconds since the epoch; block gen_utime follows it. Default `Date.now`. */
  clock?: () => number;
  /** Full state snapshot every this many blocks (and on close). Default 600. */
  snapshotEvery?: number;
  /** Genesis size of a new chain: basechain wallets per kind. Default 16. */
  walletsPerKind?: number;
  /**
   * Send the zerostate's accounts as a state snapshot with the first group of a reader that starts from the
   * beginning (default true). Off, accounts no block touched have no state in the index (tests of the fill path).
   */
  genesisStates?: boolean;
  /** Told about every sealed block pair (with the emulator's transactions) and how long it took. */
  onTick?: (tick: SealedTick, ms: number) => void;
  /** Told about a failure that stops the chain (the block iterator then throws it too). */
  onError?: (e: unknown) => void;
}

/** An account as the devnet holds it now. */
export interface DevnetAccount {
  workchain: number;
  hash: Uint8Array;
  status: 'active' | 'uninit' | 'frozen' | 'nonexist';
  balance: bigint;
  lastTransLt: bigint;
  lastTransHash: Uint8Array;
  /** Code and data BOCs of an active account. */
  code: Uint8Array | null;
  data: Uint8Array | null;
  /** The whole ShardAccount as a BOC (what an emulator takes). */
  shardAccount: Uint8Array;
}

/** The devnet as a block source, plus what the gateway needs from a chain of its own. */
export interface DevnetSource extends BlockSource {
  /** Last sealed masterchain seqno. */
  readonly head: number;
  /** The chain's network id (block global_id, config param 19). */
  readonly globalId: number;
  /**
   * Queues an external message BOC (`Message Any` with `ext_in_msg_info`) for the next block. Resolves at once with
   * the message hash; `result` settles when that block is sealed.
   */
  sendMessage(boc: Uint8Array): Promise<{ hash: Uint8Array; result: Promise<ExternalResult> }>;
  /** An account's current state (address as `wc:hex`, a friendly form, or workchain and hash). */
  getAccount(address: string | { workchain: number; hash: Uint8Array }): Promise<DevnetAccount>;
  /** Runs a get-method (by name or id) on an account's current state. */
  runGetMethod(
    address: string | { workchain: number; hash: Uint8Array },
    method: string | number,
    stack?: TupleItem[],
  ): Promise<{ exitCode: number; gasUsed: bigint; stack: TupleItem[] }>;
  /** Seals the next block pair now (with blockMs 0 this is the only way blocks appear). */
  sealNext(): Promise<BlockGroup>;
}

/** Opens (or creates) the devnet in `dataDir` and, with a block interval, starts sealing blocks. */
export async function createDevnetSource(opts: DevnetSourceOptions): Promise<DevnetSource> {
  const store = new DevnetStore(opts.dataDir);
  await store.init();
  const clock = opts.clock ?? Date.now;
  const blockMs = opts.blockMs ?? 1000;
  const snapshotEvery = opts.snapshotEvery ?? 600;
  const existing = await store.readChain();
  let file: ChainFile;
  let chain: DevnetChain;
  let lastSnapshot = 0;
  if (existing) {
    if (opts.seed !== undefined && opts.seed !== existing.seed) {
      throw new Error(`devnet in ${opts.dataDir} was created with seed "${existing.seed}", not "${opts.seed}"; use another data directory`);
    }
    const snap = await store.readSnapshot();
    lastSnapshot = snap.seqno;
    let states = { mc: snap.mc, wc: snap.wc };
    for (let seqno = snap.seqno + 1; seqno <= existing.head; seqno++) {
      states = {
        wc: applyMerkleUpdate(states.wc, stateUpdateOf(await store.readBlock({ workchain: 0, shard: SHARD_ALL, seqno }))),
        mc: applyMerkleUpdate(states.mc, stateUpdateOf(await store.readBlock({ workchain: -1, shard: SHARD_ALL, seqno }))),
      };
    }
    chain = await DevnetChain.restore(existing.meta, states);
    file = existing;
  } else {
    const seed = opts.seed ?? 'tonflow-devnet';
    const genesisUtime = Math.floor(clock() / 1000);
    const walletsPerKind = opts.walletsPerKind ?? 16;
    const g = genesis({ seed, now: genesisUtime, walletsPerKind });
    chain = await DevnetChain.create({ seed, genesisUtime, accounts: g.accounts });
    file = { version: 1, seed, globalId: chain.globalId, genesisUtime, walletsPerKind, head: 0, meta: chain.meta(), traffic: TrafficGenerator.initialState(seed) };
    await store.writeSnapshot(0, chain.states());
    // Beside the blocks, so that blocks/ stays a complete `--source files:DIR` (genesis accounts included).
    await store.writeStateSnapshot(genesisSnapshot({ seed, now: genesisUtime, walletsPerKind }));
    await store.writeChain(file);
  }
  // The zerostate's accounts, for a reader that starts from the beginning (built when first asked for).
  let zerostate: StateSnapshot | null = null;
  const zerostateSnapshot = (): StateSnapshot =>
    (zerostate ??= genesisSnapshot({ seed: file.seed, now: file.genesisUtime, walletsPerKind: file.walletsPerKind }));
  const actors = actorsOf({ seed: file.seed, now: file.genesisUtime, walletsPerKind: file.walletsPerKind });
  const traffic = new TrafficGenerator(actors, { profile: opts.traffic ?? 'default', tps: opts.tps ?? 100, seed: file.seed }, file.traffic);

  /** Hashes of blocks sealed by this process (older ones are hashed from their files). */
  const known = new Map<string, { rootHash: Uint8Array; fileHash: Uint8Array }>();
  let failure: unknown = null;
  let closed = false;
  let waiters: Array<() => void> = [];
  const wake = (): void => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  let sealing: Promise<void> = Promise.resolve();

  const sealOne = async (): Promise<SealedTick> => {
    const started = performance.now();
    const now = Math.max(Math.floor(clock() / 1000), chain.lastUtime);
    for (const msg of traffic.generate(chain, now, blockMs > 0 ? blockMs : 1000)) chain.sendExternal(msg);
    const tick = await chain.tick(now);
    for (const b of tick.blocks) {
      await store.writeBlock(b);
      known.set(`${b.workchain}:${b.seqno}`, { rootHash: b.rootHash, fileHash: b.fileHash });
      known.delete(`${b.workchain}:${b.seqno - 64}`);
    }
    file = { ...file, head: tick.mcSeqno, meta: chain.meta(), traffic: traffic.snapshot };
    await store.writeChain(file);
    if (tick.mcSeqno - lastSnapshot >= snapshotEvery) {
      await store.writeSnapshot(tick.mcSeqno, chain.states());
      lastSnapshot = tick.mcSeqno;
    }
    opts.onTick?.(tick, performance.now() - started);
    wake();
    return tick;
  };

  /** Seals are serialized: the timer loop and sealNext never run two at once. */
  const sealSerialized = (): Promise<SealedTick> => {
    const run = sealing.then(sealOne);
    sealing = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };

  let timer: NodeJS.Timeout | null = null;
  // Seals start on a fixed schedule, one every blockMs: a seal that runs past its slot (a slow block, a busy machine)
  // is followed at once by the next, so block pairs, and the traffic each carries, keep to the interval on average
  // instead of every late one pushing the rest back. More than an interval behind (a suspended process, a chain that
  // cannot keep up) is not made up with a burst of back-to-back blocks: the schedule restarts from now.
  let due = Date.now() + blockMs;
  const loop = (): void => {
    if (closed || failure) return;
    sealSerialized().then(
      () => {
        if (closed) return;
        const now = Date.now();
        due += blockMs;
        if (now - due > blockMs) due = now;
        timer = setTimeout(loop, Math.max(0, due - now));
      },
      (e: unknown) => {
        failure = e;
        opts.onError?.(e);
        wake();
      },
    );
  };
  if (blockMs > 0) timer = setTimeout(loop, blockMs);

  const readGroup = async (seqno: number): Promise<BlockGroup> => {
    const blocks: RawBlock[] = [];
    for (const workchain of [0, -1]) {
      const data = await store.readBlock({ workchain, shard: SHARD_ALL, seqno });
      const h = known.get(`${workchain}:${seqno}`) ?? { rootHash: parseBocRoot(data).hash(), fileHash: createHash('sha256').update(data).digest() };
      blocks.push({ id: { workchain, shard: shardHex(SHARD_ALL), seqno }, rootHash: h.rootHash, fileHash: h.fileHash, data, mcSeqno: seqno });
    }
    return { mcSeqno: seqno, blocks, checkpoint: JSON.stringify({ mcSeqno: seqno }) };
  };

  const resolveAddress = (a: string | { workchain: number; hash: Uint8Array }): Address =>
    typeof a === 'string' ? Address.parse(a) : new Address(a.workchain, Buffer.from(a.hash));

  const accountOf = (address: string | { workchain: number; hash: Uint8Array }): DevnetAccount => {
    const addr = resolveAddress(address);
    const sa = chain.shardAccount({ workchain: addr.workChain, hash: addr.hash });
    const acc = readAccount(sa.refs[0]!);
    const s = sa.beginParse();
    s.loadRef();
    return {
      workchain: addr.workChain,
      hash: new Uint8Array(addr.hash),
      status: acc.status,
      balance: acc.balance,
      lastTransLt: acc.lastTransLt,
      lastTransHash: s.loadBytes(32),
      code: acc.code ? serializeBoc(acc.code) : null,
      data: acc.data ? serializeBoc(acc.data) : null,
      shardAccount: serializeBoc(sa),
    };
  };

  return {
    get head() {
      return file.head;
    },
    globalId: chain.globalId,

    async *groups(checkpoint: string | null, signal: AbortSignal): AsyncIterable<BlockGroup> {
      let next = checkpoint === null ? 1 : (JSON.parse(checkpoint) as { mcSeqno: number }).mcSeqno + 1;
      // Read from the start: the genesis accounts' states come with the first group (accounts that no block touches
      // have no state otherwise).
      let states = checkpoint === null && opts.genesisStates !== false;
      while (!signal.aborted && !closed) {
        if (failure) throw failure;
        if (next <= file.head) {
          const group = await readGroup(next);
          yield states ? { ...group, states: zerostateSnapshot() } : group;
          states = false;
          next++;
          continue;
        }
        await new Promise<void>((resolve) => {
          const done = (): void => {
            signal.removeEventListener('abort', done);
            resolve();
          };
          waiters.push(done);
          signal.addEventListener('abort', done, { once: true });
        });
      }
    },

    async sendMessage(boc) {
      const msg: DCell = parseBocRoot(boc);
      const { hash, result } = chain.sendExternal(msg);
      return { hash, result };
    },

    async getAccount(address) {
      return accountOf(address);
    },

    async send(boc) {
      // The caller checked the message on the current state; the block's verdict is not waited for.
      void chain.sendExternal(parseBocRoot(boc)).result;
    },

    async accountState(address) {
      const a = accountOf(address);
      const b64 = (x: Uint8Array | null): string | null => (x ? Buffer.from(x).toString('base64') : null);
      return {
        address: `${a.workchain}:${Buffer.from(a.hash).toString('hex')}`,
        status: a.status,
        balance: a.balance,
        code: b64(a.code),
        data: b64(a.data),
        lastTransLt: a.lastTransLt,
        lastTransHash: a.lastTransHash,
        shardAccount: Buffer.from(a.shardAccount).toString('base64'),
      };
    },

    async accountStatesAt(block, addresses) {
      // The state after `block`: the chain's own when it is the newest, else the stored snapshot brought forward by
      // the Merkle updates of the blocks after it (as a restart does).
      const { workchain, seqno } = block.id;
      const shard = { workchain, shard: SHARD_ALL, seqno };
      const stored = await store.readBlock(shard).catch(() => null);
      if (!stored || !Buffer.from(parseBocRoot(stored).hash()).equals(Buffer.from(block.rootHash))) {
        throw new NonRetryableError('DEVNET_UNKNOWN_BLOCK', `devnet: block ${workchain}:${seqno} with root hash ${Buffer.from(block.rootHash).toString('hex')} is not this chain's`);
      }
      let state: DCell;
      await sealing;
      if (seqno === chain.mcSeqno) {
        state = workchain === -1 ? chain.states().mc : chain.states().wc;
      } else {
        const snap = await store.readSnapshot();
        if (snap.seqno > seqno) throw new NonRetryableError('DEVNET_STATE_GONE', `devnet: the state after block ${seqno} is older than the stored snapshot (${snap.seqno})`);
        state = workchain === -1 ? snap.mc : snap.wc;
        for (let s = snap.seqno + 1; s <= seqno; s++) state = applyMerkleUpdate(state, stateUpdateOf(await store.readBlock({ workchain, shard: SHARD_ALL, seqno: s })));
      }
      const accounts = loadShardStateParts(state, chain.globalId, workchain).accounts;
      const out: SnapshotAccount[] = [];
      for (const a of addresses) {
        const addr = parseAddressForm(a);
        if (addr.workchain !== workchain) continue;
        const e = accounts.get(addr.hash);
        const entry = e ? snapshotAccountOf(serializeBoc(e.sa)) : null;
        if (entry) out.push(entry);
      }
      return out;
    },

    async blockchainConfig() {
      return chain.configBoc;
    },

    async runGetMethod(address, method, stack = []) {
      const addr = resolveAddress(address);
      const r = await chain.runGetMethod(addr, typeof method === 'number' ? method : methodId(method), stack);
      if ('error' in r) throw new Error(`get-method ${String(method)} on ${addr.toRawString()}: ${r.error}`);
      return { exitCode: r.exitCode, gasUsed: r.gasUsed, stack: parseTuple(Cell.fromBase64(r.stack)) };
    },

    async sealNext() {
      if (failure) throw failure;
      const tick = await sealSerialized();
      return readGroup(tick.mcSeqno);
    },

    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      await sealing;
      if (!failure && file.head > lastSnapshot) await store.writeSnapshot(file.head, chain.states());
      wake();
    },
  };
}

/** The `state_update:^(MERKLE_UPDATE ShardState)` of a block BOC (its third reference). */
function stateUpdateOf(bytes: Uint8Array): DCell {
  return parseBocRoot(bytes).refs[2]!;
}
