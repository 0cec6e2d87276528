import type { Slice } from '../boc/slice.js';
import { loadAddr, loadEitherSlice, loadMaybeRefSlice, loadStrictSnakeBytes, sliceToBocBase64 } from './cell.js';

/**
 * TEP-74 `transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress
 * response_destination:MsgAddress custom_payload:(Maybe ^Cell) forward_ton_amount:(VarUInteger 16)
 * forward_payload:(Either Cell ^Cell) = InternalMsgBody`. The forward payload is also read as a text comment
 * (`0x00000000`), an encrypted comment (`0x2167da4b`) or a STON.fi v1 swap (`swap#25938561 token_wallet min_out
 * to_address`), the three payloads the classifier looks into.
 */
export const JETTON_TRANSFER = 0x0f8a7ea5;

export interface JettonTransfer {
  queryId: bigint;
  amount: bigint;
  destination: string | null;
  response: string | null;
  customPayload: string | null;
  forwardAmount: bigint;
  forwardPayload: string | null;
  comment: Uint8Array | null;
  encryptedComment: boolean;
  stonfiSwap: { jettonWallet: string | null; minAmount: bigint; userAddress: string | null } | null;
}

export function loadJettonTransfer(s: Slice): JettonTransfer {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const destination = loadAddr(s);
  const response = loadAddr(s);
  const custom = loadMaybeRefSlice(s);
  const forwardAmount = s.loadCoins();
  const out: JettonTransfer = {
    queryId,
    amount,
    destination,
    response,
    customPayload: custom ? sliceToBocBase64(custom) : null,
    forwardAmount,
    forwardPayload: null,
    comment: null,
    encryptedComment: false,
    stonfiSwap: null,
  };
  const payload = s.remainingBits > 0 ? loadEitherSlice(s) : null;
  if (payload === null || payload.remainingBits === 0) return out;
  out.forwardPayload = sliceToBocBase64(payload);
  readForwardPayload(payload, out);
  return out;
}

/**
 * Comment / STON.fi swap recognition of a forward payload (errors leave the fields unset). A comment is snake text
 * read strictly: a chain cell that is not whole bytes or has more than one reference leaves no comment at all, as
 * TON Center's reader rejects it.
 */
function readForwardPayload(p: Slice, out: JettonTransfer): void {
  if (p.remainingBits < 32) return;
  try {
    const op = p.loadUint(32);
    if (op === 0) out.comment = loadStrictSnakeBytes(p);
    else if (op === 0x2167da4b) {
      out.comment = loadStrictSnakeBytes(p);
      out.encryptedComment = true;
    } else if (op === 0x25938561) {
      out.stonfiSwap = { jettonWallet: loadAddr(p), minAmount: p.loadCoins(), userAddress: loadAddr(p) };
    }
  } catch {
    // An unparseable payload is kept as a BOC only.
  }
}
