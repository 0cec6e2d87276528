import type { IncomingMessage } from '../../shared/bus/bus.js';
import { decodeRawBlock } from '../../shared/contracts/raw-block.js';
import { type DecodedBlock, decodeBlock } from '../../shared/ton/decode-block.js';

/** Decoded block → rows of the store's tables (the decode stage's mapping, `blockToRows` in production). */
export type ToRows = (decoded: DecodedBlock, mcSeqno: number | null) => Record<string, object[]>;

/** One raw-block message, decoded and mapped to rows. */
export interface DecodedMessage {
  /** Rows per table. */
  rows: Record<string, object[]>;
  transactions: number;
  /** The source checkpoint the message carries (the last block of a follower group), else null. */
  checkpoint: string | null;
}

/**
 * Reads a raw-block message (contract v1), decodes its block with the root and file hash the follower computed,
 * and maps it to rows. Pure and synchronous: the decode stage runs it in its own thread or in decode workers.
 * Throws what the contract or the decoder throws (a poison message: non-retryable).
 */
export function decodeMessage(msg: Pick<IncomingMessage, 'headers' | 'value'>, toRows: ToRows): DecodedMessage {
  const raw = decodeRawBlock(msg as IncomingMessage);
  const mcSeqno = raw.block.mcSeqno;
  const decoded = decodeBlock(raw.block.data, { rootHash: raw.block.rootHash, fileHash: raw.block.fileHash, mcBlockSeqno: mcSeqno });
  return { rows: toRows(decoded, mcSeqno), transactions: decoded.transactions.length, checkpoint: raw.checkpoint };
}
