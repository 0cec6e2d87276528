import type { Store } from '../../shared/store/store.js';
import type { CheckpointStore } from './follow.js';

/**
 * The follower's resume point, kept in the store (table `follower_checkpoints`, one row per source name, newest
 * `updated_ms` wins) so it lives wherever the indexed data lives, in both modes.
 */
export function createStoreCheckpoints(store: Store, sourceName: string): CheckpointStore {
  // Versions must grow even for two saves within one millisecond.
  let last = 0;
  return {
    async load() {
      const rows = await store.query<{ checkpoint: string }>(
        'SELECT argMax(checkpoint, updated_ms) AS checkpoint FROM follower_checkpoints WHERE source = {source:String} GROUP BY source',
        { source: sourceName },
      );
      return rows[0]?.checkpoint ?? null;
    },
    async save(checkpoint) {
      last = Math.max(Date.now(), last + 1);
      await store.insert('follower_checkpoints', [{ source: sourceName, checkpoint, updated_ms: last }]);
    },
  };
}
