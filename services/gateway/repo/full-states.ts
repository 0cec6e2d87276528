import { type StateBocColumns, withFullStates as fill } from '../../../shared/ton/cells/full-states.js';
import { readStateBocs } from '../../../shared/store/tables/state-bocs.js';
import type { Db, DbCore, Req } from './db.js';

/**
 * The gateway's side of shared/ton/cells/full-states.ts: every reader of account states (v3 accountStates,
 * walletStates, addressInformation, walletInformation, v2 getAddressInformation, the TVM's states) fills the code
 * and data the state update pruned from the cell store here, under the request's deadline, with rebuilt code kept
 * in the gateway's cache by code hash. Cell reads go through the `cells` batcher, so concurrent rebuilds share one
 * statement per tree level instead of one each.
 */
export function withFullStates<T extends StateBocColumns>(db: Db, req: Req, rows: ReadonlyMap<string, T>): Promise<Map<string, T>> {
  return fill(rows, (hashes) => db.batches.cells.get(hashes, req), { codeCache: db.caches.codeBocs });
}

/**
 * What a state reader selects instead of `code_boc`/`data_boc`: whether the row holds each. `IS NOT NULL` reads the
 * column's null map only, while the BoC column itself would decompress a granule of other accounts' BoCs (up to
 * 8,192 rows) for one row; {@link withStoredBocs} then takes the BoCs by hash from `state_bocs` (0028_state_bocs.sql).
 */
export const BOC_FLAGS = 'code_boc IS NOT NULL AS has_code_boc, data_boc IS NOT NULL AS has_data_boc';

export interface BocFlags {
  code_hash: string | null;
  data_hash: string | null;
  has_code_boc: unknown;
  has_data_boc: unknown;
}

export type WithBocs<T extends BocFlags> = Omit<T, 'has_code_boc' | 'has_data_boc'> & { code_boc: string | null; data_boc: string | null };

/**
 * `rows` (read with {@link BOC_FLAGS}) with the BoCs they hold, from `state_bocs` in one statement for all of them.
 * Every BoC either state table holds is there (its views and one-time copy); a hash it lacks all the same leaves
 * the BoC null, for {@link withFullStates} to rebuild from the cell store.
 */
export async function withStoredBocs<T extends BocFlags>(db: DbCore, req: Req, rows: readonly T[]): Promise<Array<WithBocs<T>>> {
  const has = (flag: unknown): boolean => Number(flag) === 1 || flag === true;
  const wanted = new Set<string>();
  for (const r of rows) {
    if (has(r.has_code_boc) && r.code_hash !== null) wanted.add(String(r.code_hash));
    if (has(r.has_data_boc) && r.data_hash !== null) wanted.add(String(r.data_hash));
  }
  const stored = await readStateBocs(db.store, [...wanted], { timeoutMs: req.timeoutMs });
  return rows.map(({ has_code_boc, has_data_boc, ...r }) => ({
    ...r,
    code_boc: has(has_code_boc) && r.code_hash !== null ? (stored.get(String(r.code_hash)) ?? null) : null,
    data_boc: has(has_data_boc) && r.data_hash !== null ? (stored.get(String(r.data_hash)) ?? null) : null,
  }));
}
