import type { Slice } from '../boc/slice.js';
import type { EventNode } from './trace.js';

/**
 * A block: a group of event nodes the classifier has recognised as one operation (a basic message, or a pattern
 * folded together by a matcher). Blocks form a graph in trace order (`previous` / `next`) and, once merged,
 * a containment tree (`parent` / `children`), the shape TON Center's classifier works on (actions.md, step 2).
 */
export class Block {
  /*
   * Fields are declared, then assigned in the constructor: class-field initializers define properties, and with
   * the many subclasses sharing this constructor that define is megamorphic and costs more than the matching.
   */
  declare type: string;
  declare data: any;
  declare nodes: EventNode[];
  declare children: Block[];
  declare next: Block[];
  declare previous: Block | null;
  declare parent: Block | null;
  declare failed: boolean;
  declare broken: boolean;
  /** Transient blocks (labels) mark a matched block for a builder and are never merged in. */
  declare transient: boolean;
  declare ghost: boolean;
  declare initiatingNode: EventNode | null;
  declare minLt: bigint;
  declare maxLt: bigint;
  declare minUtime: number;
  declare maxUtime: number;
  /** tx lt of the first node: orders blocks when merging. */
  declare minLtWithoutInitiating: bigint;
  /** Accounts deployed by this block's transactions (merged blocks take those of the blocks after them). */
  declare deployments: string[];

  constructor(
    /** Internal block type (`jetton_transfer`, `tonstakers_deposit`, `root`, ...). */
    type: string,
    nodes: EventNode[],
    data: any = null,
  ) {
    this.type = type;
    this.data = data;
    this.nodes = nodes;
    this.children = [];
    this.next = [];
    this.previous = null;
    this.parent = null;
    this.failed = false;
    this.broken = false;
    this.transient = false;
    this.ghost = nodes.length === 1 && nodes[0]!.ghost;
    this.initiatingNode = nodes.length === 1 ? nodes[0]!.parent : null;
    this.deployments = [];
    if (nodes.length > 0) {
      const n = nodes[0]!;
      this.minLt = n.lt;
      this.maxLt = n.txLt;
      this.minUtime = n.utime;
      this.maxUtime = n.tx.now;
      this.minLtWithoutInitiating = n.txLt;
      for (const x of nodes) if (x.tx.orig_status !== 'active' && x.tx.end_status === 'active' && !this.deployments.includes(x.tx.account)) this.deployments.push(x.tx.account);
    } else {
      this.minLt = 0n;
      this.maxLt = 0n;
      this.minUtime = 0;
      this.maxUtime = 0;
      this.minLtWithoutInitiating = 0n;
    }
  }

  get opcode(): number | null {
    return null;
  }

  connect(other: Block): void {
    this.next.push(other);
    other.previous = this;
  }

  /** The first node's message body. */
  body(): Slice {
    return this.nodes[0]!.body();
  }

  get message() {
    return this.nodes[0]!.message;
  }

  get node(): EventNode {
    return this.nodes[0]!;
  }

  /** Puts `block` between this block and `next` (TON Center `insert_between`). */
  insertBetween(next: Block[], block: Block): void {
    for (const child of this.children) {
      for (const n of next) {
        const i = child.next.indexOf(n);
        if (i >= 0) {
          child.next.splice(i, 1);
          child.next.push(block);
        }
      }
    }
    this.next = this.next.filter((n) => !next.includes(n));
    for (const n of next) for (const c of n.children) if (c.previous === n) c.previous = block;
    this.connect(block);
    for (const n of next) block.connect(n);
  }

  topmost(): Block {
    let b: Block = this;
    while (b.parent) b = b.parent;
    return b;
  }

  compactConnections(): void {
    const set = new Set<Block>();
    for (const n of this.next) if (!this.children.includes(n) && n !== this) set.add(n.topmost());
    this.next = [...set];
  }

  calculateMinMax(): void {
    let minLt: bigint | null = null;
    let minU = Infinity;
    let maxLt: bigint | null = null;
    let maxU = -Infinity;
    for (const n of this.nodes) {
      const lt = n.lt;
      if (minLt === null || lt < minLt) minLt = lt;
      if (n.utime < minU) minU = n.utime;
      const tlt = n.txLt;
      if (maxLt === null || tlt > maxLt) maxLt = tlt;
      if (n.tx.now > maxU) maxU = n.tx.now;
    }
    this.minLt = minLt ?? 0n;
    this.minLtWithoutInitiating = this.minLt;
    this.minUtime = minU === Infinity ? 0 : minU;
    this.maxLt = maxLt ?? 0n;
    this.maxUtime = maxU === -Infinity ? 0 : maxU;
  }

  /** BFS over the next blocks, optionally filtered (see TON Center's `find_next`). */
  *findNext(filter: ((b: Block, depth: number) => boolean) | null, maxDepth = -1, stopOnUnmatch = false, yieldOnUnmatch = false): Iterable<Block> {
    const queue: [Block, number][] = this.next.map((c) => [c, 0]);
    while (queue.length > 0) {
      const [node, depth] = queue.shift()!;
      const matched = filter === null || filter(node, depth);
      if (matched && !yieldOnUnmatch) yield node;
      else if (!matched && yieldOnUnmatch) yield node;
      let extend = depth + 1 <= maxDepth || maxDepth < 0;
      if (stopOnUnmatch) extend = extend && matched;
      if (extend) for (const c of node.next) queue.push([c, depth + 1]);
    }
  }

  *bfs(includeSelf = true): Iterable<Block> {
    const queue: Block[] = includeSelf ? [this] : [...this.next];
    for (let i = 0; i < queue.length; i++) {
      const cur = queue[i]!;
      yield cur;
      for (const n of cur.next) queue.push(n);
    }
  }

  /**
   * Folds `blocks` into this block: they become its children, their nodes its nodes, and the blocks after the
   * group become its next blocks (TON Center `merge_blocks`).
   */
  mergeBlocks(blocks: Block[]): void {
    const toMerge = [...new Set(blocks)].filter((b) => !b.transient);
    const earliest = earliestCommon(toMerge);
    if (earliest === null) throw new Error('earliest common block not found');
    for (const b of toMerge) {
      b.parent = this;
      this.nodes.push(...b.nodes);
      this.children.push(b);
    }
    for (const b of earliest.findNext((x) => toMerge.includes(x), -1, true, true)) {
      this.next.push(b);
      for (const d of b.deployments) if (!this.deployments.includes(d)) this.deployments.push(d);
      b.previous = this;
    }
    this.previous = earliest.previous;
    if (earliest.previous) earliest.previous.compactConnections();
    this.initiatingNode = earliest.initiatingNode;
    this.calculateMinMax();
    if (this.nodes.some((n) => n.ghost)) this.ghost = true;
  }
}

function direction(b: Block): number {
  if (b.nodes.length === 1) return b.nodes[0]!.message.direction === 'out' ? 1 : 0;
  return 2;
}

function earliestCommon(blocks: Block[]): Block | null {
  const sorted = [...blocks].sort((a, b) =>
    a.minLtWithoutInitiating < b.minLtWithoutInitiating ? -1 : a.minLtWithoutInitiating > b.minLtWithoutInitiating ? 1 : direction(a) - direction(b),
  );
  const first = sorted[0];
  if (!first) return null;
  const connected = [first];
  for (const b of sorted) {
    if (connected.includes(b)) continue;
    if (b.previous !== null) {
      if (connected.includes(b.previous)) {
        connected.push(b);
        continue;
      }
      return null;
    }
  }
  return first;
}

/** A block of no type of its own grouping other blocks (TON Center `SingleLevelWrapper`). */
export class WrapperBlock extends Block {
  constructor() {
    super('single_wrapper', []);
  }

  wrap(blocks: Block[]): void {
    const queue = [...blocks];
    const nodes: EventNode[] = [];
    while (queue.length > 0) {
      const b = queue.shift()!;
      if (b instanceof WrapperBlock) {
        queue.push(...b.children);
        continue;
      }
      this.children.push(b);
      for (const n of b.next) if (!blocks.includes(n)) this.next.push(n);
      nodes.push(...b.nodes);
      if (b.previous === null || !blocks.includes(b.previous)) this.previous = b.previous;
    }
    this.nodes = [...new Set(nodes)];
    this.compactConnections();
    this.calculateMinMax();
  }
}

/** A marker naming a matched block for a builder (TON Center `LabelBlock`); never part of the result. */
export class LabelBlock extends Block {
  constructor(
    readonly label: string,
    readonly block: Block,
  ) {
    super('label', []);
    this.transient = true;
    this.nodes = block.nodes;
    this.minLt = block.minLt;
    this.maxLt = block.maxLt;
    this.minUtime = block.minUtime;
    this.maxUtime = block.maxUtime;
    this.failed = block.failed;
  }
}
