import { bigUint, extraCurrencies, hash44, int, nullable, type RowOf, table, text } from './columns.js';

/** `latest_account_states` (0004_account_states.sql; 64 KiB granules since 0028). The newest state per account. */
export const latestAccountStates = table('latest_account_states', {
  account: text(),
  account_state_hash: hash44(),
  last_trans_lt: bigUint('UInt64'),
  last_trans_hash: hash44(),
  last_trans_now: int('UInt32'),
  balance: bigUint('UInt128'),
  extra_currencies: extraCurrencies(),
  status: text('LowCardinality(String)'),
  frozen_hash: nullable(hash44()),
  data_hash: nullable(hash44()),
  code_hash: nullable(hash44()),
  data_boc: nullable(text()),
  code_boc: nullable(text()),
});

export type LatestAccountStateRow = RowOf<typeof latestAccountStates.columns>;
