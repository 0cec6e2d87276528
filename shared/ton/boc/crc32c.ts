/**
 * CRC-32C (Castagnoli), the checksum a bag of cells carries when `has_crc32c` is set
 * (boc.tlb `serialized_boc#b5ee9c72 ... crc32c:has_crc32c?uint32`). Stored little-endian.
 *
 * Slicing-by-8: every message body on the wire is a BOC with this checksum, so it runs once per message.
 */
function makeTables(): Uint32Array[] {
  const t0 = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    t0[n] = c >>> 0;
  }
  const tables = [t0];
  for (let t = 1; t < 8; t++) {
    const prev = tables[t - 1]!;
    const cur = new Uint32Array(256);
    for (let n = 0; n < 256; n++) cur[n] = (t0[prev[n]! & 0xff]! ^ (prev[n]! >>> 8)) >>> 0;
    tables.push(cur);
  }
  return tables;
}

const [T0, T1, T2, T3, T4, T5, T6, T7] = makeTables() as [
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
];

/** CRC-32C of `bytes[start, end)` as an unsigned 32-bit number. */
export function crc32c(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffffffff;
  let i = start;
  for (; i + 8 <= end; i += 8) {
    const a = crc ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    crc =
      T7[a & 0xff]! ^
      T6[(a >>> 8) & 0xff]! ^
      T5[(a >>> 16) & 0xff]! ^
      T4[a >>> 24]! ^
      T3[bytes[i + 4]!]! ^
      T2[bytes[i + 5]!]! ^
      T1[bytes[i + 6]!]! ^
      T0[bytes[i + 7]!]!;
  }
  for (; i < end; i++) crc = T0[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
