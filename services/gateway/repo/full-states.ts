import { type CellRecord, rebuildBoc } from '../../../shared/ton/cells/cells.js';
import { cells } from '../../../shared/store/tables/cells.js';
import { type DbCore, type Req, query } from './db.js';

/**
 * Code and data of stored states, rebuilt from the cell store (0025_cells.sql) when the state row lacks them: a
 * block's state update prunes what the block did not change, so most rows hold only `code_hash`/`data_hash`. Every
 * reader of account states goes through here (v3 accountStates/walletStates/addressInformation/walletInformation,
 * v2 getAddressInformation, the TVM's states), so they agree on what is known.
 *
 * A code or data cell is rebuilt only when every one of its cells has been seen in some block; otherwise the BoC
 * stays null as before. Rebuilt code is cached by code hash (few distinct codes serve most accounts); data is not
 * (it changes with nearly every transaction).
 */

/** The columns of a state row this fills: hashes in, BoCs out. */
export interface StateBocColumns {
  code_hash?: unknown;
  data_hash?: unknown;
  code_boc?: unknown;
  data_boc?: unknown;
}

/** Most cells one code or data BoC may be rebuilt from: a state's cells are bounded by the protocol (≤ 2^16 per account in practice). */
const MAX_CELLS = 1 << 16;

/** `rows` with `code_boc`/`data_boc` filled from the cell store where null and their hash known (new objects; the input is not changed). */
export async function withFullStates<T extends StateBocColumns>(db: DbCore, req: Req, rows: ReadonlyMap<string, T>): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  const lookup = cellLookup(db, req);
  await Promise.all(
    [...rows].map(async ([key, r]) => {
      let code = (r.code_boc as string | null | undefined) ?? null;
      let data = (r.data_boc as string | null | undefined) ?? null;
      const codeHash = (r.code_hash as string | null | undefined) ?? null;
      const dataHash = (r.data_hash as string | null | undefined) ?? null;
      if (code === null && codeHash !== null) {
        code = db.caches.codeBocs.get(codeHash) ?? (await rebuild(codeHash, lookup));
        if (code !== null) db.caches.codeBocs.set(codeHash, code);
      }
      if (data === null && dataHash !== null) data = await rebuild(dataHash, lookup);
      out.set(key, code === r.code_boc && data === r.data_boc ? r : { ...r, code_boc: code, data_boc: data });
    }),
  );
  return out;
}

/** One BoC, or null: never seen whole, or a record that fails its hash check (a corrupt row must not fail the read). */
async function rebuild(hash: string, lookup: (h: string[]) => Promise<Map<string, CellRecord>>): Promise<string | null> {
  try {
    return await rebuildBoc(hash, lookup, MAX_CELLS);
  } catch {
    return null;
  }
}

/** Records by hex hash from `cells`, one statement per tree level. */
function cellLookup(db: DbCore, req: Req): (hashes: string[]) => Promise<Map<string, CellRecord>> {
  return async (hashes) => {
    const rows = await query<{ hash: string; record: string }>(db, req, `SELECT hash, record FROM ${cells.name} WHERE hash IN {hashes:Array(String)}`, { hashes });
    return new Map(rows.map((r) => [r.hash, new Uint8Array(Buffer.from(r.record, 'base64'))]));
  };
}
