import type { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';

/**
 * `MsgAddressInt` / `MsgAddressExt` (block.tlb `addr_none$00`, `addr_extern$01`, `addr_std$10`, `addr_var$11`).
 * For `addr_std` the anycast rewrite is applied as TON Center does (indexing-semantics §3.1): the first `depth`
 * bits of the address are replaced by `rewrite_pfx`.
 */
export type MsgAddress =
  | { type: 'none' }
  | { type: 'extern'; bits: number; data: Uint8Array }
  | { type: 'std'; workchain: number; hash: Uint8Array }
  | { type: 'var'; workchain: number; bits: number; data: Uint8Array };

const NONE: MsgAddress = { type: 'none' };

export function loadMsgAddress(s: Slice): MsgAddress {
  const tag = s.loadUint(2);
  switch (tag) {
    case 0:
      return NONE;
    case 1: {
      const len = s.loadUint(9);
      const data = new Uint8Array((len + 7) >> 3);
      s.copyBits(s.pos, len, data, 0);
      s.skip(len);
      return { type: 'extern', bits: len, data };
    }
    case 2: {
      const anycast = s.loadBit() ? loadAnycast(s) : null;
      const workchain = s.loadInt(8);
      let hash = s.loadBytes(32);
      if (anycast) hash = rewrite(hash, anycast);
      return { type: 'std', workchain, hash };
    }
    default: {
      const anycast = s.loadBit() ? loadAnycast(s) : null;
      const len = s.loadUint(9);
      const workchain = s.loadInt(32);
      const data = new Uint8Array((len + 7) >> 3);
      s.copyBits(s.pos, len, data, 0);
      s.skip(len);
      return { type: 'var', workchain, bits: len, data: anycast ? rewrite(data, anycast) : data };
    }
  }
}

/** `MsgAddressInt`: only `addr_std` / `addr_var` are valid. */
export function loadMsgAddressInt(s: Slice): MsgAddress {
  const a = loadMsgAddress(s);
  if (a.type === 'none' || a.type === 'extern') throw tlbError('TLB_INVALID', 'MsgAddressInt', `got ${a.type} address`);
  return a;
}

/** `MsgAddressExt`: only `addr_none` / `addr_extern` are valid. */
export function loadMsgAddressExt(s: Slice): MsgAddress {
  const a = loadMsgAddress(s);
  if (a.type === 'std' || a.type === 'var') throw tlbError('TLB_INVALID', 'MsgAddressExt', `got ${a.type} address`);
  return a;
}

/** `anycast_info$_ depth:(#<= 30) { depth >= 1 } rewrite_pfx:(bits depth)`. */
function loadAnycast(s: Slice): { depth: number; pfx: Uint8Array } {
  const depth = s.loadUint(5);
  if (depth < 1) throw tlbError('TLB_INVALID', 'Anycast', 'depth must be >= 1');
  const pfx = new Uint8Array(4);
  s.copyBits(s.pos, depth, pfx, 0);
  s.skip(depth);
  return { depth, pfx };
}

function rewrite(addr: Uint8Array, a: { depth: number; pfx: Uint8Array }): Uint8Array {
  const out = addr.slice();
  for (let i = 0; i < a.depth; i++) {
    const bit = (a.pfx[i >> 3]! >> (7 - (i & 7))) & 1;
    const mask = 0x80 >> (i & 7);
    out[i >> 3] = bit ? out[i >> 3]! | mask : out[i >> 3]! & ~mask;
  }
  return out;
}
