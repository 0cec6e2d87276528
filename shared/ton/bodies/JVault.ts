import type { Slice } from '../boc/slice.js';
import { rawAddress } from '../records/format.js';
import { walkHashmapE } from '../tlb/Hashmap.js';

/**
 * JVault staking (jvault.xyz) messages: user → stake wallet `unstake_jettons#499a9262 query_id:uint64
 * jettons_to_unstake:Coins force_unstake:Bool`, `unstake_request#0168d4b7 query_id:uint64 jettons_to_unstake:Coins`,
 * `claim_rewards#78d9f109 query_id:uint64 jettons_to_claim:(HashmapE 267 Bit)` (keys are MsgAddressStd of jetton
 * wallets); pool ↔ stake wallet `receive_jettons#d68a4ac1`, `request_update_rewards#f5c5baa3`,
 * `update_rewards#ae9307ce`, `send_claimed_rewards#44bc1fe3`, referrer updates `#55c35b40` / `#076ee4e0`,
 * `set_data#383411ea`, and a refused stake `#9eada1d9`. A stake's forward payload is `stake#_ op:uint32 period:uint32`.
 */
export const JVAULT_RECEIVE_JETTONS = 0xd68a4ac1;
export const JVAULT_UNSTAKE_JETTONS = 0x499a9262;
export const JVAULT_UNSTAKE_REQUEST = 0x0168d4b7;
export const JVAULT_CLAIM = 0x78d9f109;
export const JVAULT_SEND_CLAIMED_REWARDS = 0x44bc1fe3;
export const JVAULT_REQUEST_UPDATE_REWARDS = 0xf5c5baa3;
export const JVAULT_UPDATE_REWARDS = 0xae9307ce;
export const JVAULT_REQUEST_UPDATE_REFERRER = 0x55c35b40;
export const JVAULT_UPDATE_REFERRER = 0x076ee4e0;
export const JVAULT_SET_DATA = 0x383411ea;
export const JVAULT_STAKE_CANCELLED = 0x9eada1d9;

/** `query_id:uint64 jettons:Coins` after the opcode (unstake_jettons, unstake_request). */
export function loadJVaultUnstakeAmount(s: Slice): bigint {
  s.loadUint(32);
  s.loadUintBig(64);
  return s.loadCoins();
}

function keyAddress(key: Uint8Array): string {
  let wc = 0;
  for (let i = 3; i < 11; i++) wc = (wc << 1) | key[i]!;
  if (wc >= 128) wc -= 256;
  const hash = new Uint8Array(32);
  for (let i = 0; i < 256; i++) if (key[11 + i]) hash[i >> 3]! |= 0x80 >> (i & 7);
  return rawAddress(wc, hash);
}

export function loadJVaultClaim(s: Slice): { queryId: bigint; jettons: string[] } {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const jettons: string[] = [];
  walkHashmapE(s, 267, (_v, key) => jettons.push(keyAddress(key)));
  return { queryId, jettons };
}
