import { HEADER_SCHEMA_VERSION, type IncomingMessage, type OutgoingMessage } from '../bus/bus.js';
import { NonRetryableError } from '../runtime/errors.js';
import type { BlockId, RawBlock } from '../sources/source.js';

/**
 * The raw-block topic's wire format, version 1 (read by two services: the follower writes it, the indexer reads it).
 *
 * key: `<workchain>:<shard hex>`, so a shard's blocks share a partition and stay in seqno order;
 * value: the block BOC as the source delivered it;
 * headers: the block id, its root and file hash (hex, computed once by the follower so decoders need not hash
 * the state update again), the committing masterchain seqno when known, and on the last block of a source group
 * the group's checkpoint.
 */
export const RAW_BLOCK_SCHEMA_VERSION = '1';
const H_ID = 'x-block-id';
const H_ROOT = 'x-root-hash';
const H_FILE = 'x-file-hash';
const H_MC = 'x-mc-seqno';
const H_CHECKPOINT = 'x-checkpoint';

export interface RawBlockMessage {
  block: RawBlock;
  /** The source checkpoint reached once this block (the last of its group) is stored. */
  checkpoint: string | null;
}

export function encodeRawBlock(block: RawBlock, checkpoint: string | null): OutgoingMessage {
  const headers: Record<string, string> = {
    [HEADER_SCHEMA_VERSION]: RAW_BLOCK_SCHEMA_VERSION,
    [H_ID]: `${block.id.workchain}:${block.id.shard}:${block.id.seqno}`,
    [H_ROOT]: Buffer.from(block.rootHash).toString('hex'),
    [H_FILE]: Buffer.from(block.fileHash).toString('hex'),
  };
  if (block.mcSeqno !== null) headers[H_MC] = String(block.mcSeqno);
  if (checkpoint !== null) headers[H_CHECKPOINT] = checkpoint;
  // A view, not a copy: the bus keeps its own copy of what it is sent (as Kafka does), so a second one here would
  // only be one more block-sized allocation on the follower's thread.
  const d = block.data;
  const value = Buffer.isBuffer(d) ? d : Buffer.from(d.buffer, d.byteOffset, d.byteLength);
  return { key: `${block.id.workchain}:${block.id.shard}`, value, headers };
}

/** Reads a raw-block message; a message this version cannot read is a poison message (non-retryable). */
export function decodeRawBlock(msg: IncomingMessage): RawBlockMessage {
  const h = msg.headers;
  const version = h[HEADER_SCHEMA_VERSION];
  if (version !== RAW_BLOCK_SCHEMA_VERSION) {
    throw new NonRetryableError('RAW_BLOCK_SCHEMA', `raw block message has schema version ${version ?? 'none'}, expected ${RAW_BLOCK_SCHEMA_VERSION}`);
  }
  const id = parseId(h[H_ID]);
  const rootHash = parseHash(h[H_ROOT], H_ROOT);
  const fileHash = parseHash(h[H_FILE], H_FILE);
  const mc = h[H_MC];
  const mcSeqno = mc === undefined ? null : Number(mc);
  if (mcSeqno !== null && !Number.isSafeInteger(mcSeqno)) throw new NonRetryableError('RAW_BLOCK_HEADER', `bad ${H_MC} header "${mc}"`);
  return { block: { id, rootHash, fileHash, data: msg.value, mcSeqno }, checkpoint: h[H_CHECKPOINT] ?? null };
}

/**
 * The committing masterchain seqno a raw-block message names (its `x-mc-seqno` header), without reading the rest:
 * for progress reports, which must not cost a block decode. Null when absent or unreadable.
 */
export function rawBlockMcSeqno(msg: Pick<IncomingMessage, 'headers'>): number | null {
  const v = msg.headers[H_MC];
  const n = v === undefined ? NaN : Number(v);
  return Number.isSafeInteger(n) ? n : null;
}

function parseId(v: string | undefined): BlockId {
  const m = v === undefined ? null : /^(-?\d+):([0-9A-F]{1,16}):(\d+)$/.exec(v);
  if (!m) throw new NonRetryableError('RAW_BLOCK_HEADER', `bad ${H_ID} header "${v ?? ''}"`);
  return { workchain: Number(m[1]), shard: m[2]!, seqno: Number(m[3]) };
}

function parseHash(v: string | undefined, name: string): Uint8Array {
  if (v === undefined || !/^[0-9a-f]{64}$/.test(v)) throw new NonRetryableError('RAW_BLOCK_HEADER', `bad ${name} header "${v ?? ''}"`);
  return Buffer.from(v, 'hex');
}
