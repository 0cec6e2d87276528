/**
 * CRC-32C (Castagnoli), the checksum a bag of cells carries when `has_crc32c` is set
 * (boc.tlb `serialized_boc#b5ee9c72 ... crc32c:has_crc32c?uint32`). Stored little-endian.
 *
 * Slicing-by-16 over one flat table: a block's whole BOC is checked as it is parsed, and every message body on the
 * wire is a BOC with this checksum. Sixteen bytes per step, read as four little-endian words through a DataView on
 * long inputs, which outran slicing-by-8 with eight separate tables on the fixture blocks (bench/RESULTS.md).
 */
const STRIDE = 16;

/** Table t (0..15) at [256·t, 256·t + 256): the CRC of byte n followed by t zero bytes. */
function makeTable(): Int32Array {
  const table = new Int32Array(STRIDE * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  for (let t = 1; t < STRIDE; t++) {
    for (let n = 0; n < 256; n++) {
      const prev = table[(t - 1) * 256 + n]!;
      table[t * 256 + n] = table[prev & 0xff]! ^ (prev >>> 8);
    }
  }
  return table;
}

const T = makeTable();

/** Inputs at least this long are read through a DataView (whose creation costs more than it saves on short ones). */
const VIEW_FROM = 512;

/** CRC-32C of `bytes[start, end)` as an unsigned 32-bit number. */
export function crc32c(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = -1;
  let i = start;
  if (end - start >= VIEW_FROM) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (; i + STRIDE <= end; i += STRIDE) {
      const a = crc ^ view.getInt32(i, true);
      const b = view.getInt32(i + 4, true);
      const c = view.getInt32(i + 8, true);
      const d = view.getInt32(i + 12, true);
      crc =
        T[3840 + (a & 0xff)]! ^ T[3584 + ((a >>> 8) & 0xff)]! ^ T[3328 + ((a >>> 16) & 0xff)]! ^ T[3072 + (a >>> 24)]! ^
        T[2816 + (b & 0xff)]! ^ T[2560 + ((b >>> 8) & 0xff)]! ^ T[2304 + ((b >>> 16) & 0xff)]! ^ T[2048 + (b >>> 24)]! ^
        T[1792 + (c & 0xff)]! ^ T[1536 + ((c >>> 8) & 0xff)]! ^ T[1280 + ((c >>> 16) & 0xff)]! ^ T[1024 + (c >>> 24)]! ^
        T[768 + (d & 0xff)]! ^ T[512 + ((d >>> 8) & 0xff)]! ^ T[256 + ((d >>> 16) & 0xff)]! ^ T[d >>> 24]!;
    }
  } else {
    for (; i + STRIDE <= end; i += STRIDE) {
      const a = crc ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
      crc =
        T[3840 + (a & 0xff)]! ^ T[3584 + ((a >>> 8) & 0xff)]! ^ T[3328 + ((a >>> 16) & 0xff)]! ^ T[3072 + (a >>> 24)]! ^
        T[2816 + bytes[i + 4]!]! ^ T[2560 + bytes[i + 5]!]! ^ T[2304 + bytes[i + 6]!]! ^ T[2048 + bytes[i + 7]!]! ^
        T[1792 + bytes[i + 8]!]! ^ T[1536 + bytes[i + 9]!]! ^ T[1280 + bytes[i + 10]!]! ^ T[1024 + bytes[i + 11]!]! ^
        T[768 + bytes[i + 12]!]! ^ T[512 + bytes[i + 13]!]! ^ T[256 + bytes[i + 14]!]! ^ T[bytes[i + 15]!]!;
    }
  }
  for (; i < end; i++) crc = T[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}
