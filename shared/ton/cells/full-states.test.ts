import { Cell, beginCell } from '@ton/core';
import { expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../../test/helpers/fixtures.js';
import { Boc } from '../boc/reader.js';
import { type CellRecord, collectWholeCells } from './cells.js';
import { type CodeBocCache, withFullStates } from './full-states.js';

/*
 * Filling state rows' code and data from cell records: a real contract's code (fixtures/contracts) and a data cell
 * are put in a record map as the decode stage stores them (collectWholeCells); the rows name them by hash only.
 */

const b64hash = (c: Cell): string => c.hash().toString('base64');

function recordsOf(...roots: Cell[]): Map<string, CellRecord> {
  const map = new Map<string, CellRecord>();
  for (const root of roots) {
    const boc = Boc.parse(root.toBoc());
    collectWholeCells(boc, boc.roots, (h, r) => void map.set(h, r));
  }
  return map;
}

function counting(map: Map<string, CellRecord>): { lookup: (hs: string[]) => Map<string, CellRecord>; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    lookup: (hs) => {
      asked.push(...hs);
      return new Map(hs.flatMap((h) => (map.has(h) ? [[h, map.get(h)!] as const] : [])));
    },
  };
}

describeFixtures('state rows filled from the cell store', () => {
  const code = Cell.fromBoc(readFixture('contracts/jetton_wallet_tonweb_standard.code.boc'))[0]!;
  const data = beginCell().storeCoins(5n).storeAddress(null).storeAddress(null).storeRef(code).endCell();
  const unseen = beginCell().storeUint(7, 32).endCell();

  it('rebuilds code and data whose cells were all seen, leaves the rest null, and keeps rows that had them', async () => {
    const { lookup } = counting(recordsOf(code, data));
    const given = { code_hash: b64hash(code), data_hash: b64hash(data), code_boc: 'kept', data_boc: 'kept' };
    const rows = new Map<string, { code_hash: string | null; data_hash: string | null; code_boc: string | null; data_boc: string | null }>([
      ['full', { code_hash: b64hash(code), data_hash: b64hash(data), code_boc: null, data_boc: null }],
      ['unseen data', { code_hash: b64hash(code), data_hash: b64hash(unseen), code_boc: null, data_boc: null }],
      ['no hashes', { code_hash: null, data_hash: null, code_boc: null, data_boc: null }],
      ['given', given],
    ]);
    const out = await withFullStates(rows, lookup);
    const full = out.get('full')!;
    expect(Cell.fromBase64(full.code_boc!).hash().equals(code.hash())).toBe(true);
    expect(Cell.fromBase64(full.data_boc!).hash().equals(data.hash())).toBe(true);
    expect(out.get('unseen data')!.data_boc).toBeNull();
    expect(out.get('unseen data')!.code_boc).not.toBeNull();
    expect(out.get('no hashes')).toEqual({ code_hash: null, data_hash: null, code_boc: null, data_boc: null });
    expect(out.get('given')).toBe(given);
    expect(rows.get('full')!.code_boc).toBeNull(); // the input is not changed
  });

  it('fills only what it is asked for, and takes code from the cache when it has it', async () => {
    const { lookup, asked } = counting(recordsOf(code, data));
    const row = new Map([['a', { code_hash: b64hash(code), data_hash: b64hash(data), code_boc: null as string | null, data_boc: null as string | null }]]);
    const dataOnly = (await withFullStates(row, lookup, { code: false })).get('a')!;
    expect(dataOnly.code_boc).toBeNull();
    expect(dataOnly.data_boc).not.toBeNull();

    const cached = new Map<string, string>();
    const cache: CodeBocCache = { get: (h) => cached.get(h), set: (h, b) => void cached.set(h, b) };
    await withFullStates(row, lookup, { data: false, codeCache: cache });
    expect(cached.get(b64hash(code))).toBeDefined();
    asked.length = 0;
    const again = (await withFullStates(row, lookup, { data: false, codeCache: cache })).get('a')!;
    expect(again.code_boc).toBe(cached.get(b64hash(code)));
    expect(asked).toEqual([]);
  });

  it('rebuilds code and data side by side: one lookup per level of the deeper tree, not per level of each', async () => {
    const depth = (c: Cell): number => 1 + Math.max(0, ...c.refs.map(depth));
    // Data as deep as the code, in cells of its own: read one after the other they would take twice the rounds.
    let deep = beginCell().storeUint(1, 8).endCell();
    while (depth(deep) < depth(code)) deep = beginCell().storeUint(depth(deep), 16).storeRef(deep).endCell();
    const calls: string[][] = [];
    const map = recordsOf(code, deep);
    const lookup = (hs: string[]): Map<string, CellRecord> => {
      calls.push(hs);
      return new Map(hs.flatMap((h) => (map.has(h) ? [[h, map.get(h)!] as const] : [])));
    };
    const rows = new Map([['a', { code_hash: b64hash(code), data_hash: b64hash(deep), code_boc: null as string | null, data_boc: null as string | null }]]);
    const a = (await withFullStates(rows, lookup)).get('a')!;
    expect(Cell.fromBase64(a.code_boc!).hash().equals(code.hash())).toBe(true);
    expect(Cell.fromBase64(a.data_boc!).hash().equals(deep.hash())).toBe(true);
    expect(calls).toHaveLength(depth(code));
    // The first round asks for both roots at once.
    expect(new Set(calls[0])).toEqual(new Set([code.hash().toString('hex'), deep.hash().toString('hex')]));
  });

  it('a corrupt record leaves the BoC null; a failing lookup is the caller’s error', async () => {
    const map = recordsOf(code, data);
    const root = code.hash().toString('hex');
    const forged = Uint8Array.from(map.get(root)!);
    forged[2] = forged[2]! ^ 1; // a data bit: the record no longer hashes to its key
    map.set(root, forged);
    const row = new Map([['a', { code_hash: b64hash(code), data_hash: null, code_boc: null, data_boc: null }]]);
    expect((await withFullStates(row, counting(map).lookup)).get('a')!.code_boc).toBeNull();
    const down = async (): Promise<Map<string, CellRecord>> => {
      throw new Error('store unavailable');
    };
    await expect(withFullStates(row, down)).rejects.toThrow('store unavailable');
  });
});
