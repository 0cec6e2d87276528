import type { Logger } from '../../shared/runtime/logger.js';
import { retry } from '../../shared/runtime/retry.js';
import type { Store } from '../../shared/store/store.js';
import type { TableRows } from './decode.js';

/**
 * The order a batch's tables are written in: contents and states before the rows that point at them, blocks
 * last, so a reader that finds a block finds everything the block carries.
 */
export const TABLE_ORDER = [
  'message_contents',
  'message_hash_norms',
  'account_states',
  'messages',
  'transactions',
  'latest_account_states',
  'shard_state',
  'blocks',
] as const;

/**
 * Writes a batch's rows, table by table, retrying retryable store failures with backoff until they succeed or
 * the stage stops. Nothing is acknowledged (and so no offset committed) before every table has its rows.
 */
export function createStoreWriter(deps: { store: Store; logger: Logger }): (rows: TableRows, signal: AbortSignal) => Promise<void> {
  return async (rows, signal) => {
    const known = new Set<string>(TABLE_ORDER);
    for (const table of rows.keys()) if (!known.has(table)) throw new Error(`no write order for table ${table}`);
    for (const table of TABLE_ORDER) {
      const list = rows.get(table);
      if (!list || list.length === 0) continue;
      await retry(() => deps.store.insert(table, list), { what: `insert into ${table}`, signal, logger: deps.logger });
    }
  };
}
