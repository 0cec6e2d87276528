import type { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import type { TlbBuilder } from './builder.js';

/** `capabilities#c4 version:uint32 capabilities:uint64 = GlobalVersion` (block.tlb). */
export interface GlobalVersion {
  version: number;
  capabilities: bigint;
}

export function loadGlobalVersion(s: Slice): GlobalVersion {
  const tag = s.loadUint(8);
  if (tag !== 0xc4) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'GlobalVersion', `tag #${tag.toString(16)}`);
  return { version: s.loadUint(32), capabilities: s.loadUintBig(64) };
}

export function storeGlobalVersion<C>(v: GlobalVersion, b: TlbBuilder<C>): void {
  b.storeUint(0xc4, 8);
  b.storeUint(v.version, 32);
  b.storeUint(v.capabilities, 64);
}
