import { JVAULT_UNSTAKE_JETTONS, JVAULT_UNSTAKE_REQUEST } from '../bodies/JVault.js';
import type { DerivedRole } from '../actions/interfaces.js';
import { bodySlice, loadAddr } from '../bodies/cell.js';

/**
 * JVault's `data_boc` extra facts (shared/ton/actions/jvault.ts reads them), requested the way TON Center's
 * classifier requests them (indexer/events/blocks/utils/address_selectors.py `extract_extra_accounts_data_requests`):
 *  - an account an `unstake_jettons` or `unstake_request` (bodies/JVault.ts) is sent to is a stake wallet: its data
 *    is read, and its first field is its pool, `pool:MsgAddress` (TON Center adds it as `pool`);
 *  - that pool's data is read in turn: `_:uint1 _:uint32 admin:MsgAddress creator:MsgAddress
 *    lock_wallet:MsgAddress ...` (the pool's jetton wallet of the staked jetton: `lock_wallet_address`), and the
 *    lock wallet is looked up as a jetton wallet, though no message of the trace may touch it.
 * JVault's contracts are not published: these layouts are the ones TON Center's reader assumes
 * (`derive_accounts_from_stake_wallet`, `derive_accounts_from_stake_pool`). Data in another layout yields no
 * extra facts (TON Center's readers swallow the error the same way), and the JVault matchers then leave the
 * unstake as its basic blocks.
 */

/** Opcodes of the messages that make their destination a JVault stake wallet whose data the classifier reads. */
const STAKE_WALLET_IN_OPS = new Set([JVAULT_UNSTAKE_JETTONS, JVAULT_UNSTAKE_REQUEST]);

export function isJVaultStakeWallet(inOps: ReadonlySet<number>): boolean {
  for (const op of inOps) if (STAKE_WALLET_IN_OPS.has(op)) return true;
  return false;
}

/** A stake wallet's `data_boc` entry: the data and the pool it names, or null when its data has no address first. */
export function jvaultStakeWalletData(dataBoc: string): { data_boc: string; pool: string } | null {
  try {
    const pool = loadAddr(bodySlice(dataBoc));
    return pool === null ? null : { data_boc: dataBoc, pool };
  } catch {
    return null;
  }
}

/** A pool's `data_boc` entry: the data and its lock wallet, or null when the data is not in the pool layout. */
export function jvaultPoolData(dataBoc: string): { data_boc: string; lock_wallet_address: string } | null {
  try {
    const s = bodySlice(dataBoc);
    s.skip(1 + 32);
    loadAddr(s);
    loadAddr(s);
    const lock = loadAddr(s);
    return lock === null ? null : { data_boc: dataBoc, lock_wallet_address: lock };
  } catch {
    return null;
  }
}

/**
 * The accounts an account's JVault facts name, with the role each then has in the same trace: a stake wallet's pool
 * (whose data is read next), a pool's lock wallet (a jetton wallet).
 */
export function jvaultNamedAccounts(extra: Record<string, Record<string, unknown>> | undefined): Array<[string, DerivedRole]> {
  const e = extra?.data_boc;
  if (!e) return [];
  const out: Array<[string, DerivedRole]> = [];
  if (typeof e.pool === 'string') out.push([e.pool, 'jvault_pool']);
  if (typeof e.lock_wallet_address === 'string') out.push([e.lock_wallet_address, 'jetton_wallet']);
  return out;
}
