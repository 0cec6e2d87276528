import { type RowOf, table, text } from './columns.js';

/** `message_side_points` (0015_message_side_points.sql). `msg_hash|direction` → `tx_account|tx_lt` for internal and external-out messages, key → value; filled by a materialized view from `messages`. */
export const messageSidePoints = table('message_side_points', {
  key: text(),
  tx: text(),
});

export type MessageSidePointRow = RowOf<typeof messageSidePoints.columns>;
