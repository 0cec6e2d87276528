import { Block, LabelBlock } from './block.js';
import { CallContractBlock } from './basic.js';

/**
 * Pattern matchers over the block graph (TON Center `BlockMatcher` and its combinators). A matcher tests a block
 * (`testSelf`), then optionally its previous block (`parent`), each of its next blocks (`child`) or an ordered
 * set of distinct next blocks (`children`); on success `build` returns the blocks to fold (the first is usually a
 * new block that already merged the rest). Excesses (0xd53276db) and bounces among the next blocks are appended.
 */
export const EXCESSES = 0xd53276db;
export const BOUNCE = 0xffffffff;

export interface MatcherOptions {
  child?: Matcher | null;
  parent?: Matcher | null;
  children?: Matcher[] | null;
  optional?: boolean;
  includeExcess?: boolean;
  includeBounces?: boolean;
  preBuildAutoAppend?: boolean;
}

export class Matcher {
  child: Matcher | null;
  parent: Matcher | null;
  childrenMatchers: Matcher[] | null;
  optional: boolean;
  includeExcess: boolean;
  includeBounces: boolean;
  preBuildAutoAppend: boolean;

  constructor(o: MatcherOptions = {}) {
    this.child = o.child ?? null;
    this.parent = o.parent ?? null;
    this.childrenMatchers = o.children ?? null;
    this.optional = o.optional ?? false;
    this.includeExcess = o.includeExcess ?? true;
    this.includeBounces = o.includeBounces ?? true;
    this.preBuildAutoAppend = o.preBuildAutoAppend ?? false;
  }

  testSelf(_b: Block): boolean {
    return true;
  }

  tryBuild(block: Block | null): Block[] | null {
    if (block === null || !this.testSelf(block)) return null;
    const blocks: Block[] = [];
    if (!this.processChild(block, blocks)) return null;
    if (!this.processParent(block, blocks)) return null;
    try {
      const auto: number[] = [];
      if (this.includeExcess) auto.push(EXCESSES);
      if (this.includeBounces) auto.push(BOUNCE);
      const appendTo = (arr: Block[]): void => {
        for (const n of block.next) if (n instanceof CallContractBlock && n.op !== null && auto.includes(n.op)) arr.push(n);
      };
      if (auto.length > 0 && this.preBuildAutoAppend) appendTo(blocks);
      const r = this.build(block, blocks);
      if (r === null) return null;
      if (auto.length > 0 && !this.preBuildAutoAppend) appendTo(r);
      return r;
    } catch {
      // A body that does not parse as the pattern expects: not this pattern.
      return null;
    }
  }

  protected processParent(block: Block, blocks: Block[]): boolean {
    if (this.parent === null) return true;
    const r = this.parent.tryBuild(block.previous);
    if (r !== null) {
      blocks.push(...r);
      return true;
    }
    return this.parent.optional;
  }

  protected processChild(block: Block, blocks: Block[]): boolean {
    let matched = true;
    if (this.child !== null) {
      for (const c of block.next) {
        const r = this.child.tryBuild(c);
        if (r !== null) blocks.push(...r);
      }
      matched = this.child.optional || blocks.length > 0;
    }
    if (this.childrenMatchers !== null) {
      const r = this.processChildren(block);
      if (r !== null) blocks.push(...r);
      else matched = false;
    }
    return matched;
  }

  private processChildren(block: Block): Block[] | null {
    const next = [...block.next];
    const remaining = [...this.childrenMatchers!];
    const out: Block[] = [];
    while (remaining.length > 0) {
      const m = remaining[0]!;
      let matched = false;
      for (let i = 0; i < next.length; i++) {
        const r = m.tryBuild(next[i]!);
        if (r !== null) {
          out.push(...r);
          remaining.shift();
          next.splice(i, 1);
          matched = true;
          break;
        }
      }
      if (!matched) {
        if (m.optional) remaining.shift();
        else return null;
      }
    }
    return out;
  }

  /** Returns the blocks of the match, or null/[] when the pattern turns out not to apply. */
  build(block: Block, others: Block[]): Block[] | null {
    return [block, ...others];
  }
}

/** A message with this opcode (TON Center `ContractMatcher`). */
export class OpMatcher extends Matcher {
  constructor(
    readonly op: number,
    o: MatcherOptions = {},
  ) {
    super(o);
  }

  override testSelf(b: Block): boolean {
    return b instanceof CallContractBlock && b.op === this.op;
  }
}

/** A block of this type (TON Center `BlockTypeMatcher`). */
export class TypeMatcher extends Matcher {
  constructor(
    readonly type: string,
    o: MatcherOptions = {},
  ) {
    super({ includeExcess: true, ...o });
  }

  override testSelf(b: Block): boolean {
    return b.type === this.type;
  }
}

/** A block passing a predicate (TON Center `GenericMatcher`). */
export class PredicateMatcher extends Matcher {
  constructor(
    readonly pred: (b: Block) => boolean,
    o: MatcherOptions = {},
  ) {
    super(o);
  }

  override testSelf(b: Block): boolean {
    return this.pred(b);
  }
}

/** The first alternative that builds (TON Center `OrMatcher`). */
export class OrMatcher extends Matcher {
  constructor(
    readonly alternatives: Matcher[],
    optional = false,
  ) {
    super({ optional });
  }

  override testSelf(b: Block): boolean {
    return this.alternatives.some((m) => m.testSelf(b));
  }

  override tryBuild(b: Block | null): Block[] | null {
    for (const m of this.alternatives) {
      const r = m.tryBuild(b);
      if (r !== null) return r;
    }
    return null;
  }
}

/**
 * Marks what `matcher` matches with a label for the builder (TON Center `labeled`): the matched block plus a
 * transient {@link LabelBlock}, or, with `callBuild`, the matcher's own build result with a label on its first.
 */
export function labeled(label: string, matcher: Matcher, callBuild = false): Matcher {
  const m = new Matcher({
    child: matcher.child,
    children: matcher.childrenMatchers,
    parent: matcher.parent,
    optional: matcher.optional,
    includeExcess: matcher.includeExcess,
  });
  m.testSelf = (b) => matcher.testSelf(b);
  m.build = (b, others) => {
    if (!callBuild) return [new LabelBlock(label, b), b, ...others];
    const built = matcher.build(b, others);
    if (built === null || built.length === 0) return built;
    return [new LabelBlock(label, built[0]!), ...built];
  };
  return m;
}

/** Chains matchers so each is the child of the one before (TON Center `child_sequence_matcher`). */
export function sequence(ms: Matcher[]): Matcher {
  for (let i = 0; i + 1 < ms.length; i++) ms[i]!.child = ms[i + 1]!;
  return ms[0]!;
}

/** Repeats `repeating` down the tree until `exit` matches (TON Center `RecursiveMatcher`). */
export class RecursiveMatcher extends Matcher {
  constructor(
    readonly repeating: Matcher,
    readonly exit: Matcher | null,
    optional = false,
  ) {
    super({ optional });
  }

  override testSelf(b: Block): boolean {
    return this.repeating.testSelf(b);
  }

  protected override processChild(block: Block, blocks: Block[]): boolean {
    let current = [block];
    const add: Block[] = [];
    let finished = false;
    let matched = true;
    for (;;) {
      const check = current;
      current = [];
      for (const c of check) {
        if (this.exit) {
          const r = this.exit.tryBuild(c);
          if (r !== null) {
            add.push(...r);
            finished = true;
          }
        }
        if (finished) break;
        const r = this.repeating.tryBuild(c);
        if (r !== null) {
          add.push(...r);
          for (const b of r) current.push(...b.next);
          break;
        }
      }
      if (finished) break;
      if (current.length === 0) {
        matched = false;
        break;
      }
    }
    if (add.length > 0) {
      blocks.push(...new Set(add));
      matched = true;
    }
    return matched;
  }
}

export function findCall(blocks: Block[], op: number): CallContractBlock | null {
  for (const b of blocks) if (b instanceof CallContractBlock && b.op === op) return b;
  return null;
}

export function findCalls(blocks: Block[], op: number): CallContractBlock[] {
  return blocks.filter((b): b is CallContractBlock => b instanceof CallContractBlock && b.op === op);
}

/** The block labelled `label` among `blocks` (TON Center `get_labeled`). */
export function getLabeled(label: string, blocks: Block[]): Block | null {
  for (const b of blocks) if (b instanceof LabelBlock && b.label === label) return b.block;
  return null;
}

export function getAllLabeled(label: string, blocks: Block[]): Block[] {
  return blocks.filter((b): b is LabelBlock => b instanceof LabelBlock && b.label === label).map((b) => b.block);
}

/**
 * TON Center's `ExclusiveOrMatcher`: its own test accepts a block only when exactly one alternative does, but
 * building tries the alternatives in order like {@link OrMatcher} (that test is consulted only by an enclosing
 * matcher that asks for it).
 */
export class ExclusiveOrMatcher extends OrMatcher {
  override testSelf(b: Block): boolean {
    let n = 0;
    for (const m of this.alternatives) if (m.testSelf(b)) n++;
    return n === 1;
  }
}
