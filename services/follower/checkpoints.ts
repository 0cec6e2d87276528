import type { Logger } from '../../shared/runtime/logger.js';
import { retry } from '../../shared/runtime/retry.js';
import type { Store } from '../../shared/store/store.js';
import type { CheckpointStore } from './follow.js';

export interface StoreCheckpointsOptions {
  /** Stops the retries of a store outage (the service's shutdown signal). */
  signal?: AbortSignal;
  logger?: Logger;
}

/**
 * The follower's resume point, kept in the store (table `follower_checkpoints`, one row per source name, newest
 * `updated_ms` wins) so it lives wherever the indexed data lives, in both modes. A store outage is waited out with
 * backoff, as the decode stage waits out a failing insert: the follower neither dies on it nor skips a save.
 */
export function createStoreCheckpoints(store: Store, sourceName: string, opts: StoreCheckpointsOptions = {}): CheckpointStore {
  // Versions must grow even for two saves within one millisecond.
  let last = 0;
  const retrying = <T>(what: string, fn: () => Promise<T>): Promise<T> =>
    retry(fn, { what, maxMs: 5_000, ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.logger ? { logger: opts.logger } : {}) });
  return {
    load: () =>
      retrying('load follower checkpoint', async () => {
        const rows = await store.query<{ checkpoint: string }>(
          'SELECT argMax(checkpoint, updated_ms) AS checkpoint FROM follower_checkpoints WHERE source = {source:String} GROUP BY source',
          { source: sourceName },
        );
        return rows[0]?.checkpoint ?? null;
      }),
    save(checkpoint) {
      last = Math.max(Date.now(), last + 1);
      const row = { source: sourceName, checkpoint, updated_ms: last };
      return retrying('save follower checkpoint', () => store.insert('follower_checkpoints', [row]));
    },
  };
}
