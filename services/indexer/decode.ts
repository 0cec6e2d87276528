import type { Batch, BatchContext, Consumer, IncomingMessage, Producer } from '../../shared/bus/bus.js';
import { decodeRawBlock } from '../../shared/contracts/raw-block.js';
import { isRetryable } from '../../shared/runtime/errors.js';
import { type DecodedBlock, decodeBlock } from '../../shared/ton/decode-block.js';
import type { CheckpointStore } from '../follower/follow.js';

/** Rows per table, in the order they must be inserted. */
export type TableRows = Map<string, object[]>;

export interface DecodeStageDeps {
  consumer: Consumer;
  /** Decoded block → rows of the store's tables. */
  toRows: (decoded: DecodedBlock, mcSeqno: number | null) => Record<string, object[]>;
  /** Writes a batch's rows; resolves only when the store acknowledged all of them (retrying retryable errors). */
  write: (rows: TableRows, signal: AbortSignal) => Promise<void>;
  /** Sends a poison message to the dead-letter topic with its error. */
  deadLetter: (msg: IncomingMessage, error: unknown) => Promise<void>;
  /** Embedded mode: the follower's checkpoint, saved once the group's last block is stored. */
  checkpoints?: CheckpointStore;
  onBatch?: (info: { blocks: number; transactions: number; deadLettered: number; ms: number }) => void;
}

/**
 * The decode stage: raw blocks in, rows out. Each bus batch is decoded, written in one go and only then committed
 * (the bus commits when the handler resolves), so a crash replays the batch and the idempotent tables absorb it.
 * A block that cannot be decoded is dead-lettered with its error and the batch goes on; a store failure is retried
 * with backoff and nothing is committed until it succeeds.
 */
export function runDecodeStage(deps: DecodeStageDeps): Promise<void> {
  return deps.consumer.run((batch, ctx) => handleBatch(deps, batch, ctx));
}

export async function handleBatch(deps: DecodeStageDeps, batch: Batch, ctx: BatchContext): Promise<void> {
  const started = performance.now();
  const rows: TableRows = new Map();
  let transactions = 0;
  let deadLettered = 0;
  let checkpoint: string | null = null;
  for (const msg of batch.messages) {
    let decoded: DecodedBlock;
    let mcSeqno: number | null;
    try {
      const raw = decodeRawBlock(msg);
      mcSeqno = raw.block.mcSeqno;
      decoded = decodeBlock(raw.block.data, { rootHash: raw.block.rootHash, fileHash: raw.block.fileHash, mcBlockSeqno: mcSeqno });
      if (raw.checkpoint !== null) checkpoint = raw.checkpoint;
    } catch (e) {
      if (isRetryable(e)) throw e;
      await deps.deadLetter(msg, e);
      deadLettered++;
      continue;
    }
    transactions += decoded.transactions.length;
    for (const [table, tableRows] of Object.entries(deps.toRows(decoded, mcSeqno))) {
      let list = rows.get(table);
      if (!list) rows.set(table, (list = []));
      for (const r of tableRows) list.push(r);
    }
    await ctx.heartbeat();
  }
  if (rows.size > 0) await deps.write(rows, ctx.signal);
  if (checkpoint !== null && deps.checkpoints) await deps.checkpoints.save(checkpoint);
  deps.onBatch?.({ blocks: batch.messages.length - deadLettered, transactions, deadLettered, ms: performance.now() - started });
}

