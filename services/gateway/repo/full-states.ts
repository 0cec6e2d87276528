import { readCellRecords } from '../../../shared/store/tables/cells.js';
import { type StateBocColumns, withFullStates as fill } from '../../../shared/ton/cells/full-states.js';
import type { DbCore, Req } from './db.js';

/**
 * The gateway's side of shared/ton/cells/full-states.ts: every reader of account states (v3 accountStates,
 * walletStates, addressInformation, walletInformation, v2 getAddressInformation, the TVM's states) fills the code
 * and data the state update pruned from the cell store here, under the request's deadline, with rebuilt code kept
 * in the gateway's cache by code hash.
 */
export function withFullStates<T extends StateBocColumns>(db: DbCore, req: Req, rows: ReadonlyMap<string, T>): Promise<Map<string, T>> {
  return fill(rows, (hashes) => readCellRecords(db.store, hashes, { timeoutMs: req.timeoutMs }), { codeCache: db.caches.codeBocs });
}
