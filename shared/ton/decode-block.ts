import { hash as nodeHash } from 'node:crypto';
import { Boc } from './boc/reader.js';
import { Slice } from './boc/slice.js';
import { DecodeError, tlbError } from './errors.js';
import { type V3Block, blockRecord } from './records/block.js';
import { type V3Transaction, transactionRecord } from './records/transaction.js';
import { type AccountBlock, walkShardAccountBlocks } from './tlb/AccountBlock.js';
import { type Block, loadBlock } from './tlb/Block.js';
import { shardId } from './tlb/ShardIdent.js';
import { type Transaction, loadTransaction } from './tlb/Transaction.js';

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
}

export interface DecodedBlock {
  block: V3Block;
  transactions: V3Transaction[];
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
  }
  const fileHash = opts.fileHash ?? nodeHash('sha256', bytes, 'buffer');
  const mcBlockSeqno = block.info.shard.workchain === -1 ? block.info.seqno : (opts.mcBlockSeqno ?? null);
  const ctx = {
    workchain: block.info.shard.workchain,
    shard: shardId(block.info.shard),
    seqno: block.info.seqno,
    mcBlockSeqno,
  };
  const transactions = withType('Transaction', () => parsed.transactions.map((tx) => transactionRecord(boc, tx, ctx)));
  return {
    block: blockRecord({ block, rootHash, fileHash, txCount: transactions.length, mcBlockSeqno }),
    transactions,
  };
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
