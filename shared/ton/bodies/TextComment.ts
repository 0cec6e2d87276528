import type { Slice } from '../boc/slice.js';
import { loadCommentText } from './cell.js';

/**
 * A plain transfer's body: `text_comment#00000000 text:Snake` or `encrypted_comment#2167da4b data:Snake`.
 * A body of fewer than 32 bits has no comment.
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
  return { encrypted: op === ENCRYPTED_COMMENT, comment: loadCommentText(s) };
}
