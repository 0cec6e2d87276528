import { actionAccounts } from '../../../shared/store/tables/action-accounts.js';
import { actionListing } from '../../../shared/store/tables/action-listing.js';
import { type ActionTableRow, actions as actionsTable } from '../../../shared/store/tables/actions.js';
import { selectList } from '../../../shared/store/tables/columns.js';
import { traceEnds } from '../../../shared/store/tables/trace-ends.js';
import { TRACE_TX_KEY_COLUMNS, type TraceTxKeyRow, traceTransactions } from '../../../shared/store/tables/trace-transactions.js';
import type { StoredAction } from '../../../shared/ton/actions/api.js';
import { type DbCore, type Req, query } from './db.js';
import type { Sort } from './records.js';

/**
 * /api/v3/actions (api-v3.md §3.1) and the actions of /api/v3/traces over what the action stage writes (services/
 * actions/stage.ts): `actions` (0023; key (trace_id, action_id), `by_action_id`) and 0026's index tables
 * `action_accounts` (key (account, trace_end_lt, trace_id, action_end_lt, action_id)) and `action_listing` (key
 * (trace_end_lt, trace_id, end_lt, action_id)).
 *
 * 1. a *lookup* returns the page's (trace_id, action_id) in TON Center's order, with the type filters and the
 *    supported_action_types rule applied before the page is cut: an account's actions from `action_accounts` in key
 *    order; by trace, transaction, message, action id or masterchain block from `actions` by its key (the traces
 *    found on `trace_transactions.by_tx`, `trace_ends.by_mc_seqno_end` or `by_action_id`); else `action_listing`
 *    in key order;
 * 2. the page's rows by `actions`' key: the stored row's JSON (`details`, shared/ton/actions/api.ts StoredAction).
 *
 * Which filters combine is TON Center's (ton-index-go `buildActionsQueryV2`): `trace_id` without `account` drops
 * every other filter, `action_id` every other but the version rule; the others all apply together (where TON Center
 * answers a 500 for `mc_seqno` with `account`, `tx_hash` or `msg_hash`, its query naming a table it did not join,
 * they apply too); a replaced row (ReplacingMergeTree before its merge) is read once (LIMIT 1 BY the key).
 */

export interface ActionFilter {
  account?: string;
  /** Transaction hashes: `tx_hash`, or the transactions of `msg_hash` (the route resolves messages). */
  txHashes?: string[];
  actionIds?: string[];
  traceIds?: string[];
  mcSeqno?: number;
  start_utime?: number;
  end_utime?: number;
  start_lt?: string;
  end_lt?: string;
  types?: string[];
  excludeTypes?: string[];
  /** The expanded supported_action_types (versioning.ts expandActionTypes). */
  supported: string[];
}

/** An action by `actions`' key. */
export type ActionKey = Pick<ActionTableRow, 'trace_id' | 'action_id'>;

const ACTION_KEY = selectList<ActionKey>(['trace_id', 'action_id']);

/** An action's key and its stored row's JSON (`details`). */
type ActionDetailsRow = Pick<ActionTableRow, 'trace_id' | 'action_id' | 'details'>;

const ACTION_DETAILS = selectList<ActionDetailsRow>(['trace_id', 'action_id', 'details']);

/** The page of `f`'s actions, in TON Center's order: keys only ({@link readActions} reads the rows). */
export async function findActionKeys(db: DbCore, req: Req, f: ActionFilter, page: { limit: number; offset: number; sort: Sort }): Promise<ActionKey[]> {
  const params: Record<string, unknown> = { limit: page.limit, offset: page.offset, supported: f.supported };
  const dir = page.sort === 'asc' ? 'ASC' : 'DESC';
  const byUtime = f.start_utime !== undefined || f.end_utime !== undefined;
  // The version rule: a supported type (unless action_type names the types), and no supported ancestor.
  const version = (typeCol: string, ancestorCol: string): string[] => [
    ...(f.types && f.types.length > 0 ? [] : [`${typeCol} IN {supported:Array(String)}`]),
    `NOT hasAny(${ancestorCol}, {supported:Array(String)})`,
  ];
  const typeFilters = (typeCol: string): string[] => {
    const out: string[] = [];
    if (f.types && f.types.length > 0) (params.types = f.types), out.push(`${typeCol} IN {types:Array(String)}`);
    if (f.excludeTypes && f.excludeTypes.length > 0) (params.excluded = f.excludeTypes), out.push(`${typeCol} NOT IN {excluded:Array(String)}`);
    return out;
  };
  const window = (lt: string, utime: string): string[] => {
    const out: string[] = [];
    if (f.start_utime !== undefined) (params.su = f.start_utime), out.push(`${utime} >= {su:UInt32}`);
    if (f.end_utime !== undefined) (params.eu = f.end_utime), out.push(`${utime} <= {eu:UInt32}`);
    if (f.start_lt !== undefined) (params.sl = f.start_lt), out.push(`${lt} >= {sl:UInt64}`);
    if (f.end_lt !== undefined) (params.el = f.end_lt), out.push(`${lt} <= {el:UInt64}`);
    return out;
  };

  let from: string;
  let where: string[];
  let order: string;
  if (f.account !== undefined && f.traceIds === undefined && f.actionIds === undefined && f.mcSeqno === undefined && f.txHashes === undefined) {
    // The account's feed, in key order (the utime order sorts the account's rows).
    params.account = f.account;
    from = actionAccounts.name;
    where = ['account = {account:String}', ...window('trace_end_lt', 'trace_end_utime'), ...typeFilters('type'), ...version('type', 'ancestor_type')];
    order = byUtime
      ? `trace_end_utime ${dir}, trace_id ${dir}, action_end_utime ${dir}, action_id ${dir}`
      : `trace_end_lt ${dir}, trace_id ${dir}, action_end_lt ${dir}, action_id ${dir}`;
  } else {
    from = actionsTable.name;
    order = byUtime
      ? `trace_end_utime ${dir}, trace_id ${dir}, end_utime ${dir}, action_id ${dir}`
      : `trace_end_lt ${dir}, trace_id ${dir}, end_lt ${dir}, action_id ${dir}`;
    if (f.traceIds !== undefined) {
      params.traceIds = f.traceIds;
      where = ['trace_id IN {traceIds:Array(String)}'];
      if (f.account !== undefined) {
        // With an account, the other filters stay (TON Center narrows action_accounts to the traces).
        params.account = f.account;
        where.push('has(accounts, {account:String})', ...window('trace_end_lt', 'trace_end_utime'), ...typeFilters('type'));
      }
    } else if (f.actionIds !== undefined) {
      params.actionIds = f.actionIds;
      where = [`trace_id IN (SELECT trace_id FROM ${actionsTable.name} WHERE action_id IN {actionIds:Array(String)})`, 'action_id IN {actionIds:Array(String)}'];
    } else if (f.mcSeqno !== undefined) {
      params.mc = f.mcSeqno;
      where = [
        `trace_id IN (SELECT trace_id FROM ${traceEnds.name} WHERE mc_seqno_end = {mc:UInt32})`,
        'trace_mc_seqno_end = {mc:UInt32}',
        ...window('trace_end_lt', 'trace_end_utime'),
        ...typeFilters('type'),
      ];
      if (f.txHashes !== undefined) (params.txHashes = f.txHashes), where.push('hasAny(tx_hashes, {txHashes:Array(String)})');
      if (f.account !== undefined) (params.account = f.account), where.push('has(accounts, {account:String})');
    } else if (f.txHashes !== undefined) {
      params.txHashes = f.txHashes;
      where = [
        `trace_id IN (SELECT trace_id FROM ${traceTransactions.name} WHERE tx_hash IN {txHashes:Array(String)})`,
        'hasAny(tx_hashes, {txHashes:Array(String)})',
        ...window('trace_end_lt', 'trace_end_utime'),
        ...typeFilters('type'),
      ];
      if (f.account !== undefined) (params.account = f.account), where.push('has(accounts, {account:String})');
    } else {
      // No id filter: 0026's action_listing, in its key order (by_trace_end_utime with a utime window).
      from = actionListing.name;
      where = [...window('trace_end_lt', 'trace_end_utime'), ...typeFilters('type')];
    }
    where.push(...version('type', 'ancestor_type'));
  }
  const rows = await query<ActionKey>(
    db,
    req,
    `SELECT ${ACTION_KEY} FROM ${from}
     ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY ${order}
     LIMIT 1 BY trace_id, action_id
     LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    params,
  );
  return rows;
}

/** The stored rows of `keys` (by `actions`' key), in the order of `keys`; a key without a row is left out. */
export async function readActions(db: DbCore, req: Req, keys: readonly ActionKey[]): Promise<StoredAction[]> {
  if (keys.length === 0) return [];
  const rows = await query<ActionDetailsRow>(
    db,
    req,
    `SELECT ${ACTION_DETAILS} FROM ${actionsTable.name}
     WHERE trace_id IN {traceIds:Array(String)} AND action_id IN {actionIds:Array(String)}
     LIMIT 1 BY trace_id, action_id`,
    { traceIds: [...new Set(keys.map((k) => k.trace_id))], actionIds: [...new Set(keys.map((k) => k.action_id))] },
  );
  const byKey = new Map(rows.map((r) => [`${r.trace_id}|${r.action_id}`, JSON.parse(r.details) as StoredAction]));
  return keys.flatMap((k) => byKey.get(`${k.trace_id}|${k.action_id}`) ?? []);
}

/**
 * The actions of `traceIds` a client with `supported` types is shown (ton-index-go's traces: supported types, no
 * supported ancestor), per trace in (start_lt, end_lt) order.
 */
export async function readTraceActions(db: DbCore, req: Req, traceIds: readonly string[], supported: readonly string[]): Promise<Map<string, StoredAction[]>> {
  const actions = new Map<string, StoredAction[]>();
  if (traceIds.length === 0) return actions;
  const rows = await query<ActionDetailsRow>(
    db,
    req,
    `SELECT ${ACTION_DETAILS} FROM ${actionsTable.name}
     WHERE trace_id IN {ids:Array(String)} AND type IN {supported:Array(String)} AND NOT hasAny(ancestor_type, {supported:Array(String)})
     LIMIT 1 BY trace_id, action_id`,
    { ids: traceIds, supported },
  );
  for (const r of rows) {
    let list = actions.get(r.trace_id);
    if (!list) actions.set(r.trace_id, (list = []));
    list.push(JSON.parse(r.details) as StoredAction);
  }
  const cmp = (a: string, b: string): number => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);
  for (const list of actions.values()) list.sort((a, b) => cmp(String(a.start_lt), String(b.start_lt)) || cmp(String(a.end_lt), String(b.end_lt)));
  return actions;
}

/** The (account, lt) of the transactions `txHashes` of the traces `traceIds` (trace_transactions' key). */
export async function actionTransactionKeys(db: DbCore, req: Req, traceIds: readonly string[], txHashes: readonly string[]): Promise<Map<string, { account: string; lt: string }>> {
  const out = new Map<string, { account: string; lt: string }>();
  if (traceIds.length === 0 || txHashes.length === 0) return out;
  const rows = await query<TraceTxKeyRow>(
    db,
    req,
    `SELECT ${selectList(TRACE_TX_KEY_COLUMNS)} FROM ${traceTransactions.name}
     WHERE trace_id IN {ids:Array(String)} AND tx_hash IN {hashes:Array(String)} LIMIT 1 BY tx_hash`,
    { ids: traceIds, hashes: txHashes },
  );
  for (const r of rows) out.set(r.tx_hash, { account: r.tx_account, lt: r.tx_lt });
  return out;
}
