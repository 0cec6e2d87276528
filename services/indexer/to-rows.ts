import type { DecodedBlock } from '../../shared/ton/decode-block.js';
import type { RowsMapOptions } from './decode-block-rows.js';
import { toRows } from './rows.js';

/** The decode stage's mapping: a decoded block and its masterchain seqno to rows per table. */
export function blockToRows(decoded: DecodedBlock, mcSeqno: number | null, opts: RowsMapOptions = {}): Record<string, object[]> {
  const rows = toRows({ block: decoded.block, transactions: decoded.transactions, shards: decoded.shards, stateBocs: decoded.stateBocs, header: decoded.header, transactionBocs: decoded.transactionBocs, shardHashes: decoded.shardHashes, config: decoded.config, cells: decoded.cells }, {
    mcSeqno: decoded.block.workchain === -1 ? null : mcSeqno,
    points: opts.points ?? false,
  });
  return rows as unknown as Record<string, object[]>;
}
