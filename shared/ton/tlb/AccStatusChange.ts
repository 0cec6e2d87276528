import type { Slice } from '../boc/slice.js';

/** `acst_unchanged$0`, `acst_frozen$10`, `acst_deleted$11` (block.tlb). */
export type AccStatusChange = 'unchanged' | 'frozen' | 'deleted';

export function loadAccStatusChange(s: Slice): AccStatusChange {
  if (!s.loadBit()) return 'unchanged';
  return s.loadBit() ? 'deleted' : 'frozen';
}
