import { type StateBocColumns, withFullStates as fill } from '../../../shared/ton/cells/full-states.js';
import type { Db, Req } from './db.js';

/**
 * The gateway's side of shared/ton/cells/full-states.ts: every reader of account states (v3 accountStates,
 * walletStates, addressInformation, walletInformation, v2 getAddressInformation, the TVM's states) fills code and
 * data here, under the request's deadline. Readers select state rows without their BoC columns (a MergeTree point
 * read of those decompresses a granule of other accounts' BoCs); the BoCs come from `state_bocs` by code and data
 * hash (0028_state_bocs.sql, through the `stateBocs` batcher), and those it lacks (pruned by every state update
 * stored) are rebuilt from the cell store through the `cells` batcher, so concurrent requests share one statement
 * per tree level, with rebuilt code kept in the gateway's cache by code hash.
 */
export async function withFullStates<T extends StateBocColumns>(db: Db, req: Req, rows: ReadonlyMap<string, T>): Promise<Map<string, T>> {
  const wanted = new Set<string>();
  for (const r of rows.values()) {
    const codeHash = (r.code_hash as string | null | undefined) ?? null;
    const dataHash = (r.data_hash as string | null | undefined) ?? null;
    if (r.code_boc == null && codeHash !== null) wanted.add(codeHash);
    if (r.data_boc == null && dataHash !== null) wanted.add(dataHash);
  }
  const stored = wanted.size > 0 ? await db.batches.stateBocs.get(wanted, req) : new Map<string, string>();
  const filled = new Map<string, T>();
  for (const [key, r] of rows) {
    const codeHash = (r.code_hash as string | null | undefined) ?? null;
    const dataHash = (r.data_hash as string | null | undefined) ?? null;
    const code = (r.code_boc as string | null | undefined) ?? (codeHash !== null ? stored.get(codeHash) : undefined) ?? null;
    const data = (r.data_boc as string | null | undefined) ?? (dataHash !== null ? stored.get(dataHash) : undefined) ?? null;
    filled.set(key, code === r.code_boc && data === r.data_boc ? r : { ...r, code_boc: code, data_boc: data });
  }
  return fill(filled, (hashes) => db.batches.cells.get(hashes, req), { codeCache: db.caches.codeBocs });
}
