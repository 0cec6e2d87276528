import type { Slice } from '../boc/slice.js';
import { loadAddr } from './cell.js';

/**
 * tgBTC (Telegram's BTC bridge) log messages, ext-out events of its contracts:
 * `mint#77a80ef3 amount:Coins recipient_address:MsgAddress bitcoin_txid:uint256`,
 * `burn#ca444ce6 amount:Coins sender_address:MsgAddress pegout_address:MsgAddress`,
 * `new_key#27756729 amount:Coins new_internal_pubkey:uint256 pegout_address:MsgAddress`,
 * `dkg_completed#453443a6 timestamp:uint64 internal_pubkey:uint256`;
 * and the internal opcodes of the mint chain (head `0x3f781d24`, tail `0xe42a879b`), of the burn path
 * (`0x587643a2`, `0xbe44e7a6`, `0x1a84c0e0`) and of a key rotation (`0x690f357a`).
 */
export const TGBTC_MINT_EVENT = 0x77a80ef3;
export const TGBTC_BURN_EVENT = 0xca444ce6;
export const TGBTC_NEW_KEY_EVENT = 0x27756729;
export const TGBTC_DKG_COMPLETED_EVENT = 0x453443a6;
export const TGBTC_MINT_HEAD = 0x3f781d24;
export const TGBTC_MINT_TAIL = 0xe42a879b;
export const TGBTC_BURN_ALT_NOTIFICATION = 0x587643a2;
export const TGBTC_PEGOUT = 0xbe44e7a6;
export const TGBTC_PEGOUT_NEXT = 0x1a84c0e0;
export const TGBTC_NEW_KEY_REQUEST = 0x690f357a;

export function loadTgBtcMintEvent(s: Slice): { amount: bigint; recipient: string | null; bitcoinTxid: bigint } {
  s.loadUint(32);
  return { amount: s.loadCoins(), recipient: loadAddr(s), bitcoinTxid: s.loadUintBig(256) };
}

export function loadTgBtcBurnEvent(s: Slice): { amount: bigint; sender: string | null; pegout: string | null } {
  s.loadUint(32);
  const amount = s.loadCoins();
  let sender: string | null = null;
  let pegout: string | null = null;
  try {
    sender = loadAddr(s);
    pegout = loadAddr(s);
  } catch {
    // Old burns log the amount only.
  }
  return { amount, sender, pegout };
}

export function loadTgBtcNewKeyEvent(s: Slice): { amount: bigint; pubkey: bigint; pegout: string | null } {
  s.loadUint(32);
  return { amount: s.loadCoins(), pubkey: s.loadUintBig(256), pegout: loadAddr(s) };
}

export function loadTgBtcDkgCompleted(s: Slice): { timestamp: bigint; pubkey: bigint } {
  s.loadUint(32);
  return { timestamp: s.loadUintBig(64), pubkey: s.loadUintBig(256) };
}
