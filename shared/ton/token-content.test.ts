import { createHash } from 'node:crypto';
import { Address, type Builder, type Cell, Dictionary, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { TokenContentError, parseTokenContent, stackAddress } from './token-content.js';

/**
 * TEP-64 content cells and get-method addresses, built with @ton/core (an independent writer), read as the C++
 * ton-http-api's getTokenData reads them (tlb/tokens.tlb): the expected values are what each cell was built from.
 */

const boc = (c: Cell) => c.toBoc({ idx: false, crc32: false });
const key = (name: string) => BigInt('0x' + createHash('sha256').update(name).digest('hex'));

/** Bytes as a snake chain: `first` bytes in the head cell (after `prefix`), then up to 127 per cell. */
function snake(bytes: Buffer, prefix?: (b: Builder) => void, first = 100): Cell {
  const cells: Buffer[] = [bytes.subarray(0, first)];
  for (let i = first; i < bytes.length; i += 127) cells.push(bytes.subarray(i, i + 127));
  let tail: Cell | null = null;
  for (let i = cells.length - 1; i >= 0; i--) {
    const b = beginCell();
    if (i === 0 && prefix) prefix(b);
    b.storeBuffer(cells[i]!);
    if (tail) b.storeRef(tail);
    tail = b.endCell();
  }
  return tail!;
}

const snakeValue = (text: string | Buffer) => snake(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), (b) => b.storeUint(0, 8));

/** `onchain#00` with each value behind a reference (TEP-64), or stored inline for the names in `inline`. */
function onchain(entries: Record<string, Cell>, inline: string[] = []): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), {
    serialize: (v: { cell: Cell; inline: boolean }, b: Builder) => (v.inline ? b.storeSlice(v.cell.beginParse()) : b.storeRef(v.cell)),
    parse: () => {
      throw new Error('unused');
    },
  });
  for (const [k, v] of Object.entries(entries)) dict.set(key(k), { cell: v, inline: inline.includes(k) });
  return beginCell().storeUint(0, 8).storeDict(dict).endCell();
}

describe('parseTokenContent', () => {
  it('off-chain: the URI snake across cells', () => {
    const uri = 'https://example.com/' + 'x'.repeat(400) + '/meta.json';
    const cell = snake(Buffer.from(uri), (b) => b.storeUint(1, 8), 50);
    expect(cell.refs.length).toBe(1);
    expect(parseTokenContent(boc(cell))).toEqual({ onchain: false, uri });
  });

  it('on-chain: the TEP-64 attributes by sha256 key, snake and chunked, sorted; others and bad values left out', () => {
    const chunks = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    chunks.set(0, beginCell().storeBuffer(Buffer.from('Long ')).endCell());
    chunks.set(1, beginCell().storeBuffer(Buffer.from('description')).endCell());
    chunks.set(3, beginCell().storeBuffer(Buffer.from(' never read: key 2 is missing')).endCell());
    const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]);
    const cell = onchain({
      symbol: snakeValue('DUSD'),
      name: snakeValue('Dev USD ' + 'й'.repeat(80)),
      decimals: snakeValue('9'),
      description: beginCell().storeUint(1, 8).storeDict(chunks).endCell(),
      image_data: snakeValue(image),
      // Not UTF-8: left out.
      image: snakeValue(Buffer.from([0xc3, 0x28])),
      // Unknown ContentData tag: left out.
      uri: beginCell().storeUint(7, 8).storeBuffer(Buffer.from('x')).endCell(),
      // Not a TEP-64 attribute: never read.
      social_links: snakeValue('["https://t.me/x"]'),
    });
    const r = parseTokenContent(boc(cell));
    expect(r).toEqual({
      onchain: true,
      data: { decimals: '9', description: 'Long description', image_data: image.toString('base64'), name: 'Dev USD ' + 'й'.repeat(80), symbol: 'DUSD' },
    });
    expect(Object.keys((r as { data: object }).data)).toEqual(['decimals', 'description', 'image_data', 'name', 'symbol']);
  });

  it('on-chain: a value stored inline in the dictionary (not behind a reference) is read too', () => {
    const cell = onchain({ symbol: snakeValue('INL'), name: snakeValue('By ref') }, ['symbol']);
    expect(parseTokenContent(boc(cell))).toEqual({ onchain: true, data: { name: 'By ref', symbol: 'INL' } });
  });

  it('an empty on-chain dictionary is empty data', () => {
    expect(parseTokenContent(boc(beginCell().storeUint(0, 8).storeBit(0).endCell()))).toEqual({ onchain: true, data: {} });
  });

  it('what is not FullContent throws TokenContentError', () => {
    const bad = [
      beginCell().storeUint(2, 8).endCell(),
      beginCell().endCell(),
      // Off-chain URI not a whole number of bytes.
      beginCell().storeUint(1, 8).storeUint(1, 3).endCell(),
      // Off-chain URI not UTF-8.
      beginCell().storeUint(1, 8).storeBuffer(Buffer.from([0xff, 0xfe])).endCell(),
      // On-chain with bits after the dictionary.
      beginCell().storeUint(0, 8).storeBit(0).storeUint(5, 8).endCell(),
    ];
    for (const c of bad) expect(() => parseTokenContent(boc(c))).toThrow(TokenContentError);
    expect(() => parseTokenContent(Buffer.from('not a boc'))).toThrow(TokenContentError);
  });
});

describe('stackAddress', () => {
  const addr = Address.parseRaw('0:' + 'ab'.repeat(32));
  it('addr_std is its raw form, addr_none null', () => {
    expect(stackAddress(boc(beginCell().storeAddress(addr).endCell()))).toBe('0:' + 'AB'.repeat(32));
    expect(stackAddress(boc(beginCell().storeAddress(Address.parseRaw('-1:' + '01'.repeat(32))).endCell()))).toBe('-1:' + '01'.repeat(32));
    expect(stackAddress(boc(beginCell().storeUint(0, 2).endCell()))).toBeNull();
  });
  it('external, anycast and addr_var addresses are not supported', () => {
    expect(() => stackAddress(boc(beginCell().storeUint(1, 2).storeUint(0, 9).endCell()))).toThrow('addr_ext is not supported');
    expect(() => stackAddress(boc(beginCell().storeUint(2, 2).storeBit(1).storeUint(1, 5).storeBit(1).storeInt(0, 8).storeBuffer(Buffer.alloc(32)).endCell()))).toThrow(
      'anycast is not supported',
    );
    expect(() => stackAddress(boc(beginCell().storeUint(3, 2).endCell()))).toThrow('addr_var is not supported');
  });
});
