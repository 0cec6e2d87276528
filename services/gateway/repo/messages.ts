import type { QueryParams } from '../../../shared/store/store.js';
import { blocks } from '../../../shared/store/tables/blocks.js';
import { selectList } from '../../../shared/store/tables/columns.js';
import { messageHashNorms } from '../../../shared/store/tables/message-hash-norms.js';
import { MESSAGE_FIELD_COLUMNS, MESSAGE_SIDE_COLUMNS, messages } from '../../../shared/store/tables/messages.js';
import { type Db, type Req, loadContents, query } from './db.js';
import { type MessageRecord, type Row, type Sort, messageFromRow } from './records.js';

/**
 * /messages (api-v3.md §1.9): one row per distinct message, with the transaction that received it
 * (`in_msg_tx_hash`) and the one that sent it (`out_msg_tx_hash`). README paths msg.by_hash, msg.by_body_hash,
 * msg.by_source, msg.by_destination, msg.by_opcode, msg.by_created_lt, msg.by_created_at, msg.latest: the lookup
 * reads (tx_account, tx_lt, direction) keys from the projection of the most selective filter, applying there every
 * condition that projection can evaluate; the fetch groups the message rows of those keys by hash, applies every
 * condition again (a key also brings its transaction's other messages) and orders the page. Replayed rows are
 * identical copies, which the grouping absorbs, so the fetch needs no FINAL.
 */

export interface MsgFilter {
  msg_hashes?: string[];
  body_hash?: string;
  /** '' = none (external-in). */
  source?: string;
  /** '' = none (external-out). */
  destination?: string;
  opcode?: number;
  start_utime?: number;
  end_utime?: number;
  start_lt?: string;
  end_lt?: string;
  direction?: 'in' | 'out';
  exclude_externals?: boolean;
  only_externals?: boolean;
}

export interface MsgCursor {
  /** created_lt (or created_at when ordered by time) of the last message. */
  key: string;
  hash: string;
}

export interface MsgPage {
  limit: number;
  offset: number;
  sort: Sort;
  cursor?: MsgCursor;
}

export interface MsgResult {
  messages: MessageRecord[];
  next: MsgCursor | null;
}

interface Cond {
  sql: string;
  /** Columns the condition reads (to know which projection can evaluate it). */
  cols: string[];
}

/** Columns of each lookup source: the projections of 0003_messages.sql, in order of preference. */
const SOURCES: Array<{ name: string; key: string; cols: string[]; ordered: boolean }> = [
  { name: 'by_hash', key: 'msg_hash', cols: ['msg_hash', 'direction'], ordered: false },
  { name: 'by_body_hash', key: 'body_hash', cols: ['body_hash', 'direction'], ordered: false },
  { name: 'by_source', key: 'source', cols: ['source', 'created_lt', 'direction'], ordered: true },
  { name: 'by_destination', key: 'destination', cols: ['destination', 'created_lt', 'direction'], ordered: true },
  { name: 'by_opcode', key: 'opcode', cols: ['opcode', 'created_lt', 'direction'], ordered: true },
  { name: 'by_created_lt', key: 'created_lt', cols: ['created_lt', 'created_at', 'direction'], ordered: true },
];

/**
 * The message's own columns, one value per message (its rows agree on them), prefixed `m_` so that no alias shadows
 * the column a condition reads.
 */
const FIELDS = MESSAGE_FIELD_COLUMNS.map((c) => `any(${c}) AS m_${c}`).join(', ');

export async function findMessages(db: Db, req: Req, f: MsgFilter, page: MsgPage): Promise<MsgResult> {
  const params: QueryParams = { limit: page.limit, offset: page.cursor ? 0 : page.offset };
  const conds: Cond[] = [];
  const byTime = f.start_utime !== undefined || f.end_utime !== undefined;
  const orderCol = byTime ? 'created_at' : 'created_lt';

  if (f.msg_hashes && f.msg_hashes.length > 0) {
    params.msg_hashes = f.msg_hashes;
    conds.push({
      sql: `msg_hash IN (SELECT arrayJoin({msg_hashes:Array(String)}) UNION ALL SELECT msg_hash FROM ${messageHashNorms.name} WHERE hash_norm IN {msg_hashes:Array(String)})`,
      cols: ['msg_hash'],
    });
  }
  if (f.body_hash !== undefined) {
    params.body_hash = f.body_hash;
    conds.push({ sql: 'body_hash = {body_hash:String}', cols: ['body_hash'] });
  }
  if (f.source !== undefined) {
    params.source = f.source;
    conds.push({ sql: 'source = {source:String}', cols: ['source'] });
  }
  if (f.destination !== undefined) {
    params.destination = f.destination;
    conds.push({ sql: 'destination = {destination:String}', cols: ['destination'] });
  }
  if (f.opcode !== undefined) {
    params.opcode = f.opcode;
    conds.push({ sql: 'opcode = {opcode:Int32}', cols: ['opcode'] });
  }
  if (f.start_lt !== undefined) {
    params.start_lt = f.start_lt;
    conds.push({ sql: 'created_lt >= {start_lt:UInt64}', cols: ['created_lt'] });
  }
  if (f.end_lt !== undefined) {
    params.end_lt = f.end_lt;
    conds.push({ sql: 'created_lt <= {end_lt:UInt64}', cols: ['created_lt'] });
  }
  if (byTime) {
    const w: string[] = [];
    if (f.start_utime !== undefined) {
      params.start_utime = f.start_utime;
      conds.push({ sql: 'created_at >= {start_utime:UInt32}', cols: ['created_at'] });
      w.push('gen_utime >= {start_utime:UInt32}');
    }
    if (f.end_utime !== undefined) {
      params.end_utime = f.end_utime;
      conds.push({ sql: 'created_at <= {end_utime:UInt32}', cols: ['created_at'] });
      w.push('gen_utime <= {end_utime:UInt32}');
    }
    // README msg.by_created_at: a message's created_at/created_lt are its creating block's, so the utime window
    // is an lt window through `blocks`. External-in messages (created_lt 0) are outside any window: they have
    // no created_at either, so the utime filter excludes them anyway.
    conds.push({ sql: `created_lt >= (SELECT min(start_lt) FROM ${blocks.name} WHERE ${w.join(' AND ')})`, cols: ['created_lt'] });
    conds.push({ sql: `created_lt <= (SELECT max(end_lt) FROM ${blocks.name} WHERE ${w.join(' AND ')})`, cols: ['created_lt'] });
  }
  if (f.direction !== undefined) {
    params.direction = f.direction;
    conds.push({ sql: 'direction = {direction:String}', cols: ['direction'] });
  }
  // "Externals" are the messages whose order column is NULL: external-in ones (api-v3.md §1.9), stored as 0.
  if (f.exclude_externals === true) conds.push({ sql: `${orderCol} != 0`, cols: [orderCol] });
  if (f.only_externals === true) {
    conds.push({ sql: `${orderCol} = 0`, cols: [orderCol] });
    // The same set seen from the source column, which the by_source projection can look up.
    if (f.source === undefined) conds.push({ sql: "source = ''", cols: ['source'] });
  }

  const s = page.sort === 'asc' ? 'ASC' : 'DESC';
  const cmp = page.sort === 'asc' ? '>' : '<';
  if (page.cursor) {
    params.c_key = page.cursor.key;
    params.c_hash = page.cursor.hash;
    const t = byTime ? 'UInt32' : 'UInt64';
    conds.push({ sql: `${orderCol} ${cmp}= {c_key:${t}}`, cols: [orderCol] });
    conds.push({ sql: `(${orderCol} ${cmp} {c_key:${t}} OR msg_hash ${cmp} {c_hash:String})`, cols: [orderCol, 'msg_hash'] });
  }

  // The lookup source: the first projection whose key some condition constrains, or created_lt (the newest).
  const source = SOURCES.find((src) => conds.some((c) => c.cols.length === 1 && c.cols[0] === src.key)) ?? SOURCES[SOURCES.length - 1]!;
  const inLookup = conds.filter((c) => c.cols.every((col) => source.cols.includes(col)));
  const complete = inLookup.length === conds.length;
  // Each message has up to two rows (its `in` and `out` sides): twice the page of keys covers the page, and WITH
  // TIES keeps every row that shares the last order value (the fetch breaks those ties by hash).
  const limited = source.ordered && complete && source.cols.includes(orderCol);
  params.n = 2 * ((page.cursor ? 0 : page.offset) + page.limit);
  const side = selectList(MESSAGE_SIDE_COLUMNS);
  const lookup = `SELECT ${side} FROM ${messages.name}
    ${inLookup.length ? `WHERE ${inLookup.map((c) => c.sql).join(' AND ')}` : ''}
    ${limited ? `ORDER BY ${orderCol} ${s} LIMIT {n:UInt32} WITH TIES` : ''}`;

  const rows = await query(
    db,
    req,
    `SELECT msg_hash AS m_hash, ${FIELDS},
            anyIf(toNullable(tx_hash), direction = 'in') AS m_in_tx, anyIf(toNullable(tx_hash), direction = 'out') AS m_out_tx
     FROM ${messages.name}
     WHERE (${side}) IN (${lookup})
       ${conds.length ? `AND ${conds.map((c) => c.sql).join(' AND ')}` : ''}
     GROUP BY msg_hash
     ORDER BY m_${orderCol} ${s}, m_hash ${s}
     LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    params,
  );
  const unprefixed = rows.map((r) => {
    const o: Row = {};
    for (const [k, v] of Object.entries(r)) o[k.slice(2)] = v;
    o.msg_hash = o.hash;
    return o;
  });
  const contents = await loadContents(
    db,
    req,
    unprefixed.flatMap((r) => [String(r.body_hash), ...(r.init_state_hash === null ? [] : [String(r.init_state_hash)])]),
  );
  const records = unprefixed.map((r) => messageFromRow(r, contents, { in: r.in_tx, out: r.out_tx }));
  const last = unprefixed[unprefixed.length - 1];
  const next = rows.length === page.limit && last ? { key: String(last[orderCol]), hash: String(last.msg_hash) } : null;
  return { messages: records, next };
}
