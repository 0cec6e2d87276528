import { setTimeout as delay } from 'node:timers/promises';
import type { Producer } from '../../shared/bus/bus.js';
import { encodeAccountStates } from '../../shared/contracts/account-states.js';
import type { Logger } from '../../shared/runtime/logger.js';
import type { BlockSource } from '../../shared/sources/source.js';
import type { Store } from '../../shared/store/store.js';
import { blocks } from '../../shared/store/tables/blocks.js';
import { readCellRecords } from '../../shared/store/tables/cells.js';
import { latestAccountStates } from '../../shared/store/tables/latest-account-states.js';
import { transactions } from '../../shared/store/tables/transactions.js';
import { type CellRecord, rebuildBoc } from '../../shared/ton/cells/cells.js';
import { STATE_SNAPSHOT_FORMAT, STATE_SNAPSHOT_VERSION, type SnapshotAccount } from '../../shared/ton/state-snapshot.js';

/**
 * The fill path of full states: latest account states whose code or data the cell store (0025_cells.sql) cannot
 * rebuild, because no block carried those cells whole (an account deployed before the first indexed block), are
 * fetched once through the source's account-state port (BlockSource.accountStatesAt: the liteserver's proof-checked
 * `liteServer.getAccountState`, the devnet's own chain) at the block of their last transaction, and published as
 * account-state messages (shared/contracts/account-states.ts) on the raw-block topic: the decode stage, which owns
 * the account state tables and the cell store, writes their rows and cells like a snapshot's.
 *
 * The cell store is the cache by code hash: once one account's code is fetched, every account with that code hash
 * rebuilds it from the store, so a code is fetched once however many accounts run it (and a code hash found
 * rebuildable is remembered here, not checked again).
 */
export interface FillStatesDeps {
  store: Store;
  source: Required<Pick<BlockSource, 'accountStatesAt'>>;
  producer: Producer;
  /** The raw-block topic (the decode stage's). */
  topic: string;
  logger: Logger;
  signal: AbortSignal;
  /** Latest states looked at per round (default 256). */
  batch?: number;
  /** Pause between rounds (default 5000 ms). */
  intervalMs?: number;
  /** Longest wait for one block's account states from the source (default 60 s); then they are given up. */
  fetchTimeoutMs?: number;
}

/** Most code hashes remembered as rebuildable, and account states remembered as asked for. */
const MEMORY = 100_000;
/** Most cells one code or data may be rebuilt from (as the gateway's reads). */
const MAX_CELLS = 1 << 16;

interface Candidate {
  account: string;
  last_trans_lt: string;
  code_hash: string | null;
  data_hash: string | null;
  no_code: number | boolean;
  no_data: number | boolean;
}

export interface FillRound {
  /** Where the next round starts (the last account looked at; '' once the table is walked through). */
  after: string;
  /** States found without rebuildable code or data. */
  missing: number;
  /** States the source gave and that were published. */
  published: number;
}

/** A filler: rounds over `latest_account_states` by primary key, each asking the source for what is missing. */
export function createStateFiller(deps: FillStatesDeps) {
  const batch = deps.batch ?? 256;
  const rebuildableCodes = new Set<string>();
  const asked = new Set<string>();
  const remember = (set: Set<string>, key: string): void => {
    if (set.size >= MEMORY) set.clear();
    set.add(key);
  };
  const lookup = (hashes: string[]): Promise<Map<string, CellRecord>> => readCellRecords(deps.store, hashes);
  const rebuildable = async (hash: string): Promise<boolean> => {
    try {
      return (await rebuildBoc(hash, lookup, MAX_CELLS)) !== null;
    } catch {
      // A record that fails its hash check: the cells must come again.
      return false;
    }
  };

  /** One round from `after` (exclusive). */
  async function round(after: string): Promise<FillRound> {
    const rows = await deps.store.query<Candidate>(
      `SELECT account, last_trans_lt, code_hash, data_hash, code_boc IS NULL AS no_code, data_boc IS NULL AS no_data
       FROM ${latestAccountStates.name} FINAL
       WHERE account > {after:String} AND ((code_boc IS NULL AND code_hash IS NOT NULL) OR (data_boc IS NULL AND data_hash IS NOT NULL))
       ORDER BY account LIMIT {n:UInt32}`,
      { after, n: batch },
    );
    const missing: Candidate[] = [];
    for (const r of rows) {
      if (asked.has(`${r.account}|${r.last_trans_lt}`)) continue;
      let ok = true;
      if (r.no_code && r.code_hash !== null && !rebuildableCodes.has(r.code_hash)) {
        if (await rebuildable(r.code_hash)) remember(rebuildableCodes, r.code_hash);
        else ok = false;
      }
      if (ok && r.no_data && r.data_hash !== null && !(await rebuildable(r.data_hash))) ok = false;
      if (!ok) missing.push(r);
    }
    const published = missing.length > 0 ? await fetchAndPublish(missing) : 0;
    return { after: rows.length < batch ? '' : rows[rows.length - 1]!.account, missing: missing.length, published };
  }

  /** Fetches the states of `missing` at the blocks of their last transactions and publishes them. */
  async function fetchAndPublish(missing: Candidate[]): Promise<number> {
    const located = await deps.store.query<{ account: string; lt: string; block_workchain: number; block_shard: string; block_seqno: number }>(
      `SELECT account, lt, block_workchain, block_shard, block_seqno FROM ${transactions.name}
       WHERE account IN {accounts:Array(String)} AND toString(lt) IN {lts:Array(String)}`,
      { accounts: missing.map((m) => m.account), lts: missing.map((m) => m.last_trans_lt) },
    );
    const wanted = new Set(missing.map((m) => `${m.account}|${m.last_trans_lt}`));
    const byBlock = new Map<string, { workchain: number; shard: string; seqno: number; accounts: string[] }>();
    for (const t of located) {
      if (!wanted.has(`${t.account}|${t.lt}`)) continue;
      const key = `${t.block_workchain}:${t.block_shard}:${t.block_seqno}`;
      let b = byBlock.get(key);
      if (!b) byBlock.set(key, (b = { workchain: t.block_workchain, shard: t.block_shard, seqno: t.block_seqno, accounts: [] }));
      b.accounts.push(t.account);
    }
    // Asked once per state: a state the source cannot give (a liteserver without that block's state) is not asked again.
    for (const m of missing) remember(asked, `${m.account}|${m.last_trans_lt}`);
    let published = 0;
    for (const b of byBlock.values()) {
      const [block] = await deps.store.query<{ root_hash: string; file_hash: string; mc_block_seqno: number | null; gen_utime: number }>(
        `SELECT root_hash, file_hash, mc_block_seqno, gen_utime FROM ${blocks.name} FINAL
         WHERE workchain = {w:Int32} AND shard = {s:UInt64} AND seqno = {n:UInt32} LIMIT 1`,
        { w: b.workchain, s: b.shard, n: b.seqno },
      );
      if (!block) continue;
      const id = { workchain: b.workchain, shard: BigInt(b.shard).toString(16).toUpperCase(), seqno: b.seqno };
      let accounts: SnapshotAccount[];
      try {
        const signal = AbortSignal.any([deps.signal, AbortSignal.timeout(deps.fetchTimeoutMs ?? 60_000)]);
        accounts = await deps.source.accountStatesAt(
          { id, rootHash: Buffer.from(block.root_hash, 'base64'), fileHash: Buffer.from(block.file_hash, 'base64') },
          b.accounts,
          signal,
        );
      } catch (err) {
        if (deps.signal.aborted) throw err;
        deps.logger.warn({ err, block: id, accounts: b.accounts.length }, 'account states not available from the source; their code or data stays unknown');
        continue;
      }
      const messages = encodeAccountStates({
        format: STATE_SNAPSHOT_FORMAT,
        version: STATE_SNAPSHOT_VERSION,
        mc_seqno: block.mc_block_seqno ?? 0,
        gen_utime: block.gen_utime,
        accounts,
      });
      if (messages.length > 0) await deps.producer.send(deps.topic, messages);
      published += accounts.length;
    }
    return published;
  }

  return { round };
}

/** Runs the filler until `deps.signal` aborts: a round, a pause, the next round (a store error is logged and waited out). */
export async function runStateFill(deps: FillStatesDeps): Promise<void> {
  const filler = createStateFiller(deps);
  let after = '';
  while (!deps.signal.aborted) {
    try {
      const r = await filler.round(after);
      after = r.after;
      if (r.missing > 0) deps.logger.info({ missing: r.missing, published: r.published }, 'account states fetched for code or data no block carried');
    } catch (err) {
      if (deps.signal.aborted) return;
      deps.logger.warn({ err }, 'state fill round failed');
    }
    await delay(deps.intervalMs ?? 5000, undefined, { signal: deps.signal }).catch(() => {});
  }
}
