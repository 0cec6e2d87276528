import { Slice } from '../boc/slice.js';
import { type Account, loadAccount } from './Account.js';
import type { TlbBuilder } from './builder.js';

/** `account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64 = ShardAccount` (block.tlb). */
export interface ShardAccount {
  /** Cell index of the Account. */
  accountCell: number;
  account: Account;
  lastTransHash: Uint8Array;
  lastTransLt: bigint;
}

export function loadShardAccount(s: Slice): ShardAccount {
  const accountCell = s.loadRef();
  const account = loadAccount(new Slice(s.boc, accountCell));
  return { accountCell, account, lastTransHash: s.loadBytes(32), lastTransLt: s.loadUintBig(64) };
}

export function storeShardAccount<C>(sa: { account: C; lastTransHash: Uint8Array; lastTransLt: bigint }, b: TlbBuilder<C>): void {
  b.storeRef(sa.account);
  b.storeBytes(sa.lastTransHash);
  b.storeUint(sa.lastTransLt, 64);
}
