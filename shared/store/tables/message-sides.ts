import { bigUint, direction, hash44, type RowOf, table, text } from './columns.js';

/** `message_sides` (0010_message_sides.sql, 0013, 0016). Message hash (or normalized hash) → the transactions of its sides; filled by materialized views from `messages`. */
export const messageSides = table('message_sides', {
  lookup_hash: hash44(),
  direction: direction(),
  tx_account: text(),
  tx_lt: bigUint('UInt64'),
});

export type MessageSideRow = RowOf<typeof messageSides.columns>;
