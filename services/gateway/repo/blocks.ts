import type { QueryParams } from '../../../shared/store/store.js';
import { type Db, type DbCore, type Req, query } from './db.js';
import type { BlockRow } from '../../../shared/store/tables/blocks.js';
import { type BlockHeaderHashes, type BlockRecord, type Sort, blockFromRow, compareU64, groupBy, headerHashesFromRow } from './records.js';

/**
 * Block reads (api-v3.md §1.1–1.4, api-v2.md §3.1–3.4), each on a path of shared/store/queries/README.md:
 * the primary key (workchain, shard, seqno), the hash projections, the minmax indexes on mc_block_seqno, gen_utime
 * and start_lt, and `shard_state` for a masterchain block's shard tips.
 */

const MC = 'workchain = -1 AND shard = 9223372036854775808';

/**
 * Replayed block rows collapse with `LIMIT 1 BY` the block id rather than FINAL (half the cost of a point read);
 * a row that knows its masterchain block is preferred to one that does not, and then one written with its header
 * hashes (0014_blocks_header_hashes.sql) to one written before.
 */
const ONE = 'LIMIT 1 BY workchain, shard, seqno';
const KNOWN_FIRST = "(mc_block_seqno IS NULL), (state_root_hash = '')";

/** The masterchain block with the lowest and the highest seqno in the store (`blocks.mc_first`, `blocks.mc_head`). */
export async function masterchainEnds(db: Db, req: Req): Promise<{ first: BlockRecord; last: BlockRecord; lastHeader: BlockHeaderHashes } | null> {
  const rows = await query<BlockRow>(
    db,
    req,
    `SELECT * FROM blocks
     WHERE ${MC} AND seqno IN (
       SELECT seqno FROM (SELECT seqno FROM blocks WHERE ${MC} ORDER BY seqno DESC LIMIT 1)
       UNION ALL
       SELECT seqno FROM (SELECT seqno FROM blocks WHERE ${MC} ORDER BY seqno ASC LIMIT 1))
     ORDER BY seqno, ${KNOWN_FIRST} ${ONE}`,
  );
  if (rows.length === 0) return null;
  const last = rows[rows.length - 1]!;
  return { first: blockFromRow(rows[0]!), last: blockFromRow(last), lastHeader: headerHashesFromRow(last) };
}

export interface BlocksFilter {
  workchain?: number;
  shard?: string;
  seqno?: number;
  root_hash?: string;
  file_hash?: string;
  mc_seqno?: number;
  start_utime?: number;
  end_utime?: number;
  start_lt?: string;
  end_lt?: string;
}

const UINT32_MAX = 4294967295;

/** Conditions of /blocks on the blocks table, all ANDed; null when a filter can match nothing (negative seqno). */
function blockConditions(f: BlocksFilter): { where: string[]; params: QueryParams; selective: boolean } | null {
  const where: string[] = [];
  const params: QueryParams = {};
  let selective = false;
  const u32 = (v: number): boolean => v >= 0 && v <= UINT32_MAX;
  if (f.workchain !== undefined) {
    where.push('workchain = {workchain:Int32}');
    params.workchain = f.workchain;
  }
  if (f.shard !== undefined) {
    where.push('shard = {shard:UInt64}');
    params.shard = f.shard;
  }
  if (f.seqno !== undefined) {
    if (!u32(f.seqno)) return null;
    where.push('seqno = {seqno:UInt32}');
    params.seqno = f.seqno;
    selective = true;
  }
  if (f.root_hash !== undefined) {
    where.push('(workchain, shard, seqno) IN (SELECT workchain, shard, seqno FROM blocks WHERE root_hash = {root_hash:String})');
    params.root_hash = f.root_hash;
    selective = true;
  }
  if (f.file_hash !== undefined) {
    where.push('(workchain, shard, seqno) IN (SELECT workchain, shard, seqno FROM blocks WHERE file_hash = {file_hash:String})');
    params.file_hash = f.file_hash;
    selective = true;
  }
  if (f.mc_seqno !== undefined) {
    if (!u32(f.mc_seqno)) return null;
    where.push('mc_block_seqno = {mc_seqno:UInt32}');
    params.mc_seqno = f.mc_seqno;
    selective = true;
  }
  if (f.start_utime !== undefined) {
    where.push('gen_utime >= {start_utime:UInt32}');
    params.start_utime = f.start_utime;
    selective = true;
  }
  if (f.end_utime !== undefined) {
    where.push('gen_utime <= {end_utime:UInt32}');
    params.end_utime = f.end_utime;
    selective = true;
  }
  // api-v3.md §1.2: both lt bounds filter on start_lt (sic).
  if (f.start_lt !== undefined) {
    where.push('start_lt >= {start_lt:UInt64}');
    params.start_lt = f.start_lt;
    selective = true;
  }
  if (f.end_lt !== undefined) {
    where.push('start_lt <= {end_lt:UInt64}');
    params.end_lt = f.end_lt;
    selective = true;
  }
  return { where, params, selective };
}

/**
 * /blocks: every filter ANDed, ordered by gen_utime (desc by default; TON Center applies no order at all without
 * `sort`, of which this is a valid instance). Without a selective filter the newest (or oldest) blocks are read
 * through a gen_utime window anchored at the masterchain head (or first block), widened until the page is full.
 */
export async function findBlocks(db: Db, req: Req, f: BlocksFilter, page: { limit: number; offset: number; sort: Sort }): Promise<BlockRecord[]> {
  const c = blockConditions(f);
  if (!c) return [];
  if (isSeqnoLookup(f)) return seqnoLookup(db, req, f, page);
  const dir = page.sort === 'asc' ? 'ASC' : 'DESC';
  const params: QueryParams = { ...c.params, limit: page.limit, offset: page.offset };
  const run = (where: string[]): Promise<BlockRow[]> =>
    query<BlockRow>(
      db,
      req,
      `SELECT * FROM blocks ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY gen_utime ${dir}, workchain, shard, seqno ${dir}, ${KNOWN_FIRST}
       ${ONE} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
      params,
    );
  if (c.selective) return (await run(c.where)).map(blockFromRow);

  const ends = await query<{ lo: number; hi: number; n: string }>(
    db,
    req,
    `SELECT
       (SELECT gen_utime FROM blocks WHERE ${MC} ORDER BY seqno ASC LIMIT 1) AS lo,
       (SELECT gen_utime FROM blocks WHERE ${MC} ORDER BY seqno DESC LIMIT 1) AS hi,
       (SELECT count() FROM (SELECT 1 FROM blocks WHERE ${MC} LIMIT 1)) AS n`,
  );
  const e = ends[0];
  if (!e || e.n === '0') {
    // No masterchain block at all (a store of lone shard blocks): small by construction, read it whole.
    return (await run(c.where)).map(blockFromRow);
  }
  // Shard blocks are generated around their masterchain block's time; a margin of a minute covers the skew.
  const lo = Number(e.lo) - 60;
  const hi = Number(e.hi) + 60;
  for (let width = 60; ; width *= 8) {
    const covered = width >= hi - lo;
    const where = [...c.where];
    if (!covered) {
      if (dir === 'DESC') {
        where.push('gen_utime >= {window_from:UInt32}');
        params.window_from = Math.max(0, hi - width);
      } else {
        where.push('gen_utime <= {window_to:UInt32}');
        params.window_to = lo + width;
      }
    }
    // A wider window only adds blocks after the ones already read, so a full page is the final page.
    const rows = await run(where);
    if (covered || rows.length >= page.limit) return rows.map(blockFromRow);
  }
}

/** A seqno, alone or with workchain and shard: the /blocks form that block explorers poll. */
function isSeqnoLookup(f: BlocksFilter): f is BlocksFilter & { seqno: number } {
  return (
    f.seqno !== undefined &&
    f.root_hash === undefined &&
    f.file_hash === undefined &&
    f.mc_seqno === undefined &&
    f.start_utime === undefined &&
    f.end_utime === undefined &&
    f.start_lt === undefined &&
    f.end_lt === undefined
  );
}

/**
 * {@link findBlocks} for a seqno lookup: the blocks of that seqno come from a statement shared with concurrent
 * lookups (batches.ts), then get the same filter, order (gen_utime, workchain, shard; seqno is fixed) and page
 * as the statement of the general path would give them.
 */
async function seqnoLookup(db: Db, req: Req, f: BlocksFilter & { seqno: number }, page: { limit: number; offset: number; sort: Sort }): Promise<BlockRecord[]> {
  const key = String(f.seqno);
  const rows = (await db.batches.blocksBySeqno.get([key], req)).get(key) ?? [];
  const dir = page.sort === 'asc' ? 1 : -1;
  return rows
    .filter((r) => (f.workchain === undefined || Number(r.workchain) === f.workchain) && (f.shard === undefined || String(r.shard) === f.shard))
    .sort((a, b) => dir * (Number(a.gen_utime) - Number(b.gen_utime)) || Number(a.workchain) - Number(b.workchain) || compareU64(String(a.shard), String(b.shard)))
    .slice(page.offset, page.offset + page.limit)
    .map(blockFromRow);
}

/** The blocks of each seqno of a batch (batches.ts), one row per block id (the one that knows its masterchain block). */
export async function readBlocksBySeqno(db: DbCore, req: Req, seqnos: readonly string[]): Promise<Map<string, BlockRow[]>> {
  const rows = await query<BlockRow>(db, req, `SELECT * FROM blocks WHERE seqno IN {seqnos:Array(UInt32)} ORDER BY ${KNOWN_FIRST} ${ONE}`, {
    seqnos: seqnos.map(Number),
  });
  return groupBy(rows, (r) => String(r.seqno));
}

/** The top shard blocks a masterchain block commits, ordered by workchain, shard, seqno (`shard_state.by_mc`). */
export async function shardState(db: Db, req: Req, mcSeqno: number): Promise<BlockRecord[]> {
  if (mcSeqno < 0 || mcSeqno > UINT32_MAX) return [];
  const rows = await query<BlockRow>(
    db,
    req,
    `SELECT * FROM blocks
     WHERE (workchain, shard, seqno) IN (SELECT workchain, shard, seqno FROM shard_state WHERE mc_seqno = {seqno:UInt32})
     ORDER BY workchain, shard, seqno, ${KNOWN_FIRST} ${ONE}`,
    { seqno: mcSeqno },
  );
  return rows.map(blockFromRow);
}

/** Every block committed by a masterchain block, itself included (`blocks.by_mc_seqno`). */
export async function blocksOfMasterchainBlock(db: Db, req: Req, mcSeqno: number, page: { limit: number; offset: number }): Promise<BlockRecord[]> {
  if (mcSeqno < 0 || mcSeqno > UINT32_MAX) return [];
  const rows = await query<BlockRow>(
    db,
    req,
    `SELECT * FROM blocks WHERE mc_block_seqno = {seqno:UInt32}
     ORDER BY workchain, shard, seqno ${ONE} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { seqno: mcSeqno, limit: page.limit, offset: page.offset },
  );
  return rows.map(blockFromRow);
}

/** A block by its id (`blocks.by_id`), optionally checked against its hashes. */
export async function blockById(
  db: Db,
  req: Req,
  id: { workchain: number; shard: string; seqno: number; root_hash?: string; file_hash?: string },
): Promise<BlockRecord | null> {
  return (await blockWithHeaderById(db, req, id))?.record ?? null;
}

/** {@link blockById} with the hashes only the v2 operations print ({@link BlockHeaderHashes}). */
export async function blockWithHeaderById(
  db: Db,
  req: Req,
  id: { workchain: number; shard: string; seqno: number; root_hash?: string; file_hash?: string },
): Promise<{ record: BlockRecord; header: BlockHeaderHashes } | null> {
  if (id.seqno < 0 || id.seqno > UINT32_MAX) return null;
  const where = ['workchain = {workchain:Int32}', 'shard = {shard:UInt64}', 'seqno = {seqno:UInt32}'];
  const params: QueryParams = { workchain: id.workchain, shard: id.shard, seqno: id.seqno };
  if (id.root_hash !== undefined) {
    where.push('root_hash = {root_hash:String}');
    params.root_hash = id.root_hash;
  }
  if (id.file_hash !== undefined) {
    where.push('file_hash = {file_hash:String}');
    params.file_hash = id.file_hash;
  }
  const rows = await query<BlockRow>(db, req, `SELECT * FROM blocks WHERE ${where.join(' AND ')} ORDER BY ${KNOWN_FIRST} ${ONE}`, params);
  return rows[0] ? { record: blockFromRow(rows[0]), header: headerHashesFromRow(rows[0]) } : null;
}

/** Does the store hold masterchain block `seqno`? */
export async function hasMasterchainBlock(db: Db, req: Req, seqno: number): Promise<boolean> {
  if (seqno < 0 || seqno > UINT32_MAX) return false;
  const rows = await query<{ n: string }>(db, req, `SELECT count() AS n FROM blocks WHERE ${MC} AND seqno = {seqno:UInt32}`, { seqno });
  return Number(rows[0]?.n ?? 0) > 0;
}
