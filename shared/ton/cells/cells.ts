import { BitString, Cell } from '@ton/core';
import type { Boc } from '../boc/reader.js';

/**
 * Content-addressed cells: the pieces a full account state is rebuilt from. A block carries its state change as a
 * Merkle update (block.tlb `!merkle_update#04 ... old:^X new:^X`) in which everything the block did not touch is a
 * pruned branch holding only the hash of what it replaces, so one block alone rarely holds an account's code and
 * data. Every cell that does arrive whole, in any block or snapshot, is kept once by the hash it has in the real
 * state; a state is then rebuilt from its root hash whenever all of its cells have been seen.
 *
 * Inside a Merkle update a cell above a pruned branch has level mask 1 and several hashes; its level-0 hash is the
 * hash of the original cell (tvm.pdf §3.1.4-3.1.6: hashes below a cell's level are computed with each pruned
 * branch's stored hash in its place), and that is the key here. The record stores the original cell: descriptor
 * with level mask 0, data, and the level-0 hashes of its children.
 */

/** A stored cell: `d1 d2 data[⌈d2/2⌉] child_hash[32]×refs` (d1, d2 as in the BOC serialization, level mask 0). */
export type CellRecord = Uint8Array;

/** Exotic cell types (tvm.pdf §3.1.7) that are wrappers or placeholders, never part of a real state. */
const PRUNED_BRANCH = 1;
const MERKLE_PROOF = 3;
const MERKLE_UPDATE = 4;

/** Receives each whole cell of a bag once: its level-0 hash (hex) and its record. */
export type CellSink = (hashHex: string, record: CellRecord) => void;

/**
 * Walks the cells reachable from `roots` in `boc` and hands every whole cell to `sink`: pruned branches are
 * skipped (they are only hashes), Merkle proof and update cells are stepped through (their children are the
 * states they carry). Each cell index is visited once, so shared subtrees cost nothing twice.
 */
export function collectWholeCells(boc: Boc, roots: Iterable<number>, sink: CellSink): number {
  const seen = new Uint8Array(boc.count);
  const stack: number[] = [];
  for (const r of roots) stack.push(r);
  let emitted = 0;
  while (stack.length > 0) {
    const cell = stack.pop()!;
    if (seen[cell]) continue;
    seen[cell] = 1;
    const type = boc.exoticType(cell);
    const refs = boc.refCount(cell);
    if (type === PRUNED_BRANCH) continue;
    for (let i = 0; i < refs; i++) stack.push(boc.ref(cell, i));
    if (type === MERKLE_PROOF || type === MERKLE_UPDATE) continue;
    sink(Buffer.from(boc.hashAt(cell, 0)).toString('hex'), encodeRecord(boc, cell, refs));
    emitted++;
  }
  return emitted;
}

function encodeRecord(boc: Boc, cell: number, refs: number): CellRecord {
  const d2 = boc.d2[cell]!;
  const dataLen = (d2 + 1) >> 1;
  const out = new Uint8Array(2 + dataLen + 32 * refs);
  // Level mask cleared: the original cell of a state has none (only pruned branches and their ancestors do).
  out[0] = boc.d1[cell]! & 0x1f;
  out[1] = d2;
  const off = boc.dataOff[cell]!;
  out.set(boc.bytes.subarray(off, off + dataLen), 2);
  for (let i = 0; i < refs; i++) out.set(boc.hashAt(boc.ref(cell, i), 0), 2 + dataLen + 32 * i);
  return out;
}

interface DecodedRecord {
  exotic: boolean;
  bits: BitString;
  children: string[];
}

function decodeRecord(record: CellRecord): DecodedRecord {
  const d1 = record[0]!;
  const d2 = record[1]!;
  const refs = d1 & 7;
  const dataLen = (d2 + 1) >> 1;
  const data = Buffer.from(record.subarray(2, 2 + dataLen));
  let bits = 8 * dataLen;
  // An odd d2 means the last byte ends in a completion tag: a 1 bit, then zeros (tvm.pdf §3.1.4).
  if (d2 & 1) {
    const last = data[dataLen - 1]!;
    if (last === 0) throw new Error('cell record without its completion tag');
    bits -= 1 + Math.log2(last & -last);
  }
  const children: string[] = [];
  for (let i = 0; i < refs; i++) {
    const o = 2 + dataLen + 32 * i;
    children.push(Buffer.from(record.subarray(o, o + 32)).toString('hex'));
  }
  return { exotic: (d1 & 8) !== 0, bits: new BitString(data, 0, bits), children };
}

/**
 * The bits of the cell a record describes, as a bag of one cell without its references (base64, no index, no CRC).
 * Not that cell (its hash differs): for readers of the fields a data root holds in its own bits (a jetton wallet's
 * owner and master, an NFT item's collection and owner) when some cell below it was never seen whole, so the
 * whole cell cannot be rebuilt.
 */
export function recordBitsBoc(record: CellRecord): string {
  const d = decodeRecord(record);
  return new Cell({ exotic: false, bits: d.bits, refs: [] }).toBoc({ idx: false, crc32: false }).toString('base64');
}

/** Records by hash, fetched in rounds (one round per tree level): hashes it does not have are absent from the map. */
export type CellLookup = (hashesHex: string[]) => Promise<Map<string, CellRecord>> | Map<string, CellRecord>;

export type RebuildResult = { cell: Cell } | { missing: string[] };

/**
 * Rebuilds the cell whose hash is `rootHex` from stored records, breadth-first so that a lookup is one round per
 * level. Every rebuilt cell's hash is recomputed by @ton/core and must equal the key it was stored under: a
 * corrupt or forged record is an error, not a wrong state. When some cells were never seen the result lists
 * them (the caller may then fetch the state from its source).
 */
export async function rebuildCell(rootHex: string, lookup: CellLookup, maxCells = 1 << 20): Promise<RebuildResult> {
  const records = new Map<string, DecodedRecord>();
  const missing: string[] = [];
  let frontier = [rootHex];
  while (frontier.length > 0) {
    if (records.size + frontier.length > maxCells) throw new RangeError(`state of ${rootHex} exceeds ${maxCells} cells`);
    const found = await lookup(frontier);
    const next: string[] = [];
    for (const h of frontier) {
      const rec = found.get(h);
      if (!rec) {
        missing.push(h);
        continue;
      }
      const d = decodeRecord(rec);
      records.set(h, d);
      for (const c of d.children) if (!records.has(c) && !next.includes(c)) next.push(c);
    }
    frontier = next.filter((h) => !records.has(h));
  }
  if (missing.length > 0) return { missing };
  const built = new Map<string, Cell>();
  // Children before parents: an explicit post-order walk (states can be deeper than the JS stack likes).
  // A forged record may name itself or an ancestor as a child: `open` holds the cells being expanded.
  const stack: Array<{ h: string; expanded: boolean }> = [{ h: rootHex, expanded: false }];
  const open = new Set<string>();
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (built.has(top.h)) {
      stack.pop();
      continue;
    }
    const d = records.get(top.h)!;
    if (!top.expanded) {
      if (open.has(top.h)) throw new Error(`cell record ${top.h} is its own descendant: corrupt cell store`);
      open.add(top.h);
      top.expanded = true;
      for (const c of d.children) if (!built.has(c)) stack.push({ h: c, expanded: false });
      continue;
    }
    stack.pop();
    open.delete(top.h);
    const cell = new Cell({ exotic: d.exotic, bits: d.bits, refs: d.children.map((c) => built.get(c)!) });
    const got = cell.hash().toString('hex');
    if (got !== top.h) throw new Error(`cell record ${top.h} rebuilds to hash ${got}: corrupt cell store`);
    built.set(top.h, cell);
  }
  return { cell: built.get(rootHex)! };
}

/**
 * The bag of cells (base64, no index, no CRC: the form `account_states.code_boc`/`data_boc` hold) of the cell whose
 * hash is `hashB64` (base64, as the store keeps code and data hashes), rebuilt from stored records; null when some
 * of its cells were never seen. Throws as {@link rebuildCell} does on a corrupt record.
 */
export async function rebuildBoc(hashB64: string, lookup: CellLookup, maxCells?: number): Promise<string | null> {
  const hex = Buffer.from(hashB64, 'base64').toString('hex');
  if (hex.length !== 64) throw new RangeError(`cell hash ${JSON.stringify(hashB64)} is not 32 bytes`);
  const r = await rebuildCell(hex, lookup, maxCells);
  return 'cell' in r ? r.cell.toBoc({ idx: false, crc32: false }).toString('base64') : null;
}
