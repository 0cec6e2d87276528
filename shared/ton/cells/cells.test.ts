import { Boc } from '../boc/reader.js';
import { Cell, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../../test/helpers/fixtures.js';
import { decodeBlock, parseBlock } from '../decode-block.js';
import { type CellRecord, collectWholeCells, rebuildCell, recordBitsBoc } from './cells.js';

function storeOf(): { put: (h: string, r: CellRecord) => void; map: Map<string, CellRecord> } {
  const map = new Map<string, CellRecord>();
  return { map, put: (h, r) => void map.set(h, r) };
}

const hex = (b64: string): string => Buffer.from(b64, 'base64').toString('hex');

describe('cell store records', () => {
  it('round-trips cells of every shape: bit lengths, references, a library cell', async () => {
    const leaf = beginCell().storeUint(5, 3).endCell();
    const lib = new Cell({ exotic: true, bits: beginCell().storeUint(2, 8).storeBuffer(Buffer.alloc(32, 7)).endCell().bits });
    const root = beginCell()
      .storeBuffer(Buffer.from('deadbeef', 'hex'))
      .storeUint(1, 1)
      .storeRef(leaf)
      .storeRef(beginCell().storeRef(leaf).endCell())
      .storeRef(lib)
      .storeRef(beginCell().endCell())
      .endCell();
    const { map, put } = storeOf();
    const boc = Boc.parse(root.toBoc());
    expect(collectWholeCells(boc, boc.roots, put)).toBe(5); // the two refs to `leaf` are one cell
    const r = await rebuildCell(root.hash().toString('hex'), (hs) => new Map(hs.flatMap((h) => (map.has(h) ? [[h, map.get(h)!]] : []))));
    expect('cell' in r && r.cell.equals(root)).toBe(true);
  });

  it('gives the bits of a record as a one-cell bag, its references left out', () => {
    const root = beginCell().storeUint(0xabc, 12).storeBit(1).storeRef(beginCell().storeUint(2, 8).endCell()).endCell();
    const { map, put } = storeOf();
    const boc = Boc.parse(root.toBoc());
    collectWholeCells(boc, boc.roots, put);
    const cell = Cell.fromBase64(recordBitsBoc(map.get(root.hash().toString('hex'))!));
    expect(cell.refs).toHaveLength(0);
    expect(cell.bits.equals(root.bits)).toBe(true);
  });

  it('reports the cells it never saw and rejects a forged record', async () => {
    const root = beginCell().storeUint(1, 8).storeRef(beginCell().storeUint(2, 8).endCell()).endCell();
    const { map, put } = storeOf();
    const boc = Boc.parse(root.toBoc());
    collectWholeCells(boc, boc.roots, put);
    const child = root.refs[0]!.hash().toString('hex');
    const lookup = (m: Map<string, CellRecord>) => (hs: string[]) => new Map(hs.flatMap((h) => (m.has(h) ? [[h, m.get(h)!]] : [])));
    const partial = new Map(map);
    partial.delete(child);
    expect(await rebuildCell(root.hash().toString('hex'), lookup(partial))).toEqual({ missing: [child] });
    const forged = new Map(map);
    const rec = Uint8Array.from(forged.get(child)!);
    rec[2] = rec[2]! ^ 1;
    forged.set(child, rec);
    await expect(rebuildCell(root.hash().toString('hex'), lookup(forged))).rejects.toThrow(/corrupt cell store/);
  });
});

/*
 * The chain states each account's hash after a block in its last transaction's state update (block.tlb
 * `update:^(HASH_UPDATE Account)`, TON Center's account_state_after.hash). A block alone holds only the cells it
 * changed; with the tonutils pre-block ShardAccounts of every account block 71398501 touches (MANIFEST.md item 1)
 * and the block's own state update in the store, every account's full state after the block is rebuilt and hashes
 * to the value the chain states.
 */
describeFixtures('full account states rebuilt from the cell store', () => {
  it('block 71398501: every touched account after the block, from pre-block states + the state update', async () => {
    const bytes = readFixture('blocks/mainnet_0_8000000000000000_71398501.boc');
    const accounts = JSON.parse(readFixture('states/mainnet_block71398501_prev_shard_accounts.json').toString('utf8')) as Array<{
      account: string;
      account_root_hash: string;
      shard_account_boc_base64: string;
    }>;
    const { map, put } = storeOf();
    const lookup = (hs: string[]) => new Map(hs.flatMap((h) => (map.has(h) ? [[h, map.get(h)!]] : [])));

    const parsed = parseBlock(bytes);
    const u = parsed.block.stateUpdate;
    collectWholeCells(parsed.boc, [u.old, u.new], put);
    const lastTx = new Map<string, ReturnType<typeof decodeBlock>['transactions'][number]>();
    for (const t of decodeBlock(bytes).transactions) lastTx.set(t.account, t);

    // From the block alone, most states cannot be rebuilt: unchanged code and data are pruned.
    let fromBlockAlone = 0;
    for (const a of accounts) {
      const after = hex(lastTx.get(a.account.toUpperCase())!.account_state_after.hash);
      if ('cell' in (await rebuildCell(after, lookup))) fromBlockAlone++;
    }
    expect(fromBlockAlone).toBeLessThan(accounts.length);

    for (const a of accounts) {
      const boc = Boc.parse(Buffer.from(a.shard_account_boc_base64, 'base64'));
      collectWholeCells(boc, boc.roots, put);
    }
    let rebuilt = 0;
    for (const a of accounts) {
      const after = hex(lastTx.get(a.account.toUpperCase())!.account_state_after.hash);
      const r = await rebuildCell(after, lookup);
      if (!('cell' in r)) throw new Error(`${a.account}: ${r.missing.length} cells missing`);
      expect(r.cell.hash().toString('hex')).toBe(after);
      rebuilt++;
    }
    expect(rebuilt).toBe(accounts.length);
  });
});
