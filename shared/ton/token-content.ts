import { createHash } from 'node:crypto';
import { Boc } from './boc/reader.js';
import { Slice } from './boc/slice.js';
import { DecodeError } from './errors.js';
import { walkHashmapE } from './tlb/Hashmap.js';
import { rawAddress } from './address.js';

/**
 * Token metadata cells (TEP-64) and the addresses get-methods return, read as TON Center's v2 server reads them for
 * getTokenData (toncenter/ton-http-api-cpp `tlb/tokens.tlb` and its `parse_token_data`):
 *
 *   onchain#00 data:(HashmapE 256 ^ContentData) = FullContent;
 *   offchain#01 uri:Text = FullContent;            // text#_ data:Cell = Text (a snake string)
 *   snake#00 data:Cell = ContentData;
 *   chunks#01 data:(HashmapE 32 ^Cell) = ContentData;
 *
 * Snake data is the bits of a cell and of its first reference, recursively; chunked data the bits of chunks 0, 1, …
 * while the key exists. Both are cut at 8 KiB (whole cells only) and must end on a byte boundary. Of an onchain
 * dictionary only the TEP-64 attributes below are read, each under the sha256 of its name; an attribute whose value
 * does not parse, or is not UTF-8, is left out (`image_data` is binary and printed as base64). A value stored
 * inline instead of behind the reference TEP-64 asks for is read too, as that server does.
 */

/** A content cell that is not TEP-64 metadata; the message says why. */
export class TokenContentError extends Error {
  override readonly name = 'TokenContentError';
}

export type TokenContent = { onchain: true; data: Record<string, string> } | { onchain: false; uri: string };

/** The attributes the server reads from onchain metadata, in its order. */
const ATTRIBUTES = ['uri', 'name', 'description', 'image', 'image_data', 'symbol', 'decimals', 'amount_style', 'render_type'] as const;

/** Each attribute by the hex of its key, the sha256 of its name (keyHex of a dictionary key gives the same). */
const ATTRIBUTE_BY_KEY = new Map<string, string>(
  ATTRIBUTES.map((a) => {
    const h = createHash('sha256').update(a).digest();
    return [Buffer.from(h).toString('hex'), a];
  }),
);

const LIMIT_BITS = 8192 * 8;

/** Bits concatenated across cells, up to {@link LIMIT_BITS}. */
class BitBuffer {
  readonly bytes = new Uint8Array(LIMIT_BITS / 8);
  bits = 0;

  /** Appends the rest of `s`'s bits; false (nothing appended) when they would pass the limit. */
  append(s: Slice): boolean {
    const n = s.remainingBits;
    if (this.bits + n > LIMIT_BITS) return false;
    s.copyBits(s.pos, n, this.bytes, this.bits);
    this.bits += n;
    return true;
  }

  result(): Uint8Array {
    if (this.bits % 8 !== 0) throw new TokenContentError('Not byte aligned');
    return this.bytes.slice(0, this.bits / 8);
  }
}

/** Snake data from `s` on: its bits, then those of its first reference, and so on. */
function snakeData(s: Slice): Uint8Array {
  const out = new BitBuffer();
  let cur: Slice | null = s;
  while (cur) {
    if (!out.append(cur)) break;
    cur = cur.remainingRefs > 0 ? new Slice(cur.boc, cur.loadRef()) : null;
  }
  return out.result();
}

/** Chunked data: the bits of the cells under keys 0, 1, 2, … as long as the next key exists. */
function chunkedData(s: Slice): Uint8Array {
  const chunks = new Map<number, number>();
  walkHashmapE(s, 32, (v, key) => {
    let k = 0;
    for (let i = 0; i < 32; i++) k = k * 2 + key[i]!;
    chunks.set(k, v.loadRef());
  });
  if (s.remainingBits !== 0 || s.remainingRefs !== 0) throw new TokenContentError('Failed to unpack chunks token data');
  const out = new BitBuffer();
  for (let c = 0; chunks.has(c); c++) {
    if (!out.append(new Slice(s.boc, chunks.get(c)!))) break;
  }
  return out.result();
}

/** `ContentData`: snake#00 or chunks#01. */
function contentData(s: Slice): Uint8Array {
  if (s.remainingBits < 8) throw new TokenContentError('Unknown content data');
  const tag = s.loadUint(8);
  if (tag === 0x00) return snakeData(s);
  if (tag === 0x01) return chunkedData(s);
  throw new TokenContentError('Unknown content data');
}

// Bytes as they are: a leading BOM is kept (the server checks UTF-8 and copies the bytes).
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function utf8(bytes: Uint8Array): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

function rootSlice(boc: Uint8Array): Slice {
  const b = Boc.parse(boc);
  return new Slice(b, b.root);
}

/** Reads a `FullContent` cell (a BOC). Throws {@link TokenContentError} for anything else. */
export function parseTokenContent(boc: Uint8Array): TokenContent {
  try {
    const s = rootSlice(boc);
    if (s.remainingBits < 8) throw new TokenContentError('Unknown token data type');
    const tag = s.loadUint(8);
    if (tag === 0x01) {
      const uri = utf8(snakeData(s));
      if (uri === null) throw new TokenContentError('Invalid uri');
      return { onchain: false, uri };
    }
    if (tag !== 0x00) throw new TokenContentError('Unknown token data type');
    const values = new Map<string, Slice>();
    walkHashmapE(s, 256, (v, key) => {
      const attr = ATTRIBUTE_BY_KEY.get(keyHex(key));
      if (attr !== undefined) values.set(attr, v);
    });
    if (s.remainingBits !== 0 || s.remainingRefs !== 0) throw new TokenContentError('Failed to unpack onchain token data');
    const data: Record<string, string> = {};
    // Sorted by name: the server keeps the attributes in an ordered map.
    for (const attr of [...ATTRIBUTES].sort()) {
      let v = values.get(attr);
      if (!v) continue;
      // `^ContentData` as TEP-64 asks, or the ContentData itself stored in the dictionary.
      if (v.remainingBits === 0 && v.remainingRefs === 1) v = new Slice(v.boc, v.loadRef());
      let bytes: Uint8Array;
      try {
        bytes = contentData(v);
      } catch (e) {
        if (e instanceof TokenContentError || e instanceof DecodeError) continue;
        throw e;
      }
      if (attr === 'image_data') {
        data[attr] = Buffer.from(bytes).toString('base64');
        continue;
      }
      const text = utf8(bytes);
      if (text !== null) data[attr] = text;
    }
    return { onchain: true, data };
  } catch (e) {
    if (e instanceof DecodeError) throw new TokenContentError(`Failed to parse token data: ${e.message}`);
    throw e;
  }
}

/** A dictionary key as walkHashmap gives it (one byte per bit) in hex. */
function keyHex(key: Uint8Array): string {
  const out = Buffer.alloc(key.length >> 3);
  for (let i = 0; i < key.length; i++) if (key[i]) out[i >> 3] = (out[i >> 3] ?? 0) | (0x80 >> (i & 7));
  return out.toString('hex');
}

/**
 * The address a get-method returns in a cell or slice (a BOC), as that server reads it: `addr_none` is null, an
 * `addr_std` without anycast its raw form `wc:HEX`; anything else (external, anycast, `addr_var`) throws
 * {@link TokenContentError}.
 */
export function stackAddress(boc: Uint8Array): string | null {
  try {
    const s = rootSlice(boc);
    const tag = s.loadUint(2);
    if (tag === 0) return null;
    if (tag === 1) throw new TokenContentError('addr_ext is not supported');
    if (tag === 3) throw new TokenContentError('addr_var is not supported');
    if (s.loadBit()) throw new TokenContentError('anycast is not supported');
    const wc = s.loadInt(8);
    return rawAddress(wc, s.loadBytes(32));
  } catch (e) {
    if (e instanceof DecodeError) throw new TokenContentError(`MsgAddress: ${e.message}`);
    throw e;
  }
}
