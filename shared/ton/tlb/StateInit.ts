import type { Slice } from '../boc/slice.js';

/**
 * `_ fixed_prefix_length:(Maybe (## 5)) special:(Maybe TickTock) code:(Maybe ^Cell) data:(Maybe ^Cell)
 * library:(Maybe ^Cell) = StateInit` (block.tlb). Code, data and library stay cell indices (-1 when absent).
 */
export interface StateInit {
  fixedPrefixLength: number | null;
  special: { tick: boolean; tock: boolean } | null;
  code: number;
  data: number;
  library: number;
}

export function loadStateInit(s: Slice): StateInit {
  const fixedPrefixLength = s.loadBit() ? s.loadUint(5) : null;
  const special = s.loadBit() ? { tick: s.loadBit(), tock: s.loadBit() } : null;
  return { fixedPrefixLength, special, code: s.loadMaybeRef(), data: s.loadMaybeRef(), library: s.loadMaybeRef() };
}
