import { type CellLookup, type CellRecord, rebuildBoc } from './cells.js';

/**
 * Code and data of stored states, rebuilt from the cell store (0025_cells.sql, {@link rebuildBoc}) when the state
 * row lacks them: a block's state update prunes what the block did not change, so most rows hold only
 * `code_hash`/`data_hash`. The gateway's state readers (services/gateway/repo/full-states.ts) and the action
 * stage's interface reads (services/actions/read.ts) both fill their rows here, so they agree on what is known.
 *
 * A code or data cell is rebuilt only when every one of its cells has been seen in some block; otherwise the BoC
 * stays null as before. Rebuilt code may be cached by code hash (few distinct codes serve most accounts); data is
 * not (it changes with nearly every transaction).
 */

/** The columns of a state row this fills: hashes (base64, as the store keeps them) in, BoCs out. */
export interface StateBocColumns {
  code_hash?: unknown;
  data_hash?: unknown;
  code_boc?: unknown;
  data_boc?: unknown;
}

/** Rebuilt code BoCs by code hash; the caller bounds it (the gateway's is an LRU by size). */
export interface CodeBocCache {
  get(codeHash: string): string | undefined;
  set(codeHash: string, boc: string): void;
}

export interface FullStatesOptions {
  /** Which BoCs to fill (default both): a reader that needs only data skips rebuilding code. */
  code?: boolean;
  data?: boolean;
  codeCache?: CodeBocCache;
}

/** Most cells one code or data BoC may be rebuilt from: a state's cells are bounded by the protocol (≤ 2^16 per account in practice). */
const MAX_CELLS = 1 << 16;

/**
 * `rows` with `code_boc`/`data_boc` filled from the cell store where null and their hash known (new objects; the
 * input is not changed). `lookup` reads records by hex hash (shared/store/tables/cells.ts `readCellRecords`).
 */
export async function withFullStates<T extends StateBocColumns>(rows: ReadonlyMap<string, T>, lookup: CellLookup, opts: FullStatesOptions = {}): Promise<Map<string, T>> {
  const fillCode = opts.code ?? true;
  const fillData = opts.data ?? true;
  const out = new Map<string, T>();
  const merged = coalesced(lookup);
  await Promise.all(
    [...rows].map(async ([key, r]) => {
      let code = (r.code_boc as string | null | undefined) ?? null;
      let data = (r.data_boc as string | null | undefined) ?? null;
      const codeHash = (r.code_hash as string | null | undefined) ?? null;
      const dataHash = (r.data_hash as string | null | undefined) ?? null;
      // Code and data side by side: each tree level of both is one round of lookups, so a state that needs both
      // costs as many rounds as its deeper tree, not the sum of the two depths.
      const [rebuiltCode, rebuiltData] = await Promise.all([
        fillCode && code === null && codeHash !== null ? (opts.codeCache?.get(codeHash) ?? rebuild(codeHash, merged)) : code,
        fillData && data === null && dataHash !== null ? rebuild(dataHash, merged) : data,
      ]);
      if (rebuiltCode !== null && rebuiltCode !== code && codeHash !== null) opts.codeCache?.set(codeHash, rebuiltCode);
      code = rebuiltCode;
      data = rebuiltData;
      out.set(key, code === (r.code_boc ?? null) && data === (r.data_boc ?? null) ? r : { ...r, code_boc: code, data_boc: data });
    }),
  );
  return out;
}

/**
 * `lookup`, with the calls made in one turn of the microtask queue merged into one: the trees rebuilt side by side
 * (code and data, several rows) ask for their next level at about the same time, and one lookup serves them all.
 */
function coalesced(lookup: CellLookup): CellLookup {
  let round: { hashes: Set<string>; done: Promise<Map<string, CellRecord>> } | null = null;
  return (hashes) => {
    if (!round) {
      const r = { hashes: new Set<string>(), done: null as unknown as Promise<Map<string, CellRecord>> };
      // Runs after the callers already queued in this turn have added their hashes.
      r.done = Promise.resolve().then(() => {
        round = null;
        return lookup([...r.hashes]);
      });
      round = r;
    }
    for (const h of hashes) round.hashes.add(h);
    return round.done;
  };
}

/**
 * One BoC, or null: never seen whole, or a record that fails its hash check (a corrupt row must not fail the
 * read). A failing lookup (the store unavailable, a statement timeout) is the caller's error, not an unknown state:
 * the action stage must retry rather than classify without the account's data.
 */
async function rebuild(hash: string, lookup: CellLookup): Promise<string | null> {
  const lookupFailure: { failed: boolean; error: unknown } = { failed: false, error: undefined };
  const guarded: CellLookup = async (hashes) => {
    try {
      return await lookup(hashes);
    } catch (error) {
      lookupFailure.failed = true;
      lookupFailure.error = error;
      throw error;
    }
  };
  try {
    return await rebuildBoc(hash, guarded, MAX_CELLS);
  } catch {
    if (lookupFailure.failed) throw lookupFailure.error;
    return null;
  }
}
