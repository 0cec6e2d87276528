import { describe, expect, it } from 'vitest';
import { crc32cBitwise as bitwise } from '../../../test/helpers/crc32c-bitwise.js';
import { crc32c } from './crc32c.js';

describe('crc32c', () => {
  it('the check value of CRC-32C: "123456789" → 0xE3069283', () => {
    expect(crc32c(new TextEncoder().encode('123456789'))).toBe(0xe3069283);
  });

  it('equals the bitwise CRC on every length up to 1,100 bytes, at every start offset mod 16, both loops and the tail', () => {
    const data = new Uint8Array(1200);
    let x = 0x9e3779b9;
    for (let i = 0; i < data.length; i++) {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      data[i] = x >>> 24;
    }
    for (let len = 0; len <= 1100; len += len < 64 ? 1 : 7) {
      for (let start = 0; start < 16; start += 5) {
        const slice = data.subarray(start, start + len);
        expect(crc32c(data, start, start + len), `len ${len} start ${start}`).toBe(bitwise(slice));
        expect(crc32c(slice), `len ${len} start ${start} (view)`).toBe(bitwise(slice));
      }
    }
  });
});
