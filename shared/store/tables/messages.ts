import { bigUint, bool, direction, extraCurrencies, hash44, int, nullable, type RowOf, table, text } from './columns.js';

/** `messages` (0003_messages.sql). Messages: one row per (transaction, direction, message); sentinels instead of NULL in projection keys ('' addresses, 0 created_lt/created_at). */
export const messages = table('messages', {
  tx_account: text(),
  tx_lt: bigUint('UInt64'),
  tx_hash: hash44(),
  direction: direction(),
  msg_hash: hash44(),
  hash_norm: nullable(hash44()),
  source: text(),
  destination: text(),
  value: nullable(bigUint('UInt128')),
  value_extra_currencies: extraCurrencies(),
  fwd_fee: nullable(bigUint('UInt128')),
  ihr_fee: nullable(bigUint('UInt128')),
  import_fee: nullable(bigUint('UInt64')),
  extra_flags: nullable(bigUint('UInt128')),
  created_lt: bigUint('UInt64'),
  created_at: int('UInt32'),
  opcode: nullable(int('Int32')),
  ihr_disabled: nullable(bool()),
  bounce: nullable(bool()),
  bounced: nullable(bool()),
  body_hash: hash44(),
  init_state_hash: nullable(hash44()),
});

export type MessageRow = RowOf<typeof messages.columns>;
