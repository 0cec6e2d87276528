/**
 * CRC-32C (Castagnoli), the checksum a bag of cells carries when `has_crc32c` is set
 * (boc.tlb `serialized_boc#b5ee9c72 ... crc32c:has_crc32c?uint32`). Stored little-endian.
 */
function makeTable(): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

const TABLE = makeTable();

/** CRC-32C of `bytes[start, end)` as an unsigned 32-bit number. */
export function crc32c(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
