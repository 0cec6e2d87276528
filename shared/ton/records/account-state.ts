import type { Boc } from '../boc/reader.js';
import type { Account } from '../tlb/Account.js';
import { b64, extraCurrencies } from './format.js';
import type { V3AccountState } from './transaction.js';

/**
 * An AccountState record from an Account cell found in the block's state update (api-v3.md "AccountState").
 * Code and data hashes are the level-0 hashes, so they are right even where the update pruned those cells.
 */
export function accountStateRecord(boc: Boc, accountCell: number, account: Account): V3AccountState {
  const hash = b64(boc.hashAt(accountCell, 0));
  if (account.type === 'none') {
    return { hash, balance: '0', extra_currencies: {}, account_status: 'nonexist', frozen_hash: null, data_hash: null, code_hash: null };
  }
  const init = account.stateInit;
  return {
    hash,
    balance: account.balance.grams.toString(),
    extra_currencies: extraCurrencies(account.balance),
    account_status: account.status,
    frozen_hash: account.frozenHash ? b64(account.frozenHash) : null,
    data_hash: init && init.data >= 0 ? b64(boc.hashAt(init.data, 0)) : null,
    code_hash: init && init.code >= 0 ? b64(boc.hashAt(init.code, 0)) : null,
  };
}
