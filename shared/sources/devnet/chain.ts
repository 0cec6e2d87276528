import { createHash } from 'node:crypto';
import type { Address, TupleItem } from '@ton/core';
import { type Tvm, createInlineTvm } from '../../tvm/executor.js';
import { stackToB64 } from '../../tvm/stack.js';
import { type AccountBlockInput, storeShardAccountBlocks } from '../../ton/tlb/AccountBlock.js';
import { storeBlock } from '../../ton/tlb/Block.js';
import { type ImportFees, type InMsgDescrEntry, type OutMsgDescrEntry, storeBlockExtra, storeInMsgDescr, storeOutMsgDescr } from '../../ton/tlb/BlockExtra.js';
import { type BlockInfo, storeBlockInfo } from '../../ton/tlb/BlockInfo.js';
import { type CurrencyCollection, addCurrencyCollections, grams } from '../../ton/tlb/CurrencyCollection.js';
import type { ExtBlkRef } from '../../ton/tlb/ExtBlkRef.js';
import type { GlobalVersion } from '../../ton/tlb/GlobalVersion.js';
import { keyFromInt } from '../../ton/tlb/Hashmap.js';
import { storeMcBlockExtra } from '../../ton/tlb/McBlockExtra.js';
import { storeMsgEnvelope } from '../../ton/tlb/MsgEnvelope.js';
import type { ShardDescr } from '../../ton/tlb/ShardDescr.js';
import { shardIdent } from '../../ton/tlb/ShardIdent.js';
import { type ValueFlow, storeValueFlow } from '../../ton/tlb/ValueFlow.js';
import { type DCell, DBuilder, fromBase64, parseBocRoot, serializeBoc } from './cell.js';
import { MAINNET_CONFIG_BOC } from '../../tvm/mainnet-config.js';
import { merkleUpdate } from './merkle.js';
import { publicLibraries } from './libraries.js';
import {
  ACCOUNTS_SPEC,
  type AccountEntry,
  PREV_BLOCKS_SPEC,
  QUEUE_SPEC,
  SHARD_ALL,
  type ShardStateParts,
  accountEntry,
  buildShardState,
  loadShardStateParts,
  queueKey,
} from './state.js';
import { EMPTY_SHARD_ACCOUNT, type MsgInfo, type StdAddr, type TxView, genesisShardAccount, readAccount, readMsgInfo, readTx, walkDict } from './tlb.js';
import { PersistentTrie } from './trie.js';

/**
 * A local TON chain on the real TVM: one masterchain and one basechain shard (workchain 0, shard 8000000000000000).
 *
 * Every transaction is executed by @ton/sandbox's Executor (the node's emulator-extern compiled to WASM) with the
 * real mainnet configuration; nothing is faked. Each {@link DevnetChain.tick} seals a basechain block and then a
 * masterchain block that commits it, both real block.tlb Blocks: BlockInfo with prev/master refs and lt ranges,
 * a balanced ValueFlow, a Merkle update between real shard states, InMsgDescr/OutMsgDescr/ShardAccountBlocks with
 * their augmentations, and for the masterchain McBlockExtra whose ShardHashes name the committed shard block.
 *
 * Messages follow the chain's rules: a transaction's internal out messages go into its shard's out queue (part of
 * the state) and are delivered no earlier than the next block; the importing block records `msg_import_fin`, the
 * source shard `msg_export_deq_short` when the message leaves its queue. Traces therefore span blocks as on
 * mainnet.
 */

/** Network id of the devnet (mainnet is -239, testnet -3); written to blocks, states and config param 19. */
export const DEVNET_GLOBAL_ID = -217;
const LT_ALIGN = 1_000_000n;
const MC = -1;
const WC = 0;

export interface GenesisAccount {
  workchain: number;
  hash: Uint8Array;
  code: DCell;
  data: DCell;
  balance: bigint;
}

export interface BlockRef {
  seqno: number;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
  startLt: bigint;
  endLt: bigint;
  genUtime: number;
}

export interface SealedTransaction {
  hash: Uint8Array;
  lt: bigint;
  account: Uint8Array;
  aborted: boolean;
  inMsgHash: Uint8Array | null;
  /** Hash of the ShardAccount's Account before and after (the transaction's HASH_UPDATE). */
  oldStateHash: Uint8Array;
  newStateHash: Uint8Array;
}

export interface SealedBlock {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
  /** The block BOC. */
  data: Uint8Array;
  startLt: bigint;
  endLt: bigint;
  genUtime: number;
  transactions: SealedTransaction[];
  /** For a masterchain block: the shard blocks its ShardHashes commit. */
  commits: Array<{ workchain: number; shard: bigint; seqno: number }>;
}

export interface SealedTick {
  mcSeqno: number;
  /** The basechain block, then the masterchain block committing it. */
  blocks: SealedBlock[];
}

/** An external message waiting for the next block. */
export interface ExternalResult {
  accepted: boolean;
  /** When accepted: the transaction and its block. */
  transaction?: { hash: Uint8Array; lt: bigint; workchain: number; seqno: number };
  /** When rejected: the emulator's reason (e.g. the contract did not accept it). */
  error?: string;
}

interface PendingExternal {
  msg: DCell;
  info: Extract<MsgInfo, { kind: 'ext-in' }>;
  resolve: (r: ExternalResult) => void;
}

/** An internal message in a shard's out queue. */
interface QueuedMsg {
  key: Uint8Array;
  hash: Uint8Array;
  hashHex: string;
  envelope: DCell;
  msg: DCell;
  info: Extract<MsgInfo, { kind: 'int' }>;
  fwdFeeRemaining: bigint;
  /** Seqno of the block that enqueued it (0: unknown, from a restored state); delivered only by later blocks. */
  enqueuedSeqno: number;
}

/** Per-shard chain state between blocks. */
interface Shard {
  workchain: number;
  parts: ShardStateParts;
  state: DCell;
  last: BlockRef;
  /** The out queue in memory, by message hash (hex), in enqueue order. */
  queue: Map<string, QueuedMsg>;
  /** Messages of this queue another shard imported; they leave the queue in this shard's next block. */
  awaitingDeq: Array<{ hashHex: string; importBlockLt: bigint }>;
  externals: PendingExternal[];
}

/** What a chain needs to continue after a restart besides its two states (see {@link DevnetChain.meta}). */
export interface ChainMeta {
  globalId: number;
  seed: string;
  mcLast: BlockRefJson;
  wcLast: BlockRefJson;
  wcTip: ShardDescrJson;
  awaitingDeq: Array<{ workchain: number; hashHex: string; importBlockLt: string }>;
  /** {@link DevnetChain.sealedTransactions} (absent in chains written before it was kept: restored as 0). */
  sealedTransactions?: number;
}

type BlockRefJson = { seqno: number; rootHash: string; fileHash: string; startLt: string; endLt: string; genUtime: number };
type ShardDescrJson = Record<string, string | number | boolean>;

export interface DevnetChainOptions {
  seed: string;
  genesisUtime: number;
  accounts: GenesisAccount[];
  globalId?: number;
  /** Most messages one block imports; the rest wait in the queue. */
  maxMessagesPerBlock?: number;
}

export class DevnetChain {
  private readonly shards: Map<number, Shard>;
  private wcTip: ShardDescr;
  private configB64: string;
  /** The library context of every transaction and get-method (libraries.ts). */
  private readonly libsB64 = toB64(publicLibraries());
  private readonly createdBy: Uint8Array;
  private readonly maxMessages: number;
  private sealedTxs = 0;

  private constructor(
    private readonly tvm: Tvm,
    readonly globalId: number,
    readonly seed: string,
    private readonly config: ChainConfig,
    shards: Map<number, Shard>,
    wcTip: ShardDescr,
    maxMessages: number,
  ) {
    this.shards = shards;
    this.wcTip = wcTip;
    this.configB64 = config.b64;
    this.createdBy = sha256(`tonflow devnet ${seed} validator`);
    this.maxMessages = maxMessages;
  }

  /** A new chain from its genesis accounts: the two zerostates (seqno 0). */
  static async create(opts: DevnetChainOptions): Promise<DevnetChain> {
    const globalId = opts.globalId ?? DEVNET_GLOBAL_ID;
    const config = loadChainConfig(globalId);
    const tvm = await createInlineTvm();
    const utime = opts.genesisUtime;
    const mk = (workchain: number): PersistentTrie<AccountEntry, { splitDepth: number; balance: bigint }> => {
      let t = PersistentTrie.empty(ACCOUNTS_SPEC);
      for (const a of opts.accounts.filter((x) => x.workchain === workchain)) {
        t = t.set(a.hash, accountEntry(genesisShardAccount({ workchain, hash: a.hash }, a.code, a.data, a.balance, utime), null));
      }
      return t;
    };
    const wcParts: ShardStateParts = {
      globalId,
      workchain: WC,
      seqno: 0,
      genUtime: utime,
      genLt: 0n,
      minRefMcSeqno: 0,
      accounts: mk(WC),
      queue: PersistentTrie.empty(QUEUE_SPEC),
      totalValidatorFees: 0n,
      masterRef: null,
      mc: null,
    };
    const wcState = buildShardState(wcParts);
    const wcZero = zerostateRef(wcState, utime);
    const wcTip = shardDescr(wcZero, 0, 0, grams(0n), grams(0n));
    const mcAccounts = mk(MC);
    const supply = mcAccounts.extra.balance + wcParts.accounts.extra.balance;
    const mcParts: ShardStateParts = {
      globalId,
      workchain: MC,
      seqno: 0,
      genUtime: utime,
      genLt: 0n,
      minRefMcSeqno: 0,
      accounts: mcAccounts,
      queue: PersistentTrie.empty(QUEUE_SPEC),
      totalValidatorFees: 0n,
      masterRef: null,
      mc: {
        shardHashes: [{ workchain: WC, shard: SHARD_ALL, descr: wcTip }],
        configAddr: config.configAddr,
        config: config.root,
        prevBlocks: PersistentTrie.empty(PREV_BLOCKS_SPEC),
        lastKeyBlock: null,
        globalBalance: supply,
      },
    };
    const mcState = buildShardState(mcParts);
    const shards = new Map<number, Shard>([
      [MC, newShard(MC, mcParts, mcState, zerostateRef(mcState, utime))],
      [WC, newShard(WC, wcParts, wcState, wcZero)],
    ]);
    return new DevnetChain(tvm, globalId, opts.seed, config, shards, wcTip, opts.maxMessagesPerBlock ?? 4096);
  }

  /**
   * Continues a chain from its two current states and metadata (see {@link meta}); the out queues are read back
   * from the states.
   */
  static async restore(meta: ChainMeta, states: { mc: DCell; wc: DCell }, opts: { maxMessagesPerBlock?: number } = {}): Promise<DevnetChain> {
    const config = loadChainConfig(meta.globalId);
    const tvm = await createInlineTvm();
    const wcTip = descrFromJson(meta.wcTip);
    const mcParts = loadShardStateParts(states.mc, meta.globalId, MC);
    mcParts.mc!.shardHashes = [{ workchain: WC, shard: SHARD_ALL, descr: wcTip }];
    const wcParts = loadShardStateParts(states.wc, meta.globalId, WC);
    const shards = new Map<number, Shard>([
      [MC, newShard(MC, mcParts, states.mc, refFromJson(meta.mcLast))],
      [WC, newShard(WC, wcParts, states.wc, refFromJson(meta.wcLast))],
    ]);
    for (const s of shards.values()) {
      for (const [key, e] of s.parts.queue.entries()) {
        const q = queuedFromEntry(key, e.envelope);
        s.queue.set(q.hashHex, q);
      }
    }
    for (const a of meta.awaitingDeq) shards.get(a.workchain)!.awaitingDeq.push({ hashHex: a.hashHex, importBlockLt: BigInt(a.importBlockLt) });
    const chain = new DevnetChain(tvm, meta.globalId, meta.seed, config, shards, wcTip, opts.maxMessagesPerBlock ?? 4096);
    chain.sealedTxs = meta.sealedTransactions ?? 0;
    return chain;
  }

  /** The metadata that, with the two state cells, restores this chain (JSON-safe). */
  meta(): ChainMeta {
    const awaitingDeq: ChainMeta['awaitingDeq'] = [];
    for (const s of this.shards.values()) for (const a of s.awaitingDeq) awaitingDeq.push({ workchain: s.workchain, hashHex: a.hashHex, importBlockLt: a.importBlockLt.toString() });
    return {
      globalId: this.globalId,
      seed: this.seed,
      mcLast: refToJson(this.shard(MC).last),
      wcLast: refToJson(this.shard(WC).last),
      wcTip: descrToJson(this.wcTip),
      awaitingDeq,
      sealedTransactions: this.sealedTxs,
    };
  }

  /** The current state cells (after the last sealed block). */
  states(): { mc: DCell; wc: DCell } {
    return { mc: this.shard(MC).state, wc: this.shard(WC).state };
  }

  /** Seqno of the last sealed masterchain block (0: only the zerostate). */
  get mcSeqno(): number {
    return this.shard(MC).last.seqno;
  }

  get lastUtime(): number {
    return this.shard(MC).last.genUtime;
  }

  /**
   * Transactions sealed into all blocks so far (both workchains). Kept with the chain's metadata, so a reader that
   * remembers the count it last saw (the traffic generator, persisted in the same chain.json) learns exactly what the
   * blocks since then held, across restarts too.
   */
  get sealedTransactions(): number {
    return this.sealedTxs;
  }

  /** Messages waiting in the out queues (not yet imported by their destination). */
  get queuedMessages(): number {
    let n = 0;
    for (const s of this.shards.values()) n += s.queue.size - s.awaitingDeq.length;
    return n;
  }

  /** The emulator's configuration (base64 BOC of the ConfigParams dictionary). */
  get configBoc(): string {
    return this.configB64;
  }

  /**
   * Queues an external message (a `Message Any` with `ext_in_msg_info`) for the next block of its destination's
   * workchain. The promise settles when that block is sealed: accepted with its transaction, or rejected when the
   * contract did not accept it (no transaction, as on mainnet).
   */
  sendExternal(msg: DCell): { hash: Uint8Array; result: Promise<ExternalResult> } {
    const info = readMsgInfo(msg);
    if (info.kind !== 'ext-in') throw new Error('not an external inbound message');
    const shard = this.shards.get(info.dest.workchain);
    if (!shard) throw new Error(`workchain ${info.dest.workchain} does not exist on the devnet`);
    let resolve!: (r: ExternalResult) => void;
    const result = new Promise<ExternalResult>((r) => (resolve = r));
    shard.externals.push({ msg, info, resolve });
    return { hash: msg.hash(), result };
  }

  /** The ShardAccount cell of an address (the empty one when it does not exist). */
  shardAccount(addr: StdAddr): DCell {
    return this.shards.get(addr.workchain)?.parts.accounts.get(addr.hash)?.sa ?? EMPTY_SHARD_ACCOUNT;
  }

  /** Every account of a workchain (address hash and ShardAccount), in address order. */
  *accounts(workchain: number): IterableIterator<[Uint8Array, DCell]> {
    const s = this.shards.get(workchain);
    if (!s) return;
    for (const [k, v] of s.parts.accounts.entries()) yield [k, v.sa];
  }

  /** Runs a get-method on an account's current state (TVM via the same emulator, on the current config). */
  async runGetMethod(
    addr: Address,
    method: number,
    stack: TupleItem[],
  ): Promise<{ exitCode: number; gasUsed: bigint; stack: string } | { error: string }> {
    const sa = this.shardAccount({ workchain: addr.workChain, hash: addr.hash });
    const acc = readAccount(sa.refs[0]!);
    if (acc.status !== 'active' || !acc.code || !acc.data) return { error: `account is ${acc.status}` };
    const res = await this.tvm.runGetMethod({
      code: toB64(acc.code),
      data: toB64(acc.data),
      methodId: method,
      stack: stackToB64(stack),
      config: this.configB64,
      libs: this.libsB64,
      address: addr.toRawString(),
      now: this.lastUtime,
      balance: acc.balance,
      gasLimit: 10_000_000n,
    });
    if (!res.ok) return { error: res.error };
    return { exitCode: res.exitCode, gasUsed: res.gasUsed, stack: res.stack };
  }

  /** Seals the next basechain block and the masterchain block that commits it. */
  async tick(utime: number): Promise<SealedTick> {
    const mc = this.shard(MC);
    const wc = this.shard(WC);
    const seqno = mc.last.seqno + 1;
    const now = Math.max(utime, mc.last.genUtime, wc.last.genUtime);
    const mcRef = extRef(mc.last);
    const wcBlock = await this.sealShardBlock(wc, seqno, now, align(max(wc.last.endLt, mc.last.endLt) + 1n), mcRef, mc.last.seqno);
    const mcBlock = await this.sealShardBlock(mc, seqno, now, align(max(mc.last.endLt, wcBlock.block.endLt) + 1n), null, mc.last.seqno, wcBlock);
    this.sealedTxs += wcBlock.block.transactions.length + mcBlock.block.transactions.length;
    return { mcSeqno: seqno, blocks: [wcBlock.block, mcBlock.block] };
  }

  private shard(workchain: number): Shard {
    return this.shards.get(workchain)!;
  }

  /** Internal messages the shard may import now: from every queue, created in an earlier block, oldest first. */
  private deliverable(dest: number, seqno: number): Array<{ from: Shard; q: QueuedMsg }> {
    const out: Array<{ from: Shard; q: QueuedMsg }> = [];
    for (const from of this.shards.values()) {
      const taken = new Set(from.awaitingDeq.map((a) => a.hashHex));
      for (const q of from.queue.values()) {
        if (q.info.dest.workchain !== dest || q.enqueuedSeqno >= seqno || taken.has(q.hashHex)) continue;
        out.push({ from, q });
      }
    }
    out.sort((a, b) => (a.q.info.createdLt < b.q.info.createdLt ? -1 : a.q.info.createdLt > b.q.info.createdLt ? 1 : a.q.hashHex < b.q.hashHex ? -1 : 1));
    return out.slice(0, this.maxMessages);
  }

  private async sealShardBlock(
    s: Shard,
    seqno: number,
    now: number,
    startLt: bigint,
    masterRef: ExtBlkRef | null,
    minRefMcSeqno: number,
    committed?: Committed,
  ): Promise<Committed> {
    const randSeed = sha256(`${this.seed}:${s.workchain}:${seqno}:rand`);
    const inEntries: Array<InMsgDescrEntry<DCell>> = [];
    const outEntries: Array<OutMsgDescrEntry<DCell>> = [];
    const byAccount = new Map<string, { addr: Uint8Array; txs: TxView[] }>();
    const sealedTxs: SealedTransaction[] = [];
    let accounts = s.parts.accounts;
    let queue = s.parts.queue;
    let txFees = grams(0n);
    let lt = startLt;
    const prevBalance = accounts.extra.balance;

    // Messages this shard's queue gave to other shards leave the queue now.
    for (const a of s.awaitingDeq) {
      const q = s.queue.get(a.hashHex)!;
      queue = queue.delete(q.key);
      s.queue.delete(a.hashHex);
      outEntries.push(deqEntry(q, a.importBlockLt));
    }
    s.awaitingDeq = [];

    const run = async (msg: DCell, addr: StdAddr, minLt: bigint): Promise<{ tx: TxView; entry: AccountEntry | null } | { error: string }> => {
      const cur = accounts.get(addr.hash);
      const saB64 = cur ? (cur.b64 ??= toB64(cur.sa)) : EMPTY_SA_B64;
      const res = await this.tvm.runTransaction({
        config: this.configB64,
        libs: this.libsB64,
        shardAccount: saB64,
        message: toB64(msg),
        now,
        lt: max(lt, minLt),
        randomSeed: Buffer.from(randSeed).toString('base64'),
        ignoreChksig: false,
      });
      if (!res.ok) return { error: res.error };
      const tx = readTx(fromBase64(res.transaction));
      const sa = fromBase64(res.shardAccount);
      const entry = readAccount(sa.refs[0]!).status === 'nonexist' ? null : accountEntry(sa, res.shardAccount);
      return { tx, entry };
    };

    const record = (tx: TxView, entry: AccountEntry | null): void => {
      accounts = entry ? accounts.set(tx.account, entry) : accounts.delete(tx.account);
      lt = tx.lt + BigInt(tx.outmsgCnt) + 1n;
      txFees = addCurrencyCollections(txFees, tx.totalFees);
      const k = Buffer.from(tx.account).toString('hex');
      let ab = byAccount.get(k);
      if (!ab) byAccount.set(k, (ab = { addr: tx.account, txs: [] }));
      ab.txs.push(tx);
      sealedTxs.push({
        hash: tx.cell.hash(),
        lt: tx.lt,
        account: tx.account,
        aborted: tx.aborted,
        inMsgHash: tx.inMsg ? tx.inMsg.hash() : null,
        oldStateHash: tx.oldHash,
        newStateHash: tx.newHash,
      });
      for (const m of tx.outMsgs) {
        const info = readMsgInfo(m);
        if (info.kind === 'ext-out') {
          outEntries.push({ key: m.hash(), value: { msg: { type: 'msg_export_ext', msg: m, transaction: tx.cell }, exported: grams(0n) } });
          continue;
        }
        if (info.kind !== 'int') continue;
        const env = new DBuilder();
        storeMsgEnvelope({ curUseDestBits: 0, nextUseDestBits: 96, fwdFeeRemaining: info.fwdFee, msg: m }, env);
        const envelope = env.endCell();
        const q: QueuedMsg = {
          key: queueKey(info.dest.workchain, info.dest.hash, m.hash()),
          hash: m.hash(),
          hashHex: Buffer.from(m.hash()).toString('hex'),
          envelope,
          msg: m,
          info,
          fwdFeeRemaining: info.fwdFee,
          enqueuedSeqno: seqno,
        };
        queue = queue.set(q.key, { enqueuedLt: info.createdLt, envelope, createdLt: info.createdLt });
        s.queue.set(q.hashHex, q);
        outEntries.push({
          key: q.hash,
          value: { msg: { type: 'msg_export_new', envelope, transaction: tx.cell }, exported: addCurrencyCollections(info.value, grams(info.fwdFee)) },
        });
      }
    };

    // Inbound internal messages from the queues first (oldest first), then external messages, as a collator does.
    for (const { from, q } of this.deliverable(s.workchain, seqno)) {
      const r = await run(q.msg, q.info.dest, q.info.createdLt + 1n);
      if ('error' in r) throw new Error(`devnet: internal message ${q.hashHex} could not be executed: ${r.error}`);
      const fees: ImportFees = {
        feesCollected: q.fwdFeeRemaining,
        valueImported: addCurrencyCollections(q.info.value, grams(q.fwdFeeRemaining)),
      };
      inEntries.push({ key: q.hash, value: { msg: { type: 'msg_import_fin', envelope: q.envelope, transaction: r.tx.cell, fwdFee: q.fwdFeeRemaining }, fees } });
      if (from === s) {
        queue = queue.delete(q.key);
        s.queue.delete(q.hashHex);
        outEntries.push(deqEntry(q, startLt));
      } else {
        from.awaitingDeq.push({ hashHex: q.hashHex, importBlockLt: startLt });
      }
      record(r.tx, r.entry);
    }
    const externals = s.externals;
    s.externals = [];
    const accepted: Array<{ ext: PendingExternal; tx: TxView }> = [];
    for (const ext of externals) {
      let r: Awaited<ReturnType<typeof run>>;
      try {
        r = await run(ext.msg, ext.info.dest, 0n);
      } catch (e) {
        // Whatever anyone submits must not stop the chain: a message the emulator cannot even run is rejected.
        r = { error: e instanceof Error ? e.message : String(e) };
      }
      if ('error' in r) {
        ext.resolve({ accepted: false, error: r.error });
        continue;
      }
      inEntries.push({
        key: r.tx.inMsg!.hash(),
        value: { msg: { type: 'msg_import_ext', msg: r.tx.inMsg!, transaction: r.tx.cell }, fees: { feesCollected: 0n, valueImported: grams(0n) } },
      });
      record(r.tx, r.entry);
      accepted.push({ ext, tx: r.tx });
    }

    const endLt = max(lt, startLt + 1n);
    const sortByKey = <T extends { key: Uint8Array }>(a: T[]): T[] => a.sort((x, y) => Buffer.compare(Buffer.from(x.key), Buffer.from(y.key)));
    const inDescr = new DBuilder();
    const imported = storeInMsgDescr(sortByKey(inEntries), inDescr);
    const outDescr = new DBuilder();
    const exported = storeOutMsgDescr(sortByKey(outEntries), outDescr);
    const blocks: Array<AccountBlockInput<DCell>> = [...byAccount.values()]
      .sort((a, b) => Buffer.compare(Buffer.from(a.addr), Buffer.from(b.addr)))
      .map(({ addr, txs }) => ({
        accountAddr: addr,
        transactions: txs.map((t) => ({ lt: t.lt, cell: t.cell, totalFees: t.totalFees })),
        stateUpdate: { oldHash: txs[0]!.oldHash, newHash: txs[txs.length - 1]!.newHash },
      }));
    const accountBlocks = new DBuilder();
    storeShardAccountBlocks(blocks, accountBlocks);

    // Value flow (crypto/block/block.cpp ValueFlow::validate): from_prev + imported + fees_imported + created =
    // to_next + exported + fees_collected, with fees_collected = transaction fees + import fees + what the block
    // creates (+ the shards' fees a masterchain block imports).
    const created = grams(s.workchain === MC ? this.config.mcBlockFee : this.config.wcBlockFee);
    const feesImported = committed ? committed.fees : grams(0n);
    const feesCollected = addCurrencyCollections(addCurrencyCollections(txFees, grams(imported.feesCollected)), addCurrencyCollections(created, feesImported));
    const valueFlow: ValueFlow = {
      version: 1,
      fromPrevBlk: grams(prevBalance),
      toNextBlk: grams(accounts.extra.balance),
      imported: imported.valueImported,
      exported,
      feesCollected,
      burned: null,
      feesImported,
      recovered: grams(0n),
      created,
      minted: grams(0n),
    };

    // The new state.
    const parts: ShardStateParts = {
      ...s.parts,
      seqno,
      genUtime: now,
      genLt: endLt,
      minRefMcSeqno,
      accounts,
      queue,
      totalValidatorFees: s.parts.totalValidatorFees + feesCollected.grams,
      masterRef,
    };
    let mcExtra: DCell | null = null;
    if (s.workchain === MC && committed) {
      const c = committed.block;
      const tip = shardDescr(
        { seqno: c.seqno, rootHash: c.rootHash, fileHash: c.fileHash, startLt: c.startLt, endLt: c.endLt, genUtime: c.genUtime },
        seqno,
        committed.minRefMcSeqno,
        committed.fees,
        committed.created,
      );
      this.wcTip = tip;
      const shardHashes = [{ workchain: WC, shard: SHARD_ALL, descr: tip }];
      const b = new DBuilder();
      storeMcBlockExtra({ shardHashes, shardFees: [{ workchain: WC, shard: SHARD_ALL, fees: committed.fees, create: committed.created }] }, b);
      mcExtra = b.endCell();
      const mcp = s.parts.mc!;
      const prev = s.last;
      parts.mc = {
        ...mcp,
        shardHashes,
        prevBlocks: mcp.prevBlocks.set(keyFromInt(prev.seqno, 32), { key: prev.seqno === 0, ref: extRef(prev) }),
        lastKeyBlock: mcp.lastKeyBlock ?? extRef(prev),
        globalBalance: mcp.globalBalance + created.grams + committed.created.grams,
      };
    }
    const state = buildShardState(parts);
    const update = merkleUpdate(s.state, state);

    const info: BlockInfo = {
      version: 0,
      notMaster: s.workchain !== MC,
      afterMerge: false,
      beforeSplit: false,
      afterSplit: false,
      wantSplit: false,
      wantMerge: false,
      keyBlock: false,
      vertSeqnoIncr: false,
      flags: 1,
      seqno,
      vertSeqno: 0,
      shard: shardIdent(s.workchain, SHARD_ALL),
      genUtime: now,
      startLt,
      endLt,
      genValidatorListHashShort: 0,
      genCatchainSeqno: 0,
      minRefMcSeqno,
      prevKeyBlockSeqno: 0,
      genSoftware: this.config.globalVersion,
      masterRef,
      prevRef: { afterMerge: false, prev: extRef(s.last) },
      prevVertRef: null,
    };
    const cellOf = (fill: (b: DBuilder) => void, exotic = false): DCell => {
      const b = new DBuilder();
      fill(b);
      return b.endCell({ exotic });
    };
    const extra = cellOf((b) =>
      storeBlockExtra(
        { inMsgDescr: inDescr.endCell(), outMsgDescr: outDescr.endCell(), accountBlocks: accountBlocks.endCell(), randSeed, createdBy: this.createdBy, custom: mcExtra },
        b,
      ),
    );
    const root = cellOf((b) =>
      storeBlock(
        { globalId: this.globalId, info: cellOf((x) => storeBlockInfo(info, x)), valueFlow: cellOf((x) => storeValueFlow(valueFlow, x)), stateUpdate: update, extra },
        b,
      ),
    );
    const data = serializeBoc(root, { crc32: true });
    const block: SealedBlock = {
      workchain: s.workchain,
      shard: SHARD_ALL,
      seqno,
      rootHash: root.hash(),
      fileHash: createHash('sha256').update(data).digest(),
      data,
      startLt,
      endLt,
      genUtime: now,
      transactions: sealedTxs,
      commits: committed ? [{ workchain: WC, shard: SHARD_ALL, seqno: committed.block.seqno }] : [],
    };
    s.parts = parts;
    s.state = state;
    s.last = { seqno, rootHash: block.rootHash, fileHash: block.fileHash, startLt, endLt, genUtime: now };
    for (const { ext, tx } of accepted) ext.resolve({ accepted: true, transaction: { hash: tx.cell.hash(), lt: tx.lt, workchain: s.workchain, seqno } });
    return { block, fees: feesCollected, created, minRefMcSeqno };
  }
}

/** A sealed block with what its committing masterchain block records of it. */
interface Committed {
  block: SealedBlock;
  fees: CurrencyCollection;
  created: CurrencyCollection;
  minRefMcSeqno: number;
}

function toB64(c: DCell): string {
  return Buffer.from(serializeBoc(c, { crc32: false })).toString('base64');
}

const EMPTY_SA_B64 = toB64(EMPTY_SHARD_ACCOUNT);

function newShard(workchain: number, parts: ShardStateParts, state: DCell, last: BlockRef): Shard {
  return { workchain, parts, state, last, queue: new Map(), awaitingDeq: [], externals: [] };
}

function queuedFromEntry(key: Uint8Array, envelope: DCell): QueuedMsg {
  const msg = envelope.refs[0]!;
  const info = readMsgInfo(msg);
  if (info.kind !== 'int') throw new Error('out queue holds a non-internal message');
  const s = envelope.beginParse();
  s.skip(4 + 8 + 8);
  const fwdFeeRemaining = s.loadCoins();
  return { key, hash: msg.hash(), hashHex: msg.hashHex(), envelope, msg, info, fwdFeeRemaining, enqueuedSeqno: 0 };
}

function deqEntry(q: QueuedMsg, importBlockLt: bigint): OutMsgDescrEntry<DCell> {
  return {
    key: q.hash,
    value: {
      msg: {
        type: 'msg_export_deq_short',
        envelopeHash: q.envelope.hash(),
        nextWorkchain: q.info.dest.workchain,
        nextAddrPfx: Buffer.from(q.info.dest.hash).readBigUInt64BE(0),
        importBlockLt,
      },
      exported: grams(0n),
    },
  };
}

function zerostateRef(state: DCell, utime: number): BlockRef {
  return { seqno: 0, rootHash: state.hash(), fileHash: createHash('sha256').update(serializeBoc(state, { crc32: true })).digest(), startLt: 0n, endLt: 0n, genUtime: utime };
}

function extRef(r: BlockRef): ExtBlkRef {
  return { endLt: r.endLt, seqno: r.seqno, rootHash: r.rootHash, fileHash: r.fileHash };
}

function shardDescr(r: BlockRef, regMcSeqno: number, minRefMcSeqno: number, fees: CurrencyCollection, created: CurrencyCollection): ShardDescr {
  return {
    seqno: r.seqno,
    regMcSeqno,
    startLt: r.startLt,
    endLt: r.endLt,
    rootHash: r.rootHash,
    fileHash: r.fileHash,
    beforeSplit: false,
    beforeMerge: false,
    wantSplit: false,
    wantMerge: false,
    nxCcUpdated: false,
    flags: 0,
    nextCatchainSeqno: 0,
    nextValidatorShard: SHARD_ALL,
    minRefMcSeqno: Math.max(0, minRefMcSeqno),
    genUtime: r.genUtime,
    splitMergeAt: { type: 'none' },
    feesCollected: fees,
    fundsCreated: created,
  };
}

function align(lt: bigint): bigint {
  return ((lt + LT_ALIGN - 1n) / LT_ALIGN) * LT_ALIGN;
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

function sha256(s: string): Uint8Array {
  return createHash('sha256').update(s).digest();
}

/** The configuration the chain runs with, and the values it reads from it. */
interface ChainConfig {
  root: DCell;
  b64: string;
  configAddr: Uint8Array;
  globalVersion: GlobalVersion;
  mcBlockFee: bigint;
  wcBlockFee: bigint;
}

/**
 * The mainnet configuration with one change: param 19 (`global_id`) is the devnet's own network id, so no devnet
 * block can pass for a mainnet one.
 */
function loadChainConfig(globalId: number): ChainConfig {
  const original = parseBocRoot(Buffer.from(MAINNET_CONFIG_BOC, 'base64'));
  const spec = {
    bits: 32,
    storeValue: (v: DCell, b: DBuilder) => b.storeRef(v),
    loadValue: (s: import('./cell.js').DSlice) => s.loadRef(),
  };
  const params = new Map<number, DCell>();
  walkDict(original, 32, (v, k) => params.set(Buffer.from(k).readInt32BE(0), v.loadRef()));
  const p19 = new DBuilder();
  p19.storeInt(globalId, 32);
  params.set(19, p19.endCell());
  let trie = PersistentTrie.empty<DCell, undefined>(spec);
  for (const [k, v] of params) trie = trie.set(keyFromInt(k, 32), v);
  const root = trie.rootCell()!;
  const p0 = params.get(0)!.beginParse();
  const p8 = params.get(8)!.beginParse();
  p8.skip(8);
  const globalVersion = { version: p8.loadUint(32), capabilities: p8.loadUintBig(64) };
  const p14 = params.get(14)!.beginParse();
  p14.skip(8);
  const mcBlockFee = p14.loadCoins();
  const wcBlockFee = p14.loadCoins();
  return { root, b64: toB64(root), configAddr: p0.loadBytes(32), globalVersion, mcBlockFee, wcBlockFee };
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function refToJson(r: BlockRef): BlockRefJson {
  return { seqno: r.seqno, rootHash: hex(r.rootHash), fileHash: hex(r.fileHash), startLt: r.startLt.toString(), endLt: r.endLt.toString(), genUtime: r.genUtime };
}

function refFromJson(j: BlockRefJson): BlockRef {
  return { seqno: j.seqno, rootHash: Buffer.from(j.rootHash, 'hex'), fileHash: Buffer.from(j.fileHash, 'hex'), startLt: BigInt(j.startLt), endLt: BigInt(j.endLt), genUtime: j.genUtime };
}

function descrToJson(d: ShardDescr): ShardDescrJson {
  return {
    seqno: d.seqno,
    regMcSeqno: d.regMcSeqno,
    startLt: d.startLt.toString(),
    endLt: d.endLt.toString(),
    rootHash: hex(d.rootHash),
    fileHash: hex(d.fileHash),
    minRefMcSeqno: d.minRefMcSeqno,
    genUtime: d.genUtime,
    fees: d.feesCollected.grams.toString(),
    created: d.fundsCreated.grams.toString(),
  };
}

function descrFromJson(j: ShardDescrJson): ShardDescr {
  return shardDescr(
    {
      seqno: j.seqno as number,
      rootHash: Buffer.from(j.rootHash as string, 'hex'),
      fileHash: Buffer.from(j.fileHash as string, 'hex'),
      startLt: BigInt(j.startLt as string),
      endLt: BigInt(j.endLt as string),
      genUtime: j.genUtime as number,
    },
    j.regMcSeqno as number,
    j.minRefMcSeqno as number,
    grams(BigInt(j.fees as string)),
    grams(BigInt(j.created as string)),
  );
}
