import { describe, expect, it } from 'vitest';
import type { BlockId } from './source.js';
import { type BlockCandidate, blockKey, verifyCandidates } from './verify.js';

/*
 * The rules of verifyCandidates on block ids and hashes alone (the files-verify integration test runs them on real
 * blocks): who states whose hash, through a merge and a split, what happens at the newest masterchain block, at a
 * gap, and with further copies of one block.
 */

const h = (n: number): Uint8Array => new Uint8Array(32).fill(n);
const id = (workchain: number, shard: string, seqno: number): BlockId => ({ workchain, shard, seqno });
const ref = (b: C) => ({ id: b.id, rootHash: b.rootHash, fileHash: b.fileHash });

interface C extends BlockCandidate {
  name: string;
}

function block(name: string, bid: BlockId, root: number, prev: C[] = [], tips: C[] = [], file = root): C {
  return { name, id: bid, rootHash: h(root), fileHash: h(file), prev: prev.map(ref), shardTips: tips.map(ref) };
}

/** A copy claiming `b`'s id with another root hash (what a corrupted file is to the verifier). */
const forged = (b: C, root: number): C => ({ ...b, name: `${b.name}'`, rootHash: h(root) });

describe('verifyCandidates', () => {
  // Shard 0:8000 splits into 0:4000 and 0:C000 after seqno 10; they merge back into 0:8000 at seqno 13.
  const s10 = block('s10', id(0, '8000000000000000', 10), 10);
  const l11 = block('l11', id(0, '4000000000000000', 11), 11, [s10]);
  const r11 = block('r11', id(0, 'C000000000000000', 11), 12, [s10]);
  const l12 = block('l12', id(0, '4000000000000000', 12), 13, [l11]);
  const m13 = block('m13', id(0, '8000000000000000', 13), 14, [l12, r11]);
  const mc1 = block('mc1', id(-1, '8000000000000000', 1), 101, [], [s10]);
  const mc2 = block('mc2', id(-1, '8000000000000000', 2), 102, [mc1], [l11, r11]);
  const mc3 = block('mc3', id(-1, '8000000000000000', 3), 103, [mc2], [m13]);
  const chain = [s10, l11, r11, l12, m13, mc1, mc2, mc3];

  it('verifies every block of a consistent chain but the newest masterchain block, through a split and a merge', () => {
    const v = verifyCandidates(chain);
    expect(v.rejected).toEqual([]);
    expect([...v.accepted.keys()].sort()).toEqual(chain.map((b) => blockKey(b.id)).sort());
    const unverified = [...v.accepted.values()].filter((a) => a.stated === null).map((a) => (a.block).name);
    expect(unverified).toEqual(['mc3']);
    expect(v.accepted.get(blockKey(l12.id))!.stated!.by).toBe('prev_ref of 0:8000000000000000:13');
    expect(v.accepted.get(blockKey(m13.id))!.stated!.by).toBe('ShardDescr in masterchain block 3');
  });

  it('rejects a copy with another root hash wherever it sits, keeping the stated block, in either file order', () => {
    for (const victim of [mc1, mc2, s10, r11, l12, m13]) {
      const bad = forged(victim, 200);
      for (const order of [[...chain, bad], [bad, ...chain]]) {
        const v = verifyCandidates(order);
        expect(v.accepted.get(blockKey(victim.id))!.block).toBe(victim);
        expect(v.rejected.map((r) => [r.block, r.error.code])).toEqual([[bad, 'BLOCK_HASH_MISMATCH']]);
        expect(v.rejected[0]!.error.message).toContain(Buffer.from(h(200)).toString('hex'));
      }
    }
  });

  it('rejects a lone forged block, and what only it would vouch for is no longer verified', () => {
    const bad = forged(mc2, 200);
    const v = verifyCandidates([s10, l11, r11, l12, m13, mc1, bad, mc3]);
    expect(v.rejected.map((r) => r.block)).toEqual([bad]);
    expect(v.accepted.has(blockKey(mc2.id))).toBe(false);
    // mc1 was stated only by mc2's prev_ref: accepted, unverified. s10 is still stated by l11/r11.
    expect(v.accepted.get(blockKey(mc1.id))!.stated).toBeNull();
    expect(v.accepted.get(blockKey(s10.id))!.stated).not.toBeNull();
  });

  it('two different blocks for the newest masterchain block: a conflict, both rejected', () => {
    const bad = forged(mc3, 200);
    const v = verifyCandidates([...chain, bad]);
    expect(v.rejected.map((r) => (r.block).name).sort()).toEqual(['mc3', "mc3'"].sort());
    expect(v.rejected.map((r) => r.error.code)).toEqual(['BLOCK_CONFLICT', 'BLOCK_CONFLICT']);
    // m13 was stated by mc3 alone.
    expect(v.accepted.get(blockKey(m13.id))!.stated).toBeNull();
    expect(v.accepted.get(blockKey(mc2.id))!.stated).toBeNull();
  });

  it('another serialization of a block (same root hash) is a duplicate, the copy with the stated file hash kept', () => {
    const reserialized = block('mc2-reser', mc2.id, 102, [mc1], [l11, r11], 55);
    const v = verifyCandidates([reserialized, ...chain]);
    expect(v.rejected).toEqual([]);
    expect(v.accepted.get(blockKey(mc2.id))!.block).toBe(mc2);
    expect(v.duplicates).toEqual([{ block: reserialized, of: mc2 }]);
  });

  it('shard blocks with no masterchain block: unverified, a conflict rejected', () => {
    const bad = forged(l12, 200);
    const v = verifyCandidates([l11, l12, bad]);
    expect(v.accepted.get(blockKey(l11.id))!.stated).toBeNull();
    expect(v.accepted.has(blockKey(l12.id))).toBe(false);
    expect(v.rejected.map((r) => r.error.code)).toEqual(['BLOCK_CONFLICT', 'BLOCK_CONFLICT']);
  });
});
