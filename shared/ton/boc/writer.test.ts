import { readdirSync } from 'node:fs';
import path from 'node:path';
import {
  Cell,
  Dictionary,
  beginCell,
  convertToMerkleProof,
  loadCurrencyCollection,
  loadMessage,
  type Slice as CoreSlice,
} from '@ton/core';
import { describe, expect, it } from 'vitest';
import { describeFixtures, fixturesDir, readFixture } from '../../../test/helpers/fixtures.js';
import { BitWriter, BuiltCell, cellHash, hashBuiltCells, sliceToCell, type CellNode } from './built.js';
import { Boc } from './reader.js';
import { Slice } from './slice.js';
import { serializeBoc } from './writer.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** A small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Walks our cells and @ton/core's tree in parallel (same child order): @ton/core cell -> our index, and back. */
function pair(boc: Boc, root: Cell): { toIndex: Map<Cell, number>; toCell: Cell[] } {
  const toIndex = new Map<Cell, number>();
  const toCell: Cell[] = new Array(boc.count);
  const stack: Array<[number, Cell]> = [[boc.root, root]];
  while (stack.length > 0) {
    const [i, c] = stack.pop()!;
    if (toCell[i] !== undefined) continue;
    toCell[i] = c;
    toIndex.set(c, i);
    expect(boc.refCount(i)).toBe(c.refs.length);
    for (let r = 0; r < c.refs.length; r++) stack.push([boc.ref(i, r), c.refs[r]!]);
  }
  return { toIndex, toCell };
}

function expectSameBoc(ours: Uint8Array, theirs: Buffer, what: string): void {
  if (!Buffer.from(ours).equals(theirs)) {
    // Show the first differing byte rather than two long buffers.
    let k = 0;
    while (k < ours.length && ours[k] === theirs[k]) k++;
    expect.fail(`${what}: BOCs differ at byte ${k} (ours ${ours.length} bytes, @ton/core ${theirs.length} bytes)`);
  }
}

/** Distinct cells (by hash) of a @ton/core tree. */
function distinctCells(cell: Cell): number {
  const seen = new Set<string>();
  const stack = [cell];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const h = c.hash().toString('hex');
    if (seen.has(h)) continue;
    seen.add(h);
    stack.push(...c.refs);
  }
  return seen.size;
}

/** True when @ton/core's order and the node's order cannot differ: a chain, or a root whose children are leaves. */
function orderIsUnambiguous(cell: Cell): boolean {
  if (cell.refs.every((r) => r.refs.length === 0)) return true;
  return cell.refs.length === 1 && orderIsUnambiguous(cell.refs[0]!);
}

/**
 * Checks `serializeBoc` of `node` against @ton/core, with and without CRC. Our writer follows the node's
 * (crypto/vm/boc.cpp) cell order, which TON Center's bodies prove (records/shape.test.ts compares real ones), and
 * which differs from @ton/core's for deeper trees; so here the BOC must decode with @ton/core to the same tree,
 * hold each distinct cell once and carry a valid CRC, and equal @ton/core's bytes where the orders coincide.
 */
function checkSerialize(boc: Boc, node: CellNode, cell: Cell, what: string): void {
  for (const crc32 of [true, false]) {
    const ours = serializeBoc(boc, node, { crc32 });
    const back = Cell.fromBoc(Buffer.from(ours));
    expect(back.length, what).toBe(1);
    expect(back[0]!.hash().toString('hex'), `${what}: ${crc32 ? 'crc32' : 'no crc32'} decodes to the same tree`).toBe(cell.hash().toString('hex'));
    expect(Boc.parse(ours).count, `${what}: each distinct cell once`).toBe(distinctCells(cell));
    if (orderIsUnambiguous(cell)) expectSameBoc(ours, cell.toBoc({ idx: false, crc32 }), `${what} ${crc32 ? 'crc32' : 'no crc32'}`);
  }
}

/**
 * The transaction cells of a block, found with @ton/core only: Block -> BlockExtra -> ShardAccountBlocks
 * (HashmapAugE 256 AccountBlock CurrencyCollection) -> AccountBlock.transactions (HashmapAug 64 ^Transaction ...).
 */
function blockTransactions(root: Cell): Cell[] {
  const s = root.beginParse();
  expect(s.loadUint(32)).toBe(0x11ef55aa); // block#11ef55aa
  const extra = root.refs[3]!.beginParse();
  expect(extra.loadUint(32)).toBe(0x4a33f6fd); // block_extra
  extra.loadRef();
  extra.loadRef();
  const accountBlocks = extra.loadRef().beginParse();
  if (!accountBlocks.loadBit()) return [];
  const noStore = (): never => {
    throw new Error('not used');
  };
  const accounts = Dictionary.loadDirect(
    Dictionary.Keys.BigUint(256),
    {
      serialize: noStore,
      parse: (v: CoreSlice): Cell[] => {
        loadCurrencyCollection(v); // aug extra
        expect(v.loadUint(4)).toBe(5); // acc_trans#5
        v.skip(256);
        const txs = Dictionary.loadDirect(
          Dictionary.Keys.BigUint(64),
          {
            serialize: noStore,
            parse: (t: CoreSlice): Cell => {
              loadCurrencyCollection(t);
              return t.loadRef();
            },
          },
          v,
        );
        v.loadRef(); // state_update
        return txs.values();
      },
    },
    accountBlocks.loadRef(),
  );
  return accounts.values().flat();
}

/** In-message and out-messages of a transaction cell (`^[ in_msg:(Maybe ^Message) out_msgs:(HashmapE 15 ^Message) ]`). */
function transactionMessages(tx: Cell): Cell[] {
  const io = tx.refs[0]!.beginParse();
  const out: Cell[] = [];
  if (io.loadBit()) out.push(io.loadRef());
  const outs = io.loadDict(Dictionary.Keys.Uint(15), {
    serialize: () => {
      throw new Error('not used');
    },
    parse: (x: CoreSlice) => x.loadRef(),
  });
  out.push(...outs.values());
  return out;
}

interface BodyCase {
  msgIndex: number;
  body: Cell;
  inline: boolean;
}

/** Message bodies of every transaction: `body:(Either X ^X)`; @ton/core gives inline bodies as `slice.asCell()`. */
function messageBodies(txs: Cell[], toIndex: Map<Cell, number>): BodyCase[] {
  const out: BodyCase[] = [];
  for (const tx of txs) {
    for (const m of transactionMessages(tx)) {
      const body = loadMessage(m.beginParse()).body;
      out.push({ msgIndex: toIndex.get(m)!, body, inline: !m.refs.includes(body) });
    }
  }
  return out;
}

const BLOCK_FILES = (): string[] =>
  readdirSync(path.join(fixturesDir, 'blocks'))
    .filter((f) => f.endsWith('.boc'))
    .sort();

// =====================================================================================================================

describeFixtures('serializeBoc: transaction cells of blocks decode as @ton/core reads them', () => {
  // Expected transaction counts from MANIFEST.md (tx=...).
  const TX_COUNT: Record<string, number> = {
    'mainnet_0_8000000000000000_71398501.boc': 269,
    'mainnet_0_8000000000000000_40484416.boc': 479,
    'mainnet_0_c000000000000000_13516764_after_merge.boc': 449,
    'mainnet_0_6000000000000000_52111590.boc': 30,
    'mainnet_-1_8000000000000000_46991999_keyblock.boc': 3,
    'mainnet_0_a000000000000000_54302208.boc': 11,
    'mainnet_0_8000000000000000_34703989_nft.boc': 7,
    'mainnet_-1_8000000000000000_17734191.boc': 6,
  };

  it.each(BLOCK_FILES())('%s: every transaction cell, with and without CRC', (file) => {
    const bytes = readFixture(`blocks/${file}`);
    const boc = Boc.parse(bytes);
    const root = Cell.fromBoc(bytes)[0]!;
    const { toIndex } = pair(boc, root);
    const txs = blockTransactions(root);
    if (TX_COUNT[file] !== undefined) expect(txs.length).toBe(TX_COUNT[file]);
    for (const tx of txs) {
      const i = toIndex.get(tx);
      expect(i, 'transaction cell found in our BOC').toBeDefined();
      checkSerialize(boc, i!, tx, `${file} tx cell ${i}`);
    }
  });

  it.each(BLOCK_FILES().filter((f) => !/empty|4168601|trimmed/.test(f)))(
    '%s: every message body (ref bodies by index, inline bodies via sliceToCell)',
    (file) => {
      const bytes = readFixture(`blocks/${file}`);
      const boc = Boc.parse(bytes);
      const root = Cell.fromBoc(bytes)[0]!;
      const { toIndex } = pair(boc, root);
      const bodies = messageBodies(blockTransactions(root), toIndex);
      expect(bodies.length).toBeGreaterThan(0);
      for (const { msgIndex, body, inline } of bodies) {
        let node: CellNode;
        if (!inline) {
          node = toIndex.get(body)!;
          expect(node).toBeDefined();
        } else {
          // The body is the rest of the message cell: position our Slice where @ton/core's body starts.
          const s = new Slice(boc, msgIndex);
          s.skip(boc.bitLen[msgIndex]! - body.bits.length);
          for (let r = boc.refCount(msgIndex) - body.refs.length; r > 0; r--) s.loadRef();
          node = sliceToCell(s);
          expect(node).toBeInstanceOf(BuiltCell);
        }
        expect(hex(cellHash(boc, node)), `body hash of message ${msgIndex}`).toBe(body.hash().toString('hex'));
        checkSerialize(boc, node, body, `${file} body of message ${msgIndex}${inline ? ' (inline)' : ''}`);
      }
    },
  );

  it.each(['mainnet_-1_8000000000000000_17734191.boc', 'mainnet_0_8000000000000000_34703989_nft.boc'])(
    '%s: the subtree of EVERY cell (exotic, pruned and level>0 cells included)',
    (file) => {
      const bytes = readFixture(`blocks/${file}`);
      const boc = Boc.parse(bytes);
      const { toCell } = pair(boc, Cell.fromBoc(bytes)[0]!);
      for (let i = 0; i < boc.count; i++) checkSerialize(boc, i, toCell[i]!, `${file} cell ${i}`);
    },
  );
});

describeFixtures('serializeBoc: transaction fixtures', () => {
  const files = readdirSync(path.join(fixturesDir, 'transactions'))
    .filter((f) => f.endsWith('.boc'))
    .sort();
  it.each(files)('%s: root and every subtree equal @ton/core', (file) => {
    const bytes = readFixture(`transactions/${file}`);
    const boc = Boc.parse(bytes);
    const { toCell } = pair(boc, Cell.fromBoc(bytes)[0]!);
    for (let i = 0; i < boc.count; i++) checkSerialize(boc, i, toCell[i]!, `${file} cell ${i}`);
  });

  it('a BOC already in @ton/core form (no index, CRC) round-trips to its own bytes', () => {
    for (const file of files) {
      const bytes = readFixture(`transactions/${file}`);
      const boc = Boc.parse(bytes);
      const canonical = Cell.fromBoc(bytes)[0]!.toBoc({ idx: false, crc32: true });
      if (!canonical.equals(bytes)) continue;
      expectSameBoc(serializeBoc(boc, boc.root, { crc32: true }), bytes, file);
    }
  });
});

/** Partial reads: skip `bits`, load `refs`; compare sliceToCell with `beginCell().storeSlice(rest).endCell()`. */
function checkPartial(boc: Boc, i: number, cell: Cell, bits: number, refs: number): void {
  const s = new Slice(boc, i);
  s.skip(bits);
  for (let r = 0; r < refs; r++) s.loadRef();
  const node = sliceToCell(s);
  const cs = cell.beginParse();
  cs.skip(bits);
  for (let r = 0; r < refs; r++) cs.loadRef();
  const expected = beginCell().storeSlice(cs).endCell();
  const what = `cell ${i} after ${bits} bits and ${refs} refs (level ${expected.level()})`;
  expect(hex(cellHash(boc, node)), what).toBe(expected.hash().toString('hex'));
  if (node instanceof BuiltCell) expect(node.depth(), what).toBe(expected.depth());
  checkSerialize(boc, node, expected, what);
}

/** Random partial-read points of every ordinary cell, seeded. */
function partialPoints(boc: Boc, seed: number, perCell: number): Array<[number, number, number]> {
  const rnd = prng(seed);
  const out: Array<[number, number, number]> = [];
  for (let i = 0; i < boc.count; i++) {
    if (boc.isExotic(i)) continue;
    const bits = boc.bitLen[i]!;
    const refs = boc.refCount(i);
    out.push([i, bits, refs]); // everything read: an empty cell
    for (let k = 0; k < perCell; k++) {
      const b = Math.floor(rnd() * (bits + 1));
      const r = Math.floor(rnd() * (refs + 1));
      if (b === 0 && r === 0) continue;
      out.push([i, b, r]);
    }
  }
  return out;
}

describeFixtures('sliceToCell: the rest of a partially read slice', () => {
  const FILE = 'blocks/mainnet_0_8000000000000000_34703989_nft.boc';

  it('an unread slice gives the cell itself', () => {
    const boc = Boc.parse(readFixture(FILE));
    for (let i = 0; i < boc.count; i++) expect(sliceToCell(new Slice(boc, i))).toBe(i);
  });

  it('level-0 cells: hash, depth and serialization equal @ton/core beginCell().storeSlice(rest).endCell()', () => {
    const bytes = readFixture(FILE);
    const boc = Boc.parse(bytes);
    const { toCell } = pair(boc, Cell.fromBoc(bytes)[0]!);
    let n = 0;
    for (const [i, b, r] of partialPoints(boc, 0x5eed, 3)) {
      if (boc.levelMask(i) !== 0) continue;
      checkPartial(boc, i, toCell[i]!, b, r);
      n++;
    }
    expect(n).toBeGreaterThan(500);
  });

  it('hashBuiltCells: one batch of built cells hashes each as @ton/core does, and leaves the rest to hash()', () => {
    const bytes = readFixture(FILE);
    const boc = Boc.parse(bytes);
    boc.hashAll();
    const { toCell } = pair(boc, Cell.fromBoc(bytes)[0]!);
    const nodes: CellNode[] = [];
    const expected: Cell[] = [];
    // Level-0 and level-1 cells alike: the batch takes the first, the second hash on first use.
    for (const [i, b, r] of partialPoints(boc, 0xba7c4, 4)) {
      const s = new Slice(boc, i);
      s.skip(b);
      for (let k = 0; k < r; k++) s.loadRef();
      const cs = toCell[i]!.beginParse();
      cs.skip(b);
      for (let k = 0; k < r; k++) cs.loadRef();
      nodes.push(sliceToCell(s));
      expected.push(beginCell().storeSlice(cs).endCell());
    }
    const built = nodes.filter((n): n is BuiltCell => n instanceof BuiltCell);
    const batchable = built.filter((n) => n.batchable()).length;
    // More than one queue's worth (256) of each common length, and cells it must leave alone.
    expect(batchable).toBeGreaterThan(1000);
    expect(built.length - batchable).toBeGreaterThan(100);
    hashBuiltCells([...nodes, ...nodes]);
    expect(built.filter((n) => n.batchable())).toEqual([]);
    for (let k = 0; k < nodes.length; k++) {
      const node = nodes[k]!;
      expect(hex(cellHash(boc, node)), `node ${k}`).toBe(expected[k]!.hash().toString('hex'));
      if (node instanceof BuiltCell) expect(node.depth(), `node ${k}`).toBe(expected[k]!.depth());
    }
  });

  // Cells under the block's Merkle update reference pruned branches, so their level is 1. A cell built from the rest
  // of such a cell is an ordinary cell of level 1 whose representation hash is its level-1 hash (tvm.pdf §3.1.6,
  // @ton/core Cell.hash()); BuiltCell.hash() computes only the level-0 hash, with d1 missing the level mask.
  it('cells with level > 0 (refs to pruned branches): hash equals @ton/core', () => {
    const bytes = readFixture(FILE);
    const boc = Boc.parse(bytes);
    const { toCell } = pair(boc, Cell.fromBoc(bytes)[0]!);
    const failures: string[] = [];
    let n = 0;
    for (const [i, b, r] of partialPoints(boc, 0x1e7e1, 2)) {
      if (boc.levelMask(i) === 0) continue;
      n++;
      const s = new Slice(boc, i);
      s.skip(b);
      for (let k = 0; k < r; k++) s.loadRef();
      const node = sliceToCell(s);
      const cs = toCell[i]!.beginParse();
      cs.skip(b);
      for (let k = 0; k < r; k++) cs.loadRef();
      const expected = beginCell().storeSlice(cs).endCell();
      if (hex(cellHash(boc, node)) !== expected.hash().toString('hex')) {
        failures.push(`cell ${i} +${b} bits +${r} refs (expected level ${expected.level()})`);
      }
    }
    expect(n).toBeGreaterThan(100);
    expect(failures.slice(0, 5), `${failures.length} of ${n} partial slices hash differently`).toEqual([]);
  });
});

// =====================================================================================================================
// Fixture-free checks on cells built with @ton/core.

function syntheticTree(): Cell {
  const leaf = beginCell().storeUint(0xdead, 16).endCell();
  const empty = beginCell().endCell();
  const shared = beginCell().storeBit(1).storeRef(leaf).endCell();
  const full = beginCell().storeBuffer(Buffer.alloc(127, 0xa5)).storeUint(0x55, 7).endCell();
  const pruned = beginCell()
    .storeUint(1, 8)
    .storeUint(1, 8)
    .storeBuffer(full.hash())
    .storeUint(full.depth(), 16)
    .endCell({ exotic: true });
  const proof = convertToMerkleProof(beginCell().storeUint(5, 3).storeRef(pruned).storeRef(shared).endCell());
  const lib = beginCell().storeUint(2, 8).storeBuffer(leaf.hash()).endCell({ exotic: true });
  const seven = beginCell().storeUint(0x55, 7).storeRef(shared).storeRef(empty).storeRef(shared).endCell();
  return beginCell().storeUint(0x11223344, 32).storeRef(seven).storeRef(full).storeRef(proof).storeRef(lib).endCell();
}

describe('serializeBoc: cells built with @ton/core', () => {
  it('every subtree of a tree with shared, empty, 1023-bit and exotic cells', () => {
    const tree = syntheticTree();
    for (const form of [
      { idx: false, crc32: true },
      { idx: true, crc32: false },
    ]) {
      const bytes = tree.toBoc(form);
      const boc = Boc.parse(bytes);
      const { toCell } = pair(boc, Cell.fromBoc(bytes)[0]!);
      for (let i = 0; i < boc.count; i++) checkSerialize(boc, i, toCell[i]!, `cell ${i}`);
    }
  });

  it('a tree of more than 255 cells uses 2-byte references, as @ton/core', () => {
    let c = beginCell().storeUint(0, 8).endCell();
    for (let i = 1; i < 300; i++) c = beginCell().storeUint(i & 0xff, 8).storeUint(i, 16).storeRef(c).endCell();
    const boc = Boc.parse(c.toBoc());
    checkSerialize(boc, boc.root, c, 'chain of 300');
  });

  it('a single empty cell', () => {
    const c = beginCell().endCell();
    const boc = Boc.parse(c.toBoc());
    checkSerialize(boc, boc.root, c, 'empty cell');
  });

  it('BitWriter-built cells hash and serialize like @ton/core builders', () => {
    const src = beginCell().storeUint(0xabcdef, 24).storeUint(5, 3).storeRef(beginCell().storeUint(1, 1).endCell()).endCell();
    const boc = Boc.parse(src.toBoc());
    const s = new Slice(boc, boc.root);
    const w = new BitWriter();
    w.writeBit(true);
    w.writeUint(0x1234, 13);
    w.writeSliceBits(s, 3, 20);
    const built = w.toCell(boc, [boc.ref(boc.root, 0), boc.root]);
    const cs = src.beginParse();
    cs.skip(3);
    const expected = beginCell()
      .storeBit(true)
      .storeUint(0x1234, 13)
      .storeBits(cs.loadBits(20))
      .storeRef(src.refs[0]!)
      .storeRef(src)
      .endCell();
    expect(hex(built.hash())).toBe(expected.hash().toString('hex'));
    expect(built.depth()).toBe(expected.depth());
    checkSerialize(boc, built, expected, 'BitWriter cell');
  });

  it('sliceToCell at every bit offset of a 1023-bit cell with refs', () => {
    const a = beginCell().storeUint(7, 3).endCell();
    const b = beginCell().storeUint(9, 4).storeRef(a).endCell();
    const full = beginCell().storeBuffer(Buffer.from(Array.from({ length: 127 }, (_, k) => (k * 37) & 0xff))).storeUint(0x2a, 7);
    const src = full.storeRef(a).storeRef(b).endCell();
    const boc = Boc.parse(src.toBoc());
    for (let bits = 0; bits <= 1023; bits++) {
      for (const refs of bits % 97 === 0 ? [0, 1, 2] : [bits % 3]) {
        if (bits === 0 && refs === 0) continue;
        checkPartial(boc, boc.root, src, bits, refs);
      }
    }
  });

  // @ton/core (like the node's BagOfCells) stores each distinct cell once, keyed by hash. A bag that holds the same
  // cell twice under two indices (legal to read, never emitted by TON serializers) re-serializes with both copies.
  it('a bag holding the same cell twice re-serializes with one copy, as @ton/core', () => {
    // root(aa) -> [cell 1 = (cc), cell 2 = (cc)] written by hand, no dedup.
    const bytes = Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x01, 0x01, 3, 1, 0, 11, 0, 2, 2, 0xaa, 1, 2, 0, 2, 0xcc, 0, 2, 0xcc]);
    const boc = Boc.parse(bytes);
    const theirs = Cell.fromBoc(bytes)[0]!;
    expect(hex(boc.hash(1))).toBe(hex(boc.hash(2)));
    checkSerialize(boc, boc.root, theirs, 'duplicated cell');
  });
});
