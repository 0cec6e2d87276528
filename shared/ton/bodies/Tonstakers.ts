import type { Slice } from '../boc/slice.js';
import { loadAddr } from './cell.js';

/**
 * Tonstakers (liquid staking, tsTON) opcodes: `deposit#47d54391` (user → pool), `mint_jettons#1674b0a0` (pool →
 * tsTON minter, also the pool's withdrawal-NFT mint), `withdraw_request#319b0cdc` (minter → pool after a burn),
 * `pool_withdrawal#0a77535c` (immediate payout), `init_nft#132f9a45`, `nft_burn#f127fe4e`,
 * `burn_notification#ed58b0b2 query_id:uint64 amount:Coins owner:MsgAddress` (withdrawal NFT → payout),
 * `distributed_asset#db3b8abd` (the delayed payout), `start_distribution#1140a64f`.
 */
export const TS_DEPOSIT = 0x47d54391;
export const TS_MINT = 0x1674b0a0;
export const TS_WITHDRAW_REQUEST = 0x319b0cdc;
export const TS_POOL_WITHDRAWAL = 0x0a77535c;
export const TS_INIT_NFT = 0x132f9a45;
export const TS_NFT_BURN = 0xf127fe4e;
export const TS_NFT_BURN_NOTIFICATION = 0xed58b0b2;
export const TS_DISTRIBUTED_ASSET = 0xdb3b8abd;
export const TS_START_DISTRIBUTION = 0x1140a64f;
/** Nominator pool owner's `process_withdraw_requests#00000002`. */
export const NOMINATOR_PROCESS_WITHDRAWS = 0x2;

export function loadTsNftBurnNotification(s: Slice): { queryId: bigint; amount: bigint; owner: string | null } {
  s.loadUint(32);
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), owner: loadAddr(s) };
}
