import { addressBookInterfaces as interfacesOf, parseWalletData, walletKind } from '../../../shared/ton/interfaces/wallets.js';
import { type Db, type DbCore, type Req, query } from './db.js';
import type { LatestAccountStateRow } from '../../../shared/store/tables/latest-account-states.js';
import type { AccountStatus } from './records.js';
import { withFullStates } from './full-states.js';

/**
 * Account reads (api-v3.md §2, §8): the newest state per account from `latest_account_states` by its primary
 * key (README acc.by_address), the richest accounts through its `by_balance` projection (acc.top_balance).
 *
 * The store's states come from block state updates, which prune code and data: `code_boc`/`data_boc` are rebuilt
 * from the cell store (repo/full-states.ts) when every cell of them has been seen in some block; otherwise they stay
 * NULL, so accountStates omits the BoCs and walletStates/walletInformation omit seqno and wallet_id for such accounts
 * (wallet type and every other field come from the hashes).
 */

/** Latest states of `accounts` (absent accounts are simply missing), keyed by raw address. */
export async function latestStates(db: Db, req: Req, accounts: readonly string[]): Promise<Map<string, LatestAccountStateRow>> {
  const states = await db.batches.latestStates.get(accounts, req);
  // Code hashes are what the address book needs: keep its cache warm.
  for (const [account, r] of states) db.caches.codeHashes.set(account, (r.code_hash) ?? null);
  // Code and data the state update pruned, rebuilt from the cells other blocks carried (repo/full-states.ts).
  return withFullStates(db, req, states);
}

/** {@link latestStates}' statement, for every account of a batch (batches.ts). */
export async function readLatestStates(db: DbCore, req: Req, accounts: readonly string[]): Promise<Map<string, LatestAccountStateRow>> {
  // Every row of the accounts, the newest kept here: the row FINAL would keep (ReplacingMergeTree(last_trans_lt)),
  // without the sort or the merge across parts in the engine, which cost a point read more than the rows they drop
  // (bench/RESULTS.md, bench tvm). Unmerged parts hold at most a few older rows of an account.
  const rows = await query<LatestAccountStateRow>(db, req, `SELECT * FROM latest_account_states WHERE account IN {accounts:Array(String)} SETTINGS ${db.store.pointReadSettings}`, {
    accounts,
  });
  const newest = new Map<string, LatestAccountStateRow>();
  for (const r of rows) {
    const account = String(r.account);
    const have = newest.get(account);
    if (!have || BigInt(r.last_trans_lt) > BigInt(have.last_trans_lt)) newest.set(account, r);
  }
  return newest;
}

/** The code hash of each account {@link latestStates} found: what its address book entry needs. */
export function codeHashesOf(states: ReadonlyMap<string, LatestAccountStateRow>): Map<string, string | null> {
  return new Map([...states].map(([account, r]) => [account, (r.code_hash) ?? null]));
}

export interface AccountStateFullRecord {
  address: string;
  account_state_hash: string;
  balance: string;
  extra_currencies: Record<string, string> | null;
  status: AccountStatus;
  frozen_hash?: string;
  last_transaction_hash: string | null;
  last_transaction_lt: string | null;
  data_hash?: string;
  code_hash?: string;
  data_boc?: string;
  code_boc?: string;
  contract_methods: number[] | null;
  interfaces: string[];
}

export function accountStateFull(r: LatestAccountStateRow, includeBoc: boolean): AccountStateFullRecord {
  const rec: AccountStateFullRecord = {
    address: String(r.account),
    account_state_hash: String(r.account_state_hash),
    balance: String(r.balance),
    extra_currencies: (r.extra_currencies) ?? {},
    status: String(r.status) as AccountStatus,
    last_transaction_hash: String(r.last_trans_hash),
    last_transaction_lt: String(r.last_trans_lt),
    contract_methods: null,
    interfaces: interfacesOf(r.code_hash),
  };
  // Wire order: frozen_hash after status, hashes and BoCs after the last transaction (omitted when null).
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) {
    if (k === 'last_transaction_hash' && r.frozen_hash !== null) out.frozen_hash = String(r.frozen_hash);
    if (k === 'contract_methods') {
      if (r.data_hash !== null) out.data_hash = String(r.data_hash);
      if (r.code_hash !== null) out.code_hash = String(r.code_hash);
      if (includeBoc && r.data_boc !== null) out.data_boc = String(r.data_boc);
      if (includeBoc && r.code_boc !== null) out.code_boc = String(r.code_boc);
    }
    out[k] = v;
  }
  return out as unknown as AccountStateFullRecord;
}

export interface WalletStateRecord {
  address: string;
  is_wallet: boolean;
  wallet_type?: string;
  seqno?: number;
  wallet_id?: number;
  is_signature_allowed?: boolean;
  balance: string;
  extra_currencies?: Record<string, string>;
  status: AccountStatus;
  code_hash: string | null;
  last_transaction_hash: string | null;
  last_transaction_lt: string | null;
}

export function walletState(r: LatestAccountStateRow): WalletStateRecord {
  const codeHash = (r.code_hash) ?? null;
  const kind = walletKind(codeHash);
  const data = kind ? parseWalletData(kind, r.data_boc) : {};
  const extra = (r.extra_currencies) ?? {};
  return {
    address: String(r.account),
    is_wallet: kind !== undefined,
    ...(kind ? { wallet_type: kind.type } : {}),
    ...(data.seqno !== undefined ? { seqno: data.seqno } : {}),
    ...(data.wallet_id !== undefined ? { wallet_id: data.wallet_id } : {}),
    ...(data.is_signature_allowed !== undefined ? { is_signature_allowed: data.is_signature_allowed } : {}),
    balance: String(r.balance),
    ...(Object.keys(extra).length > 0 ? { extra_currencies: extra } : {}),
    status: String(r.status) as AccountStatus,
    code_hash: codeHash,
    last_transaction_hash: String(r.last_trans_hash),
    last_transaction_lt: String(r.last_trans_lt),
  };
}

/**
 * The richest accounts (README acc.top_balance): candidates from the by_balance projection, confirmed against the
 * FINAL row (unmerged parts can still hold an account's older balance); the candidate set doubles until the page
 * is full or the table is exhausted.
 */
export async function topAccountsByBalance(db: Db, req: Req, page: { limit: number; offset: number }): Promise<Array<{ account: string; balance: string }>> {
  let total: number | null = null;
  for (let n = 2 * (page.offset + page.limit); ; n *= 2) {
    const rows = await query<{ account: string; balance: string }>(
      db,
      req,
      `SELECT account, balance FROM latest_account_states FINAL
       WHERE account IN (SELECT account FROM latest_account_states ORDER BY balance DESC LIMIT {n:UInt32})
       ORDER BY balance DESC, account
       LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
      { n, limit: page.limit, offset: page.offset },
    );
    if (rows.length < page.limit && total === null) {
      // count() of a MergeTree table comes from part metadata: no rows are read.
      const [c] = await query<{ n: string }>(db, req, 'SELECT count() AS n FROM latest_account_states');
      total = Number(c?.n ?? 0);
    }
    if (rows.length >= page.limit || n >= (total ?? Infinity)) return rows.map((r) => ({ account: r.account, balance: String(r.balance) }));
  }
}
