import type { Slice } from '../boc/slice.js';
import { loadStrictSnakeBytes } from './cell.js';

/**
 * A plain transfer's body: `text_comment#00000000 text:Snake` or `encrypted_comment#2167da4b data:Snake`.
 * A body of fewer than 32 bits has no comment; nor has one whose text is empty, or whose snake chain has a cell
 * that is not whole bytes or has more than one reference (TON Center's `TonTransferMessage` rule).
 */
export const TEXT_COMMENT = 0x00000000;
export const ENCRYPTED_COMMENT = 0x2167da4b;

export interface TransferComment {
  encrypted: boolean;
  comment: Uint8Array | null;
}

export function loadTransferComment(s: Slice): TransferComment {
  if (s.remainingBits < 32) return { encrypted: false, comment: null };
  const op = s.loadUint(32);
  const encrypted = op === ENCRYPTED_COMMENT;
  if (s.remainingBits < 8 || s.remainingBits % 8 !== 0 || s.remainingRefs > 1) return { encrypted, comment: null };
  try {
    return { encrypted, comment: loadStrictSnakeBytes(s) };
  } catch {
    return { encrypted, comment: null };
  }
}
