import { storeMerkleUpdate, storePrunedBranch } from '../../ton/tlb/MerkleUpdate.js';
import { DBuilder, DCell } from './cell.js';

/**
 * The Merkle update of a block (block.tlb `!merkle_update#04 ... old:^X new:^X`, vm/cells/MerkleUpdate.cpp):
 * the old state with every subtree the new state shares pruned away, and the new state with every subtree the
 * old side already holds pruned away.
 *
 * Which cells changed is found without walking either state whole: both trees are expanded from their roots,
 * deepest pending cell first. A cell can only equal a cell of the same depth, and when depth `d` comes up every
 * cell of depth `d` that hangs below an expanded (changed) cell on the other side is already known, so a pending
 * cell whose hash is not among them is changed and gets expanded; one that is found is shared and gets pruned.
 * The work is proportional to the changed cells and their direct children.
 */
export function merkleUpdate(oldRoot: DCell, newRoot: DCell): DCell {
  const seen: [Map<string, DCell>, Map<string, DCell>] = [new Map(), new Map()];
  const expanded: [Set<string>, Set<string>] = [new Set(), new Set()];
  const buckets: Array<Array<[0 | 1, DCell]>> = [];
  const push = (side: 0 | 1, c: DCell): void => {
    const k = key(c);
    if (seen[side].has(k)) return;
    seen[side].set(k, c);
    (buckets[c.depth()] ??= []).push([side, c]);
  };
  push(0, oldRoot);
  push(1, newRoot);
  for (let d = buckets.length - 1; d >= 0; d--) {
    const bucket = buckets[d];
    if (!bucket) continue;
    // Expanding only adds shallower cells, so this bucket is complete.
    for (const [side, c] of bucket) {
      if (seen[1 - side]!.has(key(c))) continue;
      expanded[side].add(key(c));
      for (const r of c.refs) push(side, r);
    }
  }
  const oldSide = prune(oldRoot, expanded[0], new Map());
  const newSide = prune(newRoot, expanded[1], new Map());
  const b = new DBuilder();
  storeMerkleUpdate({ oldHash: oldRoot.hash(), newHash: newRoot.hash(), oldDepth: oldRoot.depth(), newDepth: newRoot.depth(), old: oldSide, new: newSide }, b);
  return b.endCell({ exotic: true });
}

function key(c: DCell): string {
  return c.key;
}

/** `c` with every child that is not expanded replaced by a pruned branch; unchanged objects are reused. */
function prune(c: DCell, expanded: Set<string>, memo: Map<string, DCell>): DCell {
  const k = key(c);
  const done = memo.get(k);
  if (done) return done;
  let out: DCell;
  if (!expanded.has(k)) {
    out = prunedBranch(c);
  } else {
    const refs = c.refs.map((r) => prune(r, expanded, memo));
    out = refs.every((r, i) => r === c.refs[i]) ? c : new DCell(c.data, c.bits, refs, c.type);
  }
  memo.set(k, out);
  return out;
}

/** The level-1 pruned branch standing for `c`. */
export function prunedBranch(c: DCell): DCell {
  const b = new DBuilder();
  storePrunedBranch(c.hash(), c.depth(), b);
  return b.endCell({ exotic: true });
}

/**
 * Applies a Merkle update to the state it was made from (vm/cells/MerkleUpdate.cpp `apply`): the new side with
 * each pruned branch replaced by the old state's cell of that hash. Throws when `oldRoot` is not the update's
 * old state or the result does not hash to its new one.
 */
export function applyMerkleUpdate(oldRoot: DCell, update: DCell): DCell {
  if (update.type !== 4) throw new Error('not a Merkle update cell');
  const oldHash = update.data.subarray(1, 33);
  const newHash = update.data.subarray(33, 65);
  if (Buffer.compare(Buffer.from(oldRoot.hash()), Buffer.from(oldHash)) !== 0) throw new Error('Merkle update does not start from this state');
  const known = new Map<string, DCell>();
  const index = (side: DCell, full: DCell): void => {
    const k = Buffer.from(side.hash(0)).toString('latin1');
    if (known.has(k)) return;
    known.set(k, full);
    if (side.type === 1) return;
    side.refs.forEach((r, i) => index(r, full.refs[i]!));
  };
  index(update.refs[0]!, oldRoot);
  const memo = new Map<DCell, DCell>();
  const build = (c: DCell): DCell => {
    if (c.levelMask === 0) return c;
    const done = memo.get(c);
    if (done) return done;
    let out: DCell;
    if (c.type === 1) {
      const full = known.get(Buffer.from(c.hash(0)).toString('latin1'));
      if (!full) throw new Error('Merkle update prunes a cell its old side does not have');
      out = full;
    } else {
      out = new DCell(c.data, c.bits, c.refs.map(build), c.type);
    }
    memo.set(c, out);
    return out;
  };
  const result = build(update.refs[1]!);
  if (Buffer.compare(Buffer.from(result.hash()), Buffer.from(newHash)) !== 0) throw new Error('Merkle update result does not match its new hash');
  return result;
}
