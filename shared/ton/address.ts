import { NonRetryableError } from '../runtime/errors.js';
import { isBounceable } from './interfaces/wallets.js';

/**
 * TON account addresses as TON Center reads and prints them (api-v3.md §0.3, §0.5; indexing-semantics §3.1).
 *
 * Two forms exist. The raw form `wc:hex` is the workchain (a signed 32-bit integer in decimal) and the 256-bit
 * account id in hex; every record carries it normalised to upper case `wc:HEX`. The user-friendly form is 36 bytes
 * in base64 or base64url (48 characters): tag ‖ workchain (int8) ‖ account id ‖ CRC16-XMODEM of the first 34
 * bytes, big-endian. The tag is 0x11 (bounceable) or 0x51 (non-bounceable), plus 0x80 for a test-only address.
 * Output follows tonutils-go `Address.String()`: base64url.
 */

/** An address that does not parse; the message says why (the caller adds the parameter name). */
export class AddressParseError extends NonRetryableError {
  constructor(message: string) {
    super('ADDRESS_INVALID', message);
  }
}

/** A parsed address: the raw form, and the flags of the user-friendly form it was written in (if it was). */
export interface ParsedAddress {
  /** Raw upper case `wc:HEX`. */
  raw: string;
  workchain: number;
  /** The 32-byte account id. */
  hash: Uint8Array;
  /** Flags of a user-friendly input; absent for a raw one. */
  friendly?: { bounceable: boolean; testOnly: boolean; urlSafe: boolean };
}

const TAG_BOUNCEABLE = 0x11;
const TAG_NON_BOUNCEABLE = 0x51;
const TAG_TEST_ONLY = 0x80;

const RAW = /^(-?\d{1,11}):([0-9a-fA-F]{64})$/;
const FRIENDLY = /^[A-Za-z0-9+/_-]{48}$/;

/**
 * Parses any address form, keeping what the form says. The tag byte of a user-friendly input is read but not
 * required to be one of the four known ones: TON Center's parsers ignore the flags (api-v3.md §0.3), as
 * tonutils-go's ParseAddr checks only the length and the CRC; `friendly.bounceable` is then the tag's 0x40 bit clear.
 * Throws {@link AddressParseError}.
 */
export function parseAddressForm(input: string): ParsedAddress {
  // Not trimmed: TON Center's parsers take the value as sent, so " 0:…" is unparsable there too (api-v3.md §0.3).
  const raw = RAW.exec(input);
  if (raw) {
    const wc = Number(raw[1]);
    if (!Number.isSafeInteger(wc) || wc < -2147483648 || wc > 2147483647) throw new AddressParseError(`workchain ${raw[1]} out of range`);
    const hex = raw[2]!.toUpperCase();
    return { raw: `${wc}:${hex}`, workchain: wc, hash: Buffer.from(hex, 'hex') };
  }
  if (!FRIENDLY.test(input)) throw new AddressParseError(`${JSON.stringify(input)} is neither a raw nor a user-friendly address`);
  const urlSafe = /[-_]/.test(input) || !/[+/]/.test(input);
  const bytes = Buffer.from(input.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length !== 36) throw new AddressParseError('user-friendly address must decode to 36 bytes');
  if (bytes.readUInt16BE(34) !== crc16(bytes.subarray(0, 34))) throw new AddressParseError('address checksum mismatch');
  const tag = bytes[0]!;
  const wc = bytes.readInt8(1);
  const hash = Uint8Array.prototype.slice.call(bytes, 2, 34);
  return {
    raw: `${wc}:${Buffer.from(hash).toString('hex').toUpperCase()}`,
    workchain: wc,
    hash,
    friendly: { bounceable: (tag & 0x40) === 0, testOnly: (tag & TAG_TEST_ONLY) !== 0, urlSafe },
  };
}

/** Parses any address form to raw upper case `wc:HEX`; throws {@link AddressParseError}. */
export function parseAddress(input: string): string {
  return parseAddressForm(input).raw;
}

/** True when `input` parses as an address. */
export function isAddress(input: string): boolean {
  try {
    parseAddressForm(input);
    return true;
  } catch {
    return false;
  }
}

/** The raw form `wc:HEX` of a workchain and 32-byte account id. */
export function rawAddress(workchain: number, hash: Uint8Array): string {
  if (hash.length !== 32) throw new AddressParseError(`account id must be 32 bytes, not ${hash.length}`);
  return `${workchain}:${Buffer.from(hash).toString('hex').toUpperCase()}`;
}

export interface FriendlyOptions {
  bounceable: boolean;
  testnet: boolean;
  /** base64url (`-`, `_`), TON Center's form, unless false: standard base64 (`+`, `/`). */
  urlSafe?: boolean;
}

/**
 * The user-friendly form of a raw address, or null when it cannot be written (a workchain outside int8, or not a
 * raw address at all: callers print TON Center's `"addr_none"` then).
 */
export function friendlyAddress(raw: string, opts: FriendlyOptions): string | null {
  const m = RAW.exec(raw);
  if (!m) return null;
  const wc = Number(m[1]);
  if (wc < -128 || wc > 127) return null;
  const bytes = Buffer.alloc(36);
  bytes[0] = (opts.bounceable ? TAG_BOUNCEABLE : TAG_NON_BOUNCEABLE) | (opts.testnet ? TAG_TEST_ONLY : 0);
  bytes.writeInt8(wc, 1);
  Buffer.from(m[2]!, 'hex').copy(bytes, 2);
  bytes.writeUInt16BE(crc16(bytes.subarray(0, 34)), 34);
  return bytes.toString(opts.urlSafe === false ? 'base64' : 'base64url');
}

/**
 * The `user_friendly` of TON Center's address book (indexing-semantics §3.1): bounceable unless the account has no
 * code hash or runs one of the eleven wallet codes, test-only on a testnet server, and TON Center's `"addr_none"`
 * for what cannot be written in the user-friendly form.
 */
export function addressBookFriendly(raw: string, codeHash: string | null | undefined, testnet: boolean): string {
  return friendlyAddress(raw, { bounceable: isBounceable(codeHash), testnet }) ?? 'addr_none';
}

/** CRC-16/XMODEM (poly 0x1021, init 0), the checksum of user-friendly addresses. */
export function crc16(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}
