import { hash44, type RowOf, table } from './columns.js';

/** `message_hash_norms` (0003_messages.sql). Normalized hash → raw hash of the external-in messages where they differ. */
export const messageHashNorms = table('message_hash_norms', {
  hash_norm: hash44(),
  msg_hash: hash44(),
});

export type MessageHashNormRow = RowOf<typeof messageHashNorms.columns>;
