import { bigUint, extraCurrencies, hash44, int, materialized, nullable, type RowOf, table, text } from './columns.js';

/** `account_states` (0004_account_states.sql). Every full account state the decoder recovered, by state hash. */
export const accountStates = table('account_states', {
  hash: hash44(),
  account: text(),
  last_trans_lt: bigUint('UInt64'),
  balance: bigUint('UInt128'),
  extra_currencies: extraCurrencies(),
  status: text('LowCardinality(String)'),
  frozen_hash: nullable(hash44()),
  data_hash: nullable(hash44()),
  code_hash: nullable(hash44()),
  data_boc: nullable(text()),
  code_boc: nullable(text()),
  version: materialized(int('UInt8')),
});

export type AccountStateRow = RowOf<typeof accountStates.columns>;

/**
 * The columns a transaction's AccountState record is made of (api-v3.md "AccountState"): what the gateway reads for
 * the states a transaction names, and what a transaction document carries of each state
 * (shared/contracts/transaction-document.ts).
 */
export const STATE_RECORD_COLUMNS = ['hash', 'balance', 'extra_currencies', 'status', 'frozen_hash', 'data_hash', 'code_hash'] as const satisfies ReadonlyArray<
  keyof AccountStateRow
>;
