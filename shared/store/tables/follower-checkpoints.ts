import { bigUint, type RowOf, table, text } from './columns.js';

/** `follower_checkpoints` (0005_follower_checkpoints.sql). Where each follower source resumes. */
export const followerCheckpoints = table('follower_checkpoints', {
  source: text(),
  checkpoint: text(),
  updated_ms: bigUint('UInt64'),
});

export type FollowerCheckpointRow = RowOf<typeof followerCheckpoints.columns>;
