import type { Consumer, IncomingMessage } from '../../shared/bus/bus.js';
import { rawBlockMcSeqno } from '../../shared/contracts/raw-block.js';
import { type CheckpointSink, type StageCounters, type StageMapper, runStage } from '../stages/stage.js';
import type { TableRows } from '../stages/stage.js';
import type { TableSchema, ToRows } from './decode-block-rows.js';
import { type BlockDecoder, createInlineDecoder, createWorkerDecoder, decodeWorkersAvailable, defaultDecodeWorkers } from './decode-pool.js';
import { blockToRows } from './to-rows.js';

export { DEFAULT_FLUSH_ROWS, type TableRows, type TableRowsOf } from '../stages/stage.js';

export interface DecodeStageDeps {
  consumer: Consumer;
  /** Decoded block → rows of the store's tables. */
  toRows: ToRows;
  /** Writes a batch's rows; resolves only when the store acknowledged all of them (retrying retryable errors). */
  write: (rows: TableRows, signal: AbortSignal) => Promise<void>;
  /** Sends a poison message to the dead-letter topic with its error. */
  deadLetter: (msg: IncomingMessage, error: unknown) => Promise<void>;
  /** Embedded mode: the follower's checkpoint, saved once the group's last block is stored. */
  checkpoints?: CheckpointSink;
  /**
   * Rows (all tables together) at which the decoded part of a batch is handed to `write` while decoding goes on;
   * default DEFAULT_FLUSH_ROWS (stage.ts). Only block boundaries split a batch, so a block's rows are written together.
   */
  flushRows?: number;
  /**
   * Worker threads that decode blocks beside the stage's thread. Default: {@link defaultDecodeWorkers} when `toRows`
   * is `blockToRows` (the workers run that mapping) and the compiled worker entry exists (running from `dist/`), else
   * 0: decoding on the stage's thread, as tests running the TypeScript sources do.
   */
  decodeWorkers?: number;
  /**
   * Column types of the store's tables (Store.columnTypes): decode workers then encode rows as TabSeparated
   * themselves. Without it they hand over row objects and the store encodes them.
   */
  schema?: TableSchema;
  /** Fill the point tables too (TONFLOW_STORE_POINT_READS, on by default; 0009_transaction_documents.sql). Absent: false. */
  points?: boolean;
  /** messages: blocks stored; items: their transactions; deadLettered: blocks dead-lettered. */
  counters?: StageCounters;
  /** `mcSeqno`: the masterchain seqno that commits the batch's last stored block, when its message names one. */
  onBatch?: (info: { blocks: number; transactions: number; deadLettered: number; ms: number; mcSeqno: number | null }) => void;
}

/**
 * The decode stage, the stage runner's (stage.ts) first user: raw blocks in, rows of the block tables out. Its
 * mapping is decodeBlock + blockToRows, run in worker threads when available (`decodeWorkers`), which leaves the
 * stage's thread free to start each insert the moment the previous one is acknowledged; decoding and inserting
 * overlap as the runner describes. A block that cannot be decoded is dead-lettered with its error.
 */
export async function runDecodeStage(deps: DecodeStageDeps): Promise<void> {
  if ((deps.decodeWorkers ?? 0) > 0 && deps.toRows !== blockToRows) {
    throw new Error('decode workers map blocks with blockToRows; a stage with another toRows must decode in its own thread (decodeWorkers: 0)');
  }
  const workers = deps.decodeWorkers ?? (deps.toRows === blockToRows && decodeWorkersAvailable() ? defaultDecodeWorkers() : 0);
  const rowsOptions = { points: deps.points ?? false };
  const decoder = workers > 0 ? createWorkerDecoder(workers, deps.schema, rowsOptions) : createInlineDecoder(deps.toRows, rowsOptions);
  const onBatch = deps.onBatch;
  await runStage(deps.consumer, {
    mapper: decoderMapper(decoder),
    write: deps.write,
    deadLetter: deps.deadLetter,
    ...(deps.checkpoints ? { checkpoints: deps.checkpoints } : {}),
    ...(deps.flushRows !== undefined ? { flushRows: deps.flushRows } : {}),
    ...(deps.counters ? { counters: deps.counters } : {}),
    ...(onBatch
      ? {
          onBatch: (r) =>
            onBatch({
              blocks: r.messages,
              transactions: r.items,
              deadLettered: r.deadLettered,
              ms: r.ms,
              mcSeqno: r.last === undefined ? null : rawBlockMcSeqno(r.last),
            }),
        }
      : {}),
  });
}

/** A block decoder as the runner's mapper: a block's rows, counted by its transactions; state messages are not blocks. */
export function decoderMapper(decoder: BlockDecoder): StageMapper {
  return {
    map: (msg) => decoder.decode(msg).then((d) => ({ rows: d.rows, count: d.transactions, checkpoint: d.checkpoint, ...(d.states ? { counted: false } : {}) })),
    depth: decoder.depth,
    inThread: decoder.inThread,
    close: () => decoder.close(),
  };
}
