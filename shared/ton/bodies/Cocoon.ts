import type { Slice } from '../boc/slice.js';
import { rawAddress } from '../records/format.js';
import { loadAddr, refSlice } from './cell.js';

/**
 * Cocoon (Telegram's confidential AI compute network) messages (cocoon contracts' TL-B). Every message starts with
 * `op:uint32 query_id:uint64`; the fields the classifier reads follow:
 * payout payloads `#a040ad28` / last `#f5f26a36` and charge `#bb63ff93` / grant refund `#efd711e1` payloads
 * `new_tokens:uint64 expected_my_address:MsgAddress`; worker → proxy `#4d725d2c owner:MsgAddress state:uint2
 * tokens:uint64 payload:(Maybe ^Cell)`; client → proxy `#65448ff4 owner:MsgAddress state:^Cell payload:(Maybe
 * ^Cell)`, whose payload may be `refund_granted#c68ebc7b coins:Coins send_excesses_to:MsgAddress`; owner → client
 * `register#c45f9f3b nonce:uint64 send_excesses_to`, `change_secret_hash#a9357034 new_secret_hash:uint256
 * send_excesses_to`, `increase_stake#6a1f6a60 new_stake:Coins send_excesses_to`, `withdraw#da068e78
 * send_excesses_to`, `request_refund#fafa6cc1 send_excesses_to`; `ext_client_top_up#f172e6c2 top_up:Coins
 * send_excesses_to`; `ext_proxy_payout_request#7610e6eb send_excesses_to`; root `register_proxy#927c7cb5`,
 * `unregister_proxy#6d49eaf2 seqno:uint32`; `payout#c59a7cd3`, `return_excesses_back#2565934c`, and an owner
 * wallet's `send_message#9c69f376 mode:uint8 body:^Cell`.
 */
export const COCOON = {
  returnExcessesBack: 0x2565934c,
  payout: 0xc59a7cd3,
  workerProxyRequest: 0x4d725d2c,
  clientProxyRequest: 0x65448ff4,
  refundGranted: 0xc68ebc7b,
  payoutPayload: 0xa040ad28,
  lastPayoutPayload: 0xf5f26a36,
  registerProxy: 0x927c7cb5,
  unregisterProxy: 0x6d49eaf2,
  extProxyPayoutRequest: 0x7610e6eb,
  extClientTopUp: 0xf172e6c2,
  ownerClientRegister: 0xc45f9f3b,
  ownerClientChangeSecretHash: 0xa9357034,
  ownerClientIncreaseStake: 0x6a1f6a60,
  ownerClientWithdraw: 0xda068e78,
  ownerClientRequestRefund: 0xfafa6cc1,
  chargePayload: 0xbb63ff93,
  grantRefundPayload: 0xefd711e1,
  ownerWalletSendMessage: 0x9c69f376,
} as const;

/** op and query_id. */
export function loadCocoonHead(s: Slice): { op: number; queryId: bigint } {
  return { op: s.loadUint(32), queryId: s.loadUintBig(64) };
}

/**
 * `expected_my_address` as TON Center writes it: raw upper-case for an internal address, `<bits>;<hex>` for an
 * external one (the hex of its value, without leading zeros), null for none.
 */
export function loadCocoonExpectedAddress(s: Slice): string | null {
  const tag = s.preloadUint(2);
  if (tag === 1) {
    s.skip(2);
    const len = s.loadUint(9);
    return `${len};${s.loadUintBig(len).toString(16)}`;
  }
  if (tag === 2) {
    s.skip(2);
    if (s.loadBit()) s.skip(s.loadUint(5));
    const wc = s.loadInt(8);
    return rawAddress(wc, s.loadBytes(32));
  }
  return loadAddr(s);
}

/** Payout / charge / grant-refund payloads: `new_tokens:uint64 expected_my_address:MsgAddress`. */
export function loadCocoonTokensPayload(s: Slice): { op: number; queryId: bigint; newTokens: bigint; expectedAddress: string | null } {
  const h = loadCocoonHead(s);
  return { ...h, newTokens: s.loadUintBig(64), expectedAddress: loadCocoonExpectedAddress(s) };
}

export function loadCocoonWorkerProxyRequest(s: Slice): { owner: string | null; state: number; tokens: bigint } {
  loadCocoonHead(s);
  return { owner: loadAddr(s), state: s.loadUint(2), tokens: s.loadUintBig(64) };
}

/** The coins of a refund_granted payload of a client → proxy request, or null. */
export function loadCocoonRefundGranted(s: Slice): bigint | null {
  loadCocoonHead(s);
  loadAddr(s);
  s.loadRef();
  const p = s.loadMaybeRef();
  if (p < 0) return null;
  const r = refSlice(s, p);
  if (r.loadUint(32) !== COCOON.refundGranted) return null;
  return r.loadCoins();
}
