import { hash as nodeHash } from 'node:crypto';
import { Boc } from './boc/reader.js';
import { type CellNode, hashBuiltCells } from './boc/built.js';
import { Slice } from './boc/slice.js';
import { DecodeError, tlbError } from './errors.js';
import { type BlockHeaderHashes, type V3Block, blockHeaderHashes, blockRecord } from './records/block.js';
import { MessageMemo } from './records/message.js';
import { type V3BlockId, type V3Transaction, transactionRecord } from './records/transaction.js';
import { shardHex } from './records/format.js';
import { type AccountBlock, walkShardAccountBlocks } from './tlb/AccountBlock.js';
import { type Block, loadBlock } from './tlb/Block.js';
import { shardId } from './tlb/ShardIdent.js';
import { type Transaction, loadTransaction } from './tlb/Transaction.js';
import type { Message } from './tlb/Message.js';
import { type AccountStateBocs, accountStateBocs, accountStateRecord } from './records/account-state.js';
import { findShardAccount, loadShardStateAccounts } from './tlb/ShardState.js';
import type { ShardAccount } from './tlb/ShardAccount.js';
import { b64 } from './records/format.js';
import { serializeBoc } from './boc/writer.js';
import { collectWholeCells } from './cells/cells.js';

/** A block decoded to its typed TL-B form, with its transactions in block order. */
export interface ParsedBlock {
  boc: Boc;
  block: Block;
  accountBlocks: AccountBlock[];
  /** Account order (ShardAccountBlocks key order), then lt within an account: the order of the block itself. */
  transactions: Transaction[];
}

/** Parses a block BOC down to its transactions without touching the state update. */
export function parseBlock(bytes: Uint8Array): ParsedBlock {
  const boc = Boc.parse(bytes);
  const block = withType('Block', () => loadBlock(boc));
  const accountBlocks: AccountBlock[] = [];
  withType('ShardAccountBlocks', () =>
    walkShardAccountBlocks(new Slice(boc, block.extra.accountBlocks), (ab) => accountBlocks.push(ab)),
  );
  const transactions = withType('Transaction', () => {
    const txs: Transaction[] = [];
    for (const ab of accountBlocks) for (const cell of ab.transactions) txs.push(loadTransaction(new Slice(boc, cell)));
    return txs;
  });
  return { boc, block, accountBlocks, transactions };
}

export interface DecodeBlockOptions {
  /** Root hash from the source (a liteserver's BlockIdExt); computed from the BOC when absent. */
  rootHash?: Uint8Array;
  /** File hash from the source; sha256 of the bytes when absent. */
  fileHash?: Uint8Array;
  /** Seqno of the masterchain block that committed this (shard) block, when the caller knows it. */
  mcBlockSeqno?: number | null;
  /**
   * Fill `account_state_before` of each account's first transaction and `account_state_after` of its last one
   * from the block's state update (the only states a block carries). Default true; false leaves only hashes and
   * never reads the state update.
   */
  accountStates?: boolean;
  /**
   * Collect the whole cells of each touched account's Account subtree on both sides of the state update, and the
   * cells the messages that deployed accounts in the block brought (StateInit code and data, body), into `cells` (0025_cells.sql): what later
   * reads rebuild pruned code and data from. Default true; needs
   * `accountStates`.
   */
  cells?: boolean;
  /**
   * Serialize each transaction's cell as a bag of cells into `transactionBocs` (API v2 `data`; 0020_transaction_bocs.sql).
   * Default true; false leaves `transactionBocs` empty (callers that only need the v3 records).
   */
  transactionBocs?: boolean;
}

/** A whole cell of an account state: its level-0 hash (hex) and record (base64; shared/ton/cells/cells.ts). */
export interface StateCell {
  hash: string;
  record: string;
}

export interface DecodedBlock {
  block: V3Block;
  transactions: V3Transaction[];
  /** For a masterchain block, the shard blocks its ShardHashes commit (the tips); empty for a shard block. */
  shards: V3BlockId[];
  /** Code/data BOCs of the account states filled from the state update, by state hash (where complete). */
  stateBocs: Map<string, AccountStateBocs>;
  /** The state root and previous block hashes, which the v3 record does not carry (api-v2.md §3.1, §3.2). */
  header: BlockHeaderHashes;
  /**
   * Each transaction's cell as a bag of cells (base64, CRC32C, no index: the form liteservers and TON Center's v2
   * return), parallel to `transactions`: API v2's transaction `data` (0020_transaction_bocs.sql). Empty when
   * `opts.transactionBocs` is false.
   */
  transactionBocs: string[];
  /** Root and file hash of each of `shards` (ShardDescr), parallel to it: API v2 `shards` (0022_shard_state_hashes.sql). */
  shardHashes: Array<{ root_hash: string; file_hash: string }>;
  /**
   * For a key block: its ConfigParams' parameter dictionary (`config:^(Hashmap 32 ^Cell)`, block.tlb McBlockExtra) as
   * a bag of cells (base64, no CRC), the config in force from this block on: API v2 getConfigParam / getConfigAll
   * (0021_key_block_configs.sql). Null for any other block.
   */
  config: string | null;
  /** The whole cells of the touched accounts' states, each once (`opts.cells`); empty when off. */
  cells: StateCell[];
}

/** Decodes a raw block BOC to the TON Center v3 Block record and Transaction records, in block order. */
export function decodeBlock(bytes: Uint8Array, opts: DecodeBlockOptions = {}): DecodedBlock {
  return toRecords(parseBlock(bytes), bytes, opts);
}

export function toRecords(parsed: ParsedBlock, bytes: Uint8Array, opts: DecodeBlockOptions = {}): DecodedBlock {
  const { boc, block } = parsed;
  let rootHash = opts.rootHash;
  if (!rootHash) {
    // The root hash covers the state update, so every cell gets hashed; a bottom-up pass is cheapest.
    boc.hashAll();
    rootHash = boc.hash(block.cell);
  } else {
    // Each record hashes its transaction, messages and bodies: one batch for all of them is cheaper than
    // hashing them cell by cell as the records ask.
    prehash(boc, parsed.transactions.map((tx) => tx.cell));
  }
  try {
    hashBuiltCells(builtNodes(parsed.transactions));
  } catch (e) {
    // As in prehash: a malformed child is left for the record that meets it, so the error names its TL-B type.
    if (!(e instanceof DecodeError)) throw e;
  }
  const fileHash = opts.fileHash ?? nodeHash('sha256', bytes, 'buffer');
  const mcBlockSeqno = block.info.shard.workchain === -1 ? block.info.seqno : (opts.mcBlockSeqno ?? null);
  const ctx = {
    workchain: block.info.shard.workchain,
    shard: shardHex(shardId(block.info.shard)),
    seqno: block.info.seqno,
    mcBlockSeqno,
    memo: new MessageMemo(),
  };
  const transactions = withType('Transaction', () => parsed.transactions.map((tx) => transactionRecord(boc, tx, ctx)));
  const stateBocs = new Map<string, AccountStateBocs>();
  const cells: StateCell[] = [];
  if (opts.accountStates !== false) {
    // Best effort: the records are complete without these states, so a state update this decoder cannot read
    // leaves them as hashes instead of failing the block.
    try {
      fillAccountStates(parsed, transactions, stateBocs, opts.cells !== false ? cells : null);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
    }
  }
  const configRoot = block.extra.custom?.config?.root;
  // A key block's config is a few hundred cells the known-root path has not hashed: one batch, as in prehash.
  if (configRoot !== undefined && opts.rootHash) prehash(boc, [configRoot]);
  return {
    block: blockRecord({ block, rootHash, fileHash, txCount: transactions.length, mcBlockSeqno }),
    transactions,
    shards: (block.extra.custom?.shardHashes ?? []).map((h) => ({ workchain: h.workchain, shard: shardHex(h.shard), seqno: h.descr.seqno })),
    stateBocs,
    header: blockHeaderHashes(block),
    transactionBocs: opts.transactionBocs === false ? [] : parsed.transactions.map((tx) => b64(serializeBoc(boc, tx.cell, { crc32: true }))),
    shardHashes: (block.extra.custom?.shardHashes ?? []).map((h) => ({ root_hash: b64(h.descr.rootHash), file_hash: b64(h.descr.fileHash) })),
    config: configRoot !== undefined ? b64(serializeBoc(boc, configRoot, { crc32: false })) : null,
    cells,
  };
}

/**
 * The state update's old side holds each touched account as it was before the block, the new side as it is after:
 * those are the states before an account's first transaction and after its last one in this block. A state is
 * used only when its hash equals the hash the transaction itself records.
 */
function fillAccountStates(parsed: ParsedBlock, records: V3Transaction[], bocs: Map<string, AccountStateBocs>, cells: StateCell[] | null): void {
  const { boc, block } = parsed;
  const update = block.stateUpdate;
  const oldSide = loadShardStateAccounts(new Slice(boc, update.old));
  const newSide = loadShardStateAccounts(new Slice(boc, update.new));
  // Found first and hashed in one batch (see prehash), then kept where the hash matches the record's. A lookup
  // that fails ends the walk as it did when each account was looked up and filled in turn: the ones before it are
  // filled first.
  const found: Array<{ sa: ShardAccount; rec: V3Transaction; side: 'account_state_before' | 'account_state_after' }> = [];
  let failed = false;
  let failure: unknown;
  try {
    let i = 0;
    for (const ab of parsed.accountBlocks) {
      const n = ab.transactions.length;
      if (n === 0) continue;
      const first = records[i]!;
      const last = records[i + n - 1]!;
      i += n;
      const before = oldSide ? findShardAccount(oldSide, boc, ab.accountAddr) : null;
      if (before) found.push({ sa: before, rec: first, side: 'account_state_before' });
      const after = newSide ? findShardAccount(newSide, boc, ab.accountAddr) : null;
      if (after) found.push({ sa: after, rec: last, side: 'account_state_after' });
    }
  } catch (e) {
    failed = true;
    failure = e;
  }
  prehash(boc, found.map((f) => f.sa.accountCell));
  if (cells) {
    // Every Account found, matching its record or not: its whole cells are true cells of some state either way,
    // keyed by the hash they have there. The ShardAccounts nodes above them are left out (0025_cells.sql).
    const seen = new Set<string>();
    collectWholeCells(
      boc,
      [...found.map((f) => f.sa.accountCell), ...deployedInits(parsed)],
      (hash, record) => {
        if (seen.has(hash)) return;
        seen.add(hash);
        cells.push({ hash, record: Buffer.from(record).toString('base64') });
      },
    );
  }
  for (const { sa, rec, side } of found) {
    const state = accountStateRecord(boc, sa.accountCell, sa.account);
    if (state.hash === rec[side].hash) {
      rec[side] = state;
      bocs.set(state.hash, accountStateBocs(boc, sa.account));
    }
  }
  if (failed) throw failure;
  // An account that does not exist on a side is absent from that side's ShardAccounts (block.tlb: the dictionary
  // holds existing accounts), yet its state is fully known: `account_none$0`. Its hash is what the transaction's
  // HASH_UPDATE names, so a record is filled only where its hash is that one. This keeps a deleted account's
  // latest state (nonexist, balance 0) and a deployed account's state before.
  for (const rec of records) {
    for (const side of ['account_state_before', 'account_state_after'] as const) {
      const st = rec[side];
      if (st.account_status === null && st.hash === ACCOUNT_NONE_HASH) {
        rec[side] = { hash: st.hash, balance: '0', extra_currencies: {}, account_status: 'nonexist', frozen_hash: null, data_hash: null, code_hash: null };
      }
    }
  }
}

/**
 * The cells a deploying message brought whole: the code and data of its StateInit and the cells of its body (the
 * inbound message of a transaction whose account was not active before; a contract commonly stores cells its deploy
 * body carries, as a multisig order its order or an NFT item its content). A Merkle update prunes every cell the old
 * state already held, and a message queued in this shard's out queue is part of that state: an account deployed by
 * such a message arrives with those cells pruned on the new side, though nothing else ever stores them whole. The
 * message in the block body carries them whole (block.tlb `message$_ ... init:(Maybe (Either StateInit ^StateInit))
 * body:(Either X ^X)`, `StateInit ... code:(Maybe ^Cell) data:(Maybe ^Cell)`). An inline body's own root is no cell of
 * the bag; its references are.
 */
function deployedInits(parsed: ParsedBlock): number[] {
  const out: number[] = [];
  for (const tx of parsed.transactions) {
    const msg = tx.origStatus === 'active' ? null : tx.inMsg;
    if (!msg?.init) continue;
    const init = msg.init.value;
    if (init.code >= 0) out.push(init.code);
    if (init.data >= 0) out.push(init.data);
    if (typeof msg.body === 'number') out.push(msg.body);
    else for (const r of msg.body.refs) if (typeof r === 'number') out.push(r);
  }
  return out;
}

/** Hash of the cell `account_none$0` (block.tlb Account): one data bit 0, no refs; d1 = 0, d2 = 1, data 0x40 with its completion tag. */
const ACCOUNT_NONE_HASH = nodeHash('sha256', Uint8Array.of(0, 1, 0x40), 'base64');

/**
 * Hashes in one batch ({@link Boc.hashSubtrees}) the cells the records are about to hash one at a time. A
 * malformed cell is left for the record that meets it, so a bad block fails with the same error as without this.
 */
function prehash(boc: Boc, roots: number[]): void {
  try {
    boc.hashSubtrees(roots);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
  }
}

/** Inline bodies and init states: the cells decoding built, which the records hash. */
function builtNodes(transactions: Transaction[]): CellNode[] {
  const out: CellNode[] = [];
  const add = (m: Message): void => {
    if (typeof m.body !== 'number') out.push(m.body);
    if (m.init && typeof m.init.node !== 'number') out.push(m.init.node);
  };
  for (const tx of transactions) {
    if (tx.inMsg) add(tx.inMsg);
    for (const m of tx.outMsgs) add(m);
  }
  return out;
}

/** Names the TL-B type in any decode failure below it that does not already name one. */
function withType<T>(type: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof DecodeError) {
      if (e.message.startsWith('Cell:')) throw tlbError(e.code, type, e.message.slice(6));
      throw e;
    }
    if (e instanceof RangeError) throw tlbError('TLB_INVALID', type, e.message);
    throw e;
  }
}
