import { keyBit, storeHmLabel } from '../../ton/tlb/Hashmap.js';
import { type DCell, DBuilder, type DSlice } from './cell.js';

/**
 * A persistent (path-copying) Patricia trie that serializes to a `Hashmap n X` / `HashmapAug n X Y` (block.tlb).
 *
 * A shard state keeps its accounts and its out-message queue in such dictionaries; each block changes a few
 * hundred entries among possibly many thousands. Updating returns a new trie that shares every untouched node
 * with the old one, and each node caches its edge cell, so serializing the new state builds only the changed
 * paths (and the unchanged subtrees keep their very cell objects, which the Merkle update relies on to stay small).
 */
export interface TrieSpec<V, Y = undefined> {
  /** Key length `n` in bits. */
  bits: number;
  storeValue(value: V, b: DBuilder): void;
  /** Reads a leaf's value back (after its extra); used to rebuild a trie from a stored dictionary. */
  loadValue(s: DSlice): V;
  aug?: {
    leaf(value: V): Y;
    fork(left: Y, right: Y): Y;
    empty: Y;
    store(extra: Y, b: DBuilder): void;
    load(s: DSlice): Y;
  };
}

interface TrieNode<V, Y> {
  /** Key bit where this node's label starts. */
  readonly start: number;
  /** Key bit where the label ends: the fork bit of a fork, `n` for a leaf. */
  readonly end: number;
  /** A key of this subtree (the key itself for a leaf); its bits [start, end) are the label. */
  readonly key: Uint8Array;
  readonly value: V | undefined;
  readonly left: TrieNode<V, Y> | null;
  readonly right: TrieNode<V, Y> | null;
  readonly extra: Y;
  /** The serialized edge, once asked for. */
  cell: DCell | null;
}

export class PersistentTrie<V, Y = undefined> {
  private constructor(
    readonly spec: TrieSpec<V, Y>,
    private readonly root: TrieNode<V, Y> | null,
    readonly size: number,
  ) {}

  static empty<V, Y>(spec: TrieSpec<V, Y>): PersistentTrie<V, Y> {
    return new PersistentTrie(spec, null, 0);
  }

  /**
   * Rebuilds a trie from a stored `HashmapE`/`HashmapAugE` slice (positioned at its first bit), reusing the stored
   * cells as the nodes' cached edges, so nothing is re-serialized until it changes.
   */
  static load<V, Y>(spec: TrieSpec<V, Y>, s: DSlice): PersistentTrie<V, Y> {
    const present = s.loadBit();
    if (!present) {
      if (spec.aug) spec.aug.load(s);
      return PersistentTrie.empty(spec);
    }
    const rootCell = s.loadRef();
    if (spec.aug) spec.aug.load(s);
    const key = new Uint8Array((spec.bits + 7) >> 3);
    let size = 0;
    const walk = (cell: DCell, start: number): TrieNode<V, Y> => {
      const e = cell.beginParse();
      const m = spec.bits - start;
      let len: number;
      if (!e.loadBit()) {
        len = 0;
        while (e.loadBit()) len++;
        for (let i = 0; i < len; i++) setBit(key, start + i, e.loadBit());
      } else if (!e.loadBit()) {
        len = e.loadUint(32 - Math.clz32(m));
        for (let i = 0; i < len; i++) setBit(key, start + i, e.loadBit());
      } else {
        const v = e.loadBit();
        len = e.loadUint(32 - Math.clz32(m));
        for (let i = 0; i < len; i++) setBit(key, start + i, v);
      }
      const end = start + len;
      if (end === spec.bits) {
        const extra = spec.aug ? spec.aug.load(e) : (undefined as Y);
        size++;
        return { start, end, key: key.slice(), value: spec.loadValue(e), left: null, right: null, extra, cell };
      }
      const l = e.loadRef();
      const r = e.loadRef();
      setBit(key, end, false);
      const left = walk(l, end + 1);
      setBit(key, end, true);
      const right = walk(r, end + 1);
      const extra = spec.aug ? spec.aug.load(e) : (undefined as Y);
      return { start, end, key: left.key, value: undefined, left, right, extra, cell };
    };
    const root = walk(rootCell, 0);
    return new PersistentTrie(spec, root, size);
  }

  get(key: Uint8Array): V | undefined {
    let node = this.root;
    while (node) {
      for (let i = node.start; i < node.end; i++) if (keyBit(key, i) !== keyBit(node.key, i)) return undefined;
      if (node.end === this.spec.bits) return node.value;
      node = keyBit(key, node.end) ? node.right : node.left;
    }
    return undefined;
  }

  set(key: Uint8Array, value: V): PersistentTrie<V, Y> {
    const had = this.get(key) !== undefined;
    return new PersistentTrie(this.spec, this.setNode(this.root, key, value, 0), had ? this.size : this.size + 1);
  }

  delete(key: Uint8Array): PersistentTrie<V, Y> {
    if (this.get(key) === undefined) return this;
    return new PersistentTrie(this.spec, this.deleteNode(this.root!, key), this.size - 1);
  }

  /** Entries in key order. */
  *entries(): IterableIterator<[Uint8Array, V]> {
    const stack: Array<TrieNode<V, Y>> = this.root ? [this.root] : [];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.end === this.spec.bits) {
        yield [n.key, n.value as V];
        continue;
      }
      stack.push(n.right!, n.left!);
    }
  }

  /** The total augmentation (the empty extra for an empty map). */
  get extra(): Y {
    return this.root ? this.root.extra : (this.spec.aug?.empty as Y);
  }

  /** The root edge cell, or null when empty. */
  rootCell(): DCell | null {
    return this.root ? this.cellOf(this.root) : null;
  }

  /** Writes the map as `HashmapE n X` / `HashmapAugE n X Y`. */
  storeE(b: DBuilder): void {
    const root = this.rootCell();
    b.storeBit(root !== null);
    if (root) b.storeRef(root);
    if (this.spec.aug) this.spec.aug.store(this.extra, b);
  }

  private leaf(start: number, key: Uint8Array, value: V): TrieNode<V, Y> {
    const extra = this.spec.aug ? this.spec.aug.leaf(value) : (undefined as Y);
    return { start, end: this.spec.bits, key, value, left: null, right: null, extra, cell: null };
  }

  private fork(start: number, end: number, key: Uint8Array, left: TrieNode<V, Y>, right: TrieNode<V, Y>): TrieNode<V, Y> {
    const extra = this.spec.aug ? this.spec.aug.fork(left.extra, right.extra) : (undefined as Y);
    return { start, end, key, value: undefined, left, right, extra, cell: null };
  }

  /** The same subtree hanging from another position (its label, hence its edge cell, changes). */
  private moved(node: TrieNode<V, Y>, start: number): TrieNode<V, Y> {
    return node.start === start ? node : { ...node, start, cell: null };
  }

  private setNode(node: TrieNode<V, Y> | null, key: Uint8Array, value: V, start: number): TrieNode<V, Y> {
    if (!node) return this.leaf(start, key, value);
    let i = start;
    while (i < node.end && keyBit(key, i) === keyBit(node.key, i)) i++;
    if (i < node.end) {
      const fresh = this.leaf(i + 1, key, value);
      const old = this.moved(node, i + 1);
      return keyBit(key, i) ? this.fork(start, i, key, old, fresh) : this.fork(start, i, key, fresh, old);
    }
    if (node.end === this.spec.bits) return this.leaf(start, key, value);
    if (keyBit(key, node.end)) return this.fork(start, node.end, node.key, node.left!, this.setNode(node.right, key, value, node.end + 1));
    return this.fork(start, node.end, node.key, this.setNode(node.left, key, value, node.end + 1), node.right!);
  }

  /** Removes a key known to be present. */
  private deleteNode(node: TrieNode<V, Y>, key: Uint8Array): TrieNode<V, Y> | null {
    if (node.end === this.spec.bits) return null;
    const goRight = keyBit(key, node.end) === 1;
    const child = goRight ? node.right! : node.left!;
    const other = goRight ? node.left! : node.right!;
    const next = this.deleteNode(child, key);
    if (!next) return this.moved(other, node.start);
    return goRight ? this.fork(node.start, node.end, node.key, node.left!, next) : this.fork(node.start, node.end, node.key, next, node.right!);
  }

  private cellOf(node: TrieNode<V, Y>): DCell {
    if (node.cell) return node.cell;
    const b = new DBuilder();
    const m = this.spec.bits - node.start;
    storeHmLabel(b, node.key, node.start, node.end - node.start, m);
    if (node.end === this.spec.bits) {
      if (this.spec.aug) this.spec.aug.store(node.extra, b);
      this.spec.storeValue(node.value as V, b);
    } else {
      b.storeRef(this.cellOf(node.left!));
      b.storeRef(this.cellOf(node.right!));
      if (this.spec.aug) this.spec.aug.store(node.extra, b);
    }
    node.cell = b.endCell();
    return node.cell;
  }
}

function setBit(key: Uint8Array, i: number, v: boolean): void {
  if (v) key[i >> 3]! |= 0x80 >> (i & 7);
  else key[i >> 3]! &= ~(0x80 >> (i & 7));
}
