import { Cell, beginCell, serializeTuple } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { createStackReader } from './service.js';
import { StackInputError, parseV2Stack, parseV3Stack, pythonHex, renderV2Stack, renderV3Stack, stackToB64 } from './stack.js';

/**
 * Stack encodings against what TON Center documents (api-v2.md §3.9, api-v3.md §8.5): Python `hex()` numbers,
 * cells and slices as `["cell", {bytes, object}]`, tonlib's rule that null and (x, list) pairs are lists, and the
 * C++ server's error texts.
 */

describe('v2/v3 stack encoding', () => {
  it('numbers print as Python hex(): 0x1f, -0x5, 0x0', () => {
    expect([31n, -5n, 0n].map(pythonHex)).toEqual(['0x1f', '-0x5', '0x0']);
    expect(renderV2Stack([{ type: 'int', value: 31n }])).toEqual([['num', '0x1f']]);
  });

  it('reads num as decimal or hex, number or string; cells as BOC, tonlib {bytes} or the legacy object', () => {
    const c = beginCell().storeUint(0xabc, 12).storeRef(beginCell().storeUint(1, 1).endCell()).endCell();
    const b64 = c.toBoc().toString('base64');
    const legacy = { data: { b64: Buffer.from([0xab, 0xc0]).toString('base64'), len: 12 }, refs: [{ data: { b64: Buffer.from([0x80]).toString('base64'), len: 1 }, refs: [] }] };
    const items = parseV2Stack([['num', 5], ['number', '-0x10'], ['int', '123'], ['tvm.Cell', b64], ['cell', legacy], ['slice', { bytes: b64 }]]);
    expect(items.slice(0, 3)).toEqual([
      { type: 'int', value: 5n },
      { type: 'int', value: -16n },
      { type: 'int', value: 123n },
    ]);
    for (const it of items.slice(3)) expect((it as { cell: Cell }).cell.hash().equals(c.hash())).toBe(true);
    expect(items.map((i) => i.type)).toEqual(['int', 'int', 'int', 'cell', 'cell', 'slice']);
  });

  it('refuses malformed stacks with the C++ server texts', () => {
    expect(() => parseV2Stack('x')).toThrow(new StackInputError('Stack should be array'));
    expect(() => parseV2Stack([['num']])).toThrow('Invalid stack entry format: array of exact 2 elements expected');
    expect(() => parseV2Stack([['tvm.Builder', '']])).toThrow('Unsupported stack entry type: tvm.Builder');
    expect(() => parseV2Stack([['num', '12x']])).toThrow(StackInputError);
    expect(() => parseV3Stack([{ type: 'tuple', value: [] }])).toThrow('unsupported stack parameter type: tuple');
  });

  it('cells and slices are ["cell", {bytes, object}]; the object is the legacy cell JSON', () => {
    const c = beginCell().storeUint(0b101, 3).endCell();
    const [[t1, v1], [t2]] = renderV2Stack([
      { type: 'cell', cell: c },
      { type: 'slice', cell: c },
    ]) as [[string, { bytes: string; object: unknown }], [string, unknown]];
    expect([t1, t2]).toEqual(['cell', 'cell']);
    expect(Cell.fromBase64(v1.bytes).hash().equals(c.hash())).toBe(true);
    expect(v1.object).toEqual({ data: { b64: Buffer.from([0xa0]).toString('base64'), len: 3 }, refs: [], special: false });
  });

  it('null is the empty list, (x, list) pairs are lists, other tuples are tuples of tonlib entries', () => {
    const num = (n: bigint) => ({ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: n.toString() } });
    expect(renderV2Stack([{ type: 'null' }])).toEqual([['list', { '@type': 'tvm.list', elements: [] }]]);
    const list = { type: 'tuple' as const, items: [{ type: 'int' as const, value: 1n }, { type: 'tuple' as const, items: [{ type: 'int' as const, value: 2n }, { type: 'null' as const }] }] };
    expect(renderV2Stack([list])).toEqual([['list', { '@type': 'tvm.list', elements: [num(1n), num(2n)] }]]);
    const triple = { type: 'tuple' as const, items: [{ type: 'int' as const, value: -1n }, { type: 'int' as const, value: 0n }, { type: 'null' as const }] };
    expect(renderV2Stack([triple])).toEqual([
      ['tuple', { '@type': 'tvm.tuple', elements: [num(-1n), num(0n), { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [] } }] }],
    ]);
    expect(renderV3Stack([triple])).toEqual([
      { type: 'tuple', value: [{ type: 'num', value: '-0x1' }, { type: 'num', value: '0x0' }, { type: 'list', value: [] }] },
    ]);
  });

  it('an empty input stack is the VmStack BOC of no entries; a non-empty one is serialized each time', () => {
    expect(stackToB64([])).toBe(serializeTuple([]).toBoc().toString('base64'));
    const one = [{ type: 'int' as const, value: 7n }];
    expect(stackToB64(one)).toBe(serializeTuple(one).toBoc().toString('base64'));
  });

  it('a stack reader parses each outcome once and tells different outcomes apart', () => {
    const b64 = (v: bigint): string => serializeTuple([{ type: 'int', value: v }]).toBoc().toString('base64');
    const read = createStackReader();
    const a = { stack: b64(1n) };
    const first = read(a);
    expect(first).toEqual([{ type: 'int', value: 1n }]);
    // The same outcome object (a kept one) gives the values parsed the first time.
    expect(read(a)).toBe(first);
    // An equal outcome that is another object, and a different one, are parsed on their own.
    expect(read({ stack: b64(1n) })).not.toBe(first);
    expect(read({ stack: b64(2n) })).toEqual([{ type: 'int', value: 2n }]);
  });
});
