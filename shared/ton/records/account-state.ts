import type { Boc } from '../boc/reader.js';
import { serializeBoc } from '../boc/writer.js';
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

/** Code and data of an account state as BOCs (base64), each only when the state update holds the whole tree. */
export interface AccountStateBocs {
  code_boc: string | null;
  data_boc: string | null;
}

/**
 * The code and data BOCs of an Account from the state update, where complete: a Merkle update prunes every subtree
 * the block did not touch, and a pruned branch raises the level of each cell above it, so a tree whose root has
 * level 0 holds no pruned cell. A wallet's data changes with each of its transactions and is usually whole; code
 * is usually pruned (it is whole in the block that deploys it). TON Center stores them without CRC
 * (indexing-semantics §2.1).
 */
export function accountStateBocs(boc: Boc, account: Account): AccountStateBocs {
  if (account.type === 'none' || !account.stateInit) return { code_boc: null, data_boc: null };
  const whole = (cell: number): string | null =>
    cell >= 0 && boc.levelMask(cell) === 0 && !boc.isExotic(cell) ? b64(serializeBoc(boc, cell, { crc32: false })) : null;
  return { code_boc: whole(account.stateInit.code), data_boc: whole(account.stateInit.data) };
}
