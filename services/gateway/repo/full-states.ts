import { type StateBocColumns, withFullStates as fill } from '../../../shared/ton/cells/full-states.js';
import type { Db, Req } from './db.js';

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
