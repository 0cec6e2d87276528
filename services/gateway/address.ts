/**
 * TON account addresses as TON Center reads and prints them (api-v3.md §0.3, §0.5; indexing-semantics §3.1).
 *
 * Input: raw `wc:hex` (hex in any case) or the 48-character user-friendly form in base64 or base64url, bounceable
 * or not, mainnet or testnet (the tag byte is ignored), checked by its CRC16. Everything is normalised to raw upper
 * case `wc:HEX`, the form every record carries. Output of the user-friendly form follows tonutils-go
 * `Address.String()`: base64url of tag ‖ workchain ‖ hash ‖ crc16.
 */

/** An address that does not parse; the message says why (the caller adds the parameter name). */
export class AddressParseError extends Error {}

const RAW = /^(-?\d{1,11}):([0-9a-fA-F]{64})$/;
const FRIENDLY = /^[A-Za-z0-9+/_-]{48}$/;

/** Parses any address form to raw upper case `wc:HEX`; throws {@link AddressParseError}. */
export function parseAddress(input: string): string {
  // Not trimmed: TON Center's parsers take the value as sent, so " 0:…" is unparsable there too (api-v3.md §0.3).
  const s = input;
  const raw = RAW.exec(s);
  if (raw) {
    const wc = Number(raw[1]);
    if (!Number.isSafeInteger(wc) || wc < -2147483648 || wc > 2147483647) throw new AddressParseError(`workchain ${raw[1]} out of range`);
    return `${wc}:${raw[2]!.toUpperCase()}`;
  }
  if (!FRIENDLY.test(s)) throw new AddressParseError(`${JSON.stringify(input)} is neither a raw nor a user-friendly address`);
  const bytes = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length !== 36) throw new AddressParseError('user-friendly address must decode to 36 bytes');
  // The tag byte (bounceable, testnet) is not checked: "flags are ignored" (api-v3.md §0.3), as tonutils-go's
  // ParseAddr checks only the length and the CRC.
  const crc = crc16(bytes.subarray(0, 34));
  if (bytes.readUInt16BE(34) !== crc) throw new AddressParseError('address checksum mismatch');
  const wc = bytes.readInt8(1);
  return `${wc}:${bytes.subarray(2, 34).toString('hex').toUpperCase()}`;
}

/** True when `input` parses as an address. */
export function isAddress(input: string): boolean {
  try {
    parseAddress(input);
    return true;
  } catch {
    return false;
  }
}

export interface FriendlyOptions {
  bounceable: boolean;
  testnet: boolean;
}

/**
 * The user-friendly base64url form of a raw address, or null when it cannot be written (a workchain outside int8,
 * or not a raw address at all: callers print TON Center's `"addr_none"` then).
 */
export function friendlyAddress(raw: string, opts: FriendlyOptions): string | null {
  const m = RAW.exec(raw);
  if (!m) return null;
  const wc = Number(m[1]);
  if (wc < -128 || wc > 127) return null;
  const bytes = Buffer.alloc(36);
  bytes[0] = (opts.bounceable ? 0x11 : 0x51) | (opts.testnet ? 0x80 : 0);
  bytes.writeInt8(wc, 1);
  Buffer.from(m[2]!, 'hex').copy(bytes, 2);
  bytes.writeUInt16BE(crc16(bytes.subarray(0, 34)), 34);
  return bytes.toString('base64url');
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
