import { Block } from './block.js';
import { initBlock } from './basic.js';
import { basicFillers } from './basic-fill.js';
import type { InterfaceRepository } from './interfaces.js';
import { FallbackJettonTransferMatcher, JettonBurnMatcher, JettonMintMatcher, JettonTransferMatcher, PTonTransferMatcher } from './jettons.js';
import type { Matcher } from './matcher.js';
import type { ActionRow, Filler } from './row.js';
import { type Serializer, serializeBlocks, unknownRow } from './serialize.js';
import { type Trace, toTree } from './trace.js';
import { addGhostNodes } from './wallet-external.js';

/**
 * The action classifier (TON Center's event classifier, actions.md): a complete trace in, its action rows out.
 * Matchers run in TON Center's priority order, each over every top-level block in breadth-first order; then the
 * post-processors; then each remaining block becomes a row. Pure: the interface lookup is its only input besides
 * the trace.
 */
export interface Family {
  /** Matchers in their place of the global order: `[rank, matcher]`, lower ranks first. */
  matchers(repo: InterfaceRepository): [number, Matcher][];
  fillers: [string, Filler][];
  postProcess?: (blocks: Block[], repo: InterfaceRepository) => Block[];
}

export class Classifier {
  private readonly matchers: Matcher[];
  private readonly fallback: Matcher[];
  private readonly serializer: Serializer;
  private readonly post: ((blocks: Block[]) => Block[])[];

  constructor(
    private readonly repo: InterfaceRepository,
    families: Family[],
  ) {
    const ranked: [number, Matcher][] = [];
    const fillers = new Map<string, Filler>(basicFillers);
    this.post = [];
    for (const f of families) {
      ranked.push(...f.matchers(repo));
      for (const [t, fill] of f.fillers) fillers.set(t, fill);
      if (f.postProcess) {
        const pp = f.postProcess;
        this.post.push((b) => pp(b, repo));
      }
    }
    ranked.sort((a, b) => a[0] - b[0]);
    this.matchers = ranked.map((r) => r[1]);
    this.fallback = [new FallbackJettonTransferMatcher(repo)];
    this.serializer = { fillers };
    this.post.push(unwindDeployments);
  }

  classify(trace: Trace): ActionRow[] {
    const txs = trace.transactions;
    if (txs.length === 1 && txs[0]!.descr === 'tick_tock') return [];
    let rows: ActionRow[];
    try {
      rows = serializeBlocks(this.process(trace, this.matchers), trace, this.serializer);
    } catch {
      return this.basicOnly(trace);
    }
    if (rows.length === 0 && txs.length > 0) rows = this.unknownTrace(trace);
    return rows;
  }

  private process(trace: Trace, matchers: Matcher[]): Block[] {
    const node = toTree(trace.transactions);
    const root = new Block('root', []);
    root.connect(initBlock(node));
    runMatchers(root, matchers);
    let blocks = [root, ...root.bfs()];
    for (const p of this.post) blocks = p(blocks);
    return blocks;
  }

  /** A failed wallet external alone: its intended messages, failed (S.3 fallback), else one `unknown` row. */
  private unknownTrace(trace: Trace): ActionRow[] {
    try {
      const node = toTree(trace.transactions);
      if (node.children.length !== 0 || node.message.source !== null) return [unknownRow(trace)];
      node.failed = true;
      if (addGhostNodes(node) === 0) return [unknownRow(trace)];
      const root = new Block('root', []);
      root.connect(initBlock(node));
      runMatchers(root, this.fallback);
      let blocks = [...root.bfs()];
      for (const p of this.post) blocks = p(blocks);
      const rows = serializeBlocks(blocks, trace, this.serializer, null);
      return rows.length > 0 ? rows : [unknownRow(trace)];
    } catch {
      return [unknownRow(trace)];
    }
  }

  /** When matching throws: the basic blocks only (TON Center `try_classify_basic_actions`). */
  private basicOnly(trace: Trace): ActionRow[] {
    try {
      const node = toTree(trace.transactions);
      if (node.children.length === 0) return [unknownRow(trace)];
      const root = new Block('root', []);
      root.connect(initBlock(node));
      let blocks = [root, ...root.bfs()];
      blocks = unwindDeployments(blocks);
      return serializeBlocks(blocks, trace, this.serializer);
    } catch {
      return [];
    }
  }
}

/**
 * Each matcher in turn over the top-level blocks in breadth-first order. The queue takes a block's next blocks
 * after the matcher has run on it, so blocks a match produced are seen by the next matcher, as in TON Center.
 */
function runMatchers(root: Block, matchers: Matcher[]): void {
  const queue: Block[] = [];
  for (const m of matchers) {
    queue.length = 0;
    queue.push(root);
    for (let i = 0; i < queue.length; i++) {
      const b = queue[i]!;
      if (b.parent === null) m.tryBuild(b);
      for (const n of b.next) queue.push(n);
    }
  }
}

/** Lifts every nested contract_deploy to the top level (TON Center `unwind_deployments`). */
function unwindDeployments(blocks: Block[]): Block[] {
  const visited = new Set<Block>();
  for (let i = 0; i < blocks.length; i++) {
    const queue = [...blocks[i]!.children];
    while (queue.length > 0) {
      const c = queue.shift()!;
      if (c.type === 'contract_deploy' && !visited.has(c)) blocks.push(c);
      else queue.push(...c.children);
      visited.add(c);
    }
  }
  return blocks;
}

/** The jetton family (TEP-74), in TON Center's order. */
export const jettonFamily: Family = {
  matchers: (repo) => [
    [150, new JettonTransferMatcher(repo)],
    [160, new PTonTransferMatcher(repo)],
    [180, new JettonBurnMatcher(repo)],
    [440, new JettonMintMatcher(repo)],
  ],
  fillers: [],
};
