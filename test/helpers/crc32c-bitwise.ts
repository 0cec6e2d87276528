/**
 * CRC-32C a bit at a time, straight from the polynomial (RFC 3720 §B.4, reflected 0x82F63B78): the tests' own,
 * sharing nothing with shared/ton/boc/crc32c.ts, so that a fault there cannot hide behind the check.
 */
export function crc32cBitwise(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
