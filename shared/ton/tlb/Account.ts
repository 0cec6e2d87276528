import type { Slice } from '../boc/slice.js';
import { type AccountStatus } from './AccountStatus.js';
import { type CurrencyCollection, loadCurrencyCollection } from './CurrencyCollection.js';
import { type MsgAddress, loadMsgAddressInt } from './MsgAddress.js';
import { type StateInit, loadStateInit } from './StateInit.js';
import { type StorageInfo, loadStorageInfo } from './StorageInfo.js';

/**
 * `account_none$0` / `account$1 addr:MsgAddressInt storage_stat:StorageInfo storage:AccountStorage`, with
 * `account_storage$_ last_trans_lt:uint64 balance:CurrencyCollection state:AccountState` and
 * `account_uninit$00`, `account_active$1 _:StateInit`, `account_frozen$01 state_hash:bits256` (block.tlb).
 */
export type Account =
  | { type: 'none' }
  | {
      type: 'account';
      addr: MsgAddress;
      storageStat: StorageInfo;
      lastTransLt: bigint;
      balance: CurrencyCollection;
      status: Exclude<AccountStatus, 'nonexist'>;
      /** For active accounts. */
      stateInit: StateInit | null;
      /** For frozen accounts. */
      frozenHash: Uint8Array | null;
    };

export function loadAccount(s: Slice): Account {
  if (!s.loadBit()) return { type: 'none' };
  const addr = loadMsgAddressInt(s);
  const storageStat = loadStorageInfo(s);
  const lastTransLt = s.loadUintBig(64);
  const balance = loadCurrencyCollection(s);
  if (s.loadBit()) {
    return { type: 'account', addr, storageStat, lastTransLt, balance, status: 'active', stateInit: loadStateInit(s), frozenHash: null };
  }
  if (s.loadBit()) {
    return { type: 'account', addr, storageStat, lastTransLt, balance, status: 'frozen', stateInit: null, frozenHash: s.loadBytes(32) };
  }
  return { type: 'account', addr, storageStat, lastTransLt, balance, status: 'uninit', stateInit: null, frozenHash: null };
}
