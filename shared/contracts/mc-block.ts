import { HEADER_SCHEMA_VERSION, type IncomingMessage, type OutgoingMessage } from '../bus/bus.js';
import { NonRetryableError } from '../runtime/errors.js';
import type { RawBlock } from '../sources/source.js';

/**
 * The masterchain-block topic's wire format, version 1 (the follower writes it; stages that need a masterchain
 * block whole, such as the trace stage, read it). The follower publishes it only after the masterchain block and
 * every shard block it commits are on the raw-block topic (raw-block.ts), so a reader that sees it knows they are
 * all there: one message per masterchain block, in seqno order, on a topic of one partition.
 *
 * key: `mc`; value: JSON {@link McBlockJson}; headers: the schema version and `x-mc-seqno`.
 */
export const MC_BLOCK_SCHEMA_VERSION = '1';
const H_MC = 'x-mc-seqno';

/** A block reference as the message carries it: TON Center's (workchain, shard hex, seqno) and hex hashes. */
export interface BlockRef {
  workchain: number;
  /** Upper-case hex, no padding, as in raw-block.ts and TON Center. */
  shard: string;
  seqno: number;
  rootHash: string;
  fileHash: string;
}

export interface McBlockMessage {
  /** The masterchain block. */
  block: BlockRef;
  /** The shard blocks it commits (those the follower published with it), in commit order. */
  shardBlocks: BlockRef[];
}

interface McBlockJson {
  mc: BlockRef;
  shards: BlockRef[];
}

/** The message of a source group whose last block is its masterchain block; null for any other group. */
export function mcBlockMessageOf(blocks: readonly RawBlock[]): McBlockMessage | null {
  const mc = blocks.at(-1);
  if (mc === undefined || mc.id.workchain !== -1 || mc.mcSeqno !== mc.id.seqno) return null;
  return { block: refOf(mc), shardBlocks: blocks.slice(0, -1).map(refOf) };
}

function refOf(b: RawBlock): BlockRef {
  return { ...b.id, rootHash: Buffer.from(b.rootHash).toString('hex'), fileHash: Buffer.from(b.fileHash).toString('hex') };
}

export function encodeMcBlock(m: McBlockMessage): OutgoingMessage {
  const value: McBlockJson = { mc: m.block, shards: m.shardBlocks };
  return {
    key: 'mc',
    value: Buffer.from(JSON.stringify(value)),
    headers: { [HEADER_SCHEMA_VERSION]: MC_BLOCK_SCHEMA_VERSION, [H_MC]: String(m.block.seqno) },
  };
}

/** Reads a masterchain-block message; one this version cannot read is a poison message (non-retryable). */
export function decodeMcBlock(msg: Pick<IncomingMessage, 'headers' | 'value'>): McBlockMessage {
  const version = msg.headers[HEADER_SCHEMA_VERSION];
  if (version !== MC_BLOCK_SCHEMA_VERSION) {
    throw new NonRetryableError('MC_BLOCK_SCHEMA', `masterchain block message has schema version ${version ?? 'none'}, expected ${MC_BLOCK_SCHEMA_VERSION}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(msg.value.toString('utf8'));
  } catch {
    throw new NonRetryableError('MC_BLOCK_VALUE', 'masterchain block message value is not JSON');
  }
  const j = json as Partial<McBlockJson> | null;
  if (j === null || typeof j !== 'object' || !Array.isArray(j.shards)) throw new NonRetryableError('MC_BLOCK_VALUE', 'masterchain block message lacks mc or shards');
  const block = readRef(j.mc, 'mc');
  if (block.workchain !== -1) throw new NonRetryableError('MC_BLOCK_VALUE', `mc block has workchain ${block.workchain}`);
  return { block, shardBlocks: j.shards.map((s, i) => readRef(s, `shards[${i}]`)) };
}

function readRef(v: unknown, where: string): BlockRef {
  const r = v as Partial<BlockRef> | null | undefined;
  const hash = (h: unknown): h is string => typeof h === 'string' && /^[0-9a-f]{64}$/.test(h);
  if (
    r == null ||
    !Number.isSafeInteger(r.workchain) ||
    typeof r.shard !== 'string' ||
    !/^[0-9A-F]{1,16}$/.test(r.shard) ||
    !Number.isSafeInteger(r.seqno) ||
    !hash(r.rootHash) ||
    !hash(r.fileHash)
  ) {
    throw new NonRetryableError('MC_BLOCK_VALUE', `masterchain block message: bad block reference at ${where}`);
  }
  return { workchain: r.workchain!, shard: r.shard, seqno: r.seqno!, rootHash: r.rootHash, fileHash: r.fileHash };
}

/** The masterchain seqno a message names in its header, without reading its value; null when absent or unreadable. */
export function mcBlockSeqno(msg: Pick<IncomingMessage, 'headers'>): number | null {
  const v = msg.headers[H_MC];
  const n = v === undefined ? NaN : Number(v);
  return Number.isSafeInteger(n) ? n : null;
}

