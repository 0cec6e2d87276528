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

/** The key of a message row's transaction (`transactions`' (account, lt)). */
export const MESSAGE_TX_COLUMNS = ['tx_account', 'tx_lt'] as const satisfies ReadonlyArray<keyof MessageRow>;

/** A message row's side: its transaction and direction, what the gateway's lookups read to find a message's rows. */
export const MESSAGE_SIDE_COLUMNS = [...MESSAGE_TX_COLUMNS, 'direction'] as const satisfies ReadonlyArray<keyof MessageRow>;

/**
 * What a message is whichever side stores it: the columns of a /messages record (api-v3.md §1.9) besides its hash and
 * the transactions of its sides. Both rows of an internal message carry the same values.
 */
export const MESSAGE_FIELD_COLUMNS = [
  'hash_norm',
  'source',
  'destination',
  'value',
  'value_extra_currencies',
  'fwd_fee',
  'ihr_fee',
  'import_fee',
  'extra_flags',
  'created_lt',
  'created_at',
  'opcode',
  'ihr_disabled',
  'bounce',
  'bounced',
  'body_hash',
  'init_state_hash',
] as const satisfies ReadonlyArray<keyof MessageRow>;
