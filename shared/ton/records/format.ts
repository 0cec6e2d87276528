import type { CurrencyCollection } from '../tlb/CurrencyCollection.js';
import type { MsgAddress } from '../tlb/MsgAddress.js';

/** Wire encodings of TON Center API v3 (api-v3.md §0.4). */

/**
 * Node's native base64 encoder, called on the view itself: `Buffer.from(...).toString('base64')` first builds a
 * Buffer object per call, which costs as much again for a 32-byte hash (and a block has dozens per transaction).
 * `base64Slice` is the method `toString('base64')` ends in; a runtime without it gets the documented path.
 */
const base64Slice = (Buffer.prototype as unknown as { base64Slice?: (this: Uint8Array, start: number, end: number) => string }).base64Slice;

/** Hashes are standard base64 with padding. */
export function b64(bytes: Uint8Array): string {
  if (base64Slice !== undefined) return base64Slice.call(bytes, 0, bytes.byteLength);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0').toUpperCase());
const HEX_CODES = Uint8Array.from(HEX.join(''), (c) => c.charCodeAt(0));
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice?: (this: Uint8Array, start: number, end: number) => string }).latin1Slice;
/**
 * Digits are written here and read out as one flat string (every raw address is 64 of them): concatenating 32
 * two-digit strings builds a rope that is flattened later, and costs more. Scratch, overwritten by each call.
 */
const hexScratch = new Uint8Array(128);

export function hexUpper(bytes: Uint8Array): string {
  const n = bytes.length;
  if (latin1Slice === undefined || 2 * n > hexScratch.length) {
    let s = '';
    for (let i = 0; i < n; i++) s += HEX[bytes[i]!]!;
    return s;
  }
  for (let i = 0; i < n; i++) {
    const b = bytes[i]! << 1;
    hexScratch[2 * i] = HEX_CODES[b]!;
    hexScratch[2 * i + 1] = HEX_CODES[b + 1]!;
  }
  return latin1Slice.call(hexScratch, 0, 2 * n);
}

/** Raw address `wc:HEX` in upper case, as TON Center stores every address. */
export function rawAddress(workchain: number, hash: Uint8Array): string {
  return `${workchain}:${hexUpper(hash)}`;
}

/**
 * A message address as it appears in a Message record: raw for `addr_std`, null for the external side
 * (`addr_none` / `addr_extern`), and the literal "addr_var" for `addr_var` (indexing-semantics §3.1).
 */
export function addressOrNull(a: MsgAddress): string | null {
  switch (a.type) {
    case 'std':
      return rawAddress(a.workchain, a.hash);
    case 'var':
      return 'addr_var';
    default:
      return null;
  }
}

/** Shard ids are upper-case hex of the unsigned 64-bit value, without padding. */
export function shardHex(shard: bigint): string {
  return (BigInt.asUintN(64, shard)).toString(16).toUpperCase();
}

/** `{ "<currency id>": "<decimal amount>" }`. */
export function extraCurrencies(cc: CurrencyCollection): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, amount] of cc.other) out[String(id)] = amount.toString();
  return out;
}

/** Opcodes render as `"0x%08x"` of the unsigned value. */
export function opcodeHex(op: number): string {
  return '0x' + (op >>> 0).toString(16).padStart(8, '0');
}
