import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { type ActionCase, checkCase, loadCases } from '../../../test/helpers/action-cases.js';
import { describeFixtures, fixturesDir } from '../../../test/helpers/fixtures.js';
import type { AccountInterfaces, InterfaceRepository } from '../actions/interfaces.js';
import { createClassifier, parseCorpusTrace } from '../actions/index.js';
import type { Trace } from '../actions/trace.js';
import { accountFacts } from './account-facts.js';
import { dedustPoolAssets, isDedustPoolCode } from './dedust-pool.js';

/*
 * DeDust pool facts against TON Center's own answers in the corpus: a recorded `DedustPool` entry holds the assets
 * its detector got from the pool's `get_assets`; ours come from the swap logs the pool emitted in the same trace.
 * The corpus records no code hashes, so TON Center's recording of the account as a pool stands in for the code-hash
 * check (checked on its own below, against the three hashes of TON Center's detector).
 */

const corpus = path.join(fixturesDir, 'action-corpus');
const SOME_POOL_CODE = '1275095b6da3911292406f4f4386f9e780099b854c6dee9ee2895ddce70927c1';

interface Doc {
  interfaces: Record<string, { DedustPool?: { assets: Array<{ is_ton: boolean; address: string | null }> } } | null>;
}

function tracesWithPools(): Array<{ traceId: string; doc: Doc }> {
  const dir = path.join(corpus, 'traces');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ traceId: f.slice(0, -'.json'.length), doc: JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Doc }))
    .filter((t) => Object.values(t.doc.interfaces ?? {}).some((v) => v?.DedustPool));
}

/** The bodies of the logs (external-out messages) `account` emitted in the trace: read.ts's `logs` evidence. */
const logsOf = (trace: Trace, account: string): string[] =>
  trace.transactions.filter((t) => t.account === account).flatMap((t) => t.messages.filter((m) => m.direction === 'out' && m.destination === null && m.body !== null).map((m) => m.body!));

const recordedAssets = (doc: Doc, pool: string): (string | null)[] => doc.interfaces[pool]!.DedustPool!.assets.map((a) => (a.is_ton ? null : a.address));

it("the code hashes of TON Center's DeDust pool detector, in any encoding, and no other", () => {
  expect(isDedustPoolCode(SOME_POOL_CODE)).toBe(true);
  expect(isDedustPoolCode(SOME_POOL_CODE.toUpperCase())).toBe(true);
  expect(isDedustPoolCode(Buffer.from('778f0d3fe6482c50888970df5e787f40f3a4ab282170c035a5920877058c99d3', 'hex').toString('base64'))).toBe(true);
  expect(isDedustPoolCode('c0f9d14fbc8e14f0d72cba2214165eee35836ab174130912baf9dbfa43ead562')).toBe(true);
  expect(isDedustPoolCode('c0f9d14fbc8e14f0d72cba2214165eee35836ab174130912baf9dbfa43ead563')).toBe(false);
  expect(isDedustPoolCode(null)).toBe(false);
});

describeFixtures('DeDust pool facts on TON Center recorded traces', () => {
  const traces = tracesWithPools();
  const pools = traces.flatMap((t) => Object.keys(t.doc.interfaces).filter((a) => t.doc.interfaces[a]?.DedustPool).map((a) => ({ ...t, pool: a })));

  it('the corpus holds DeDust pools, some of which swapped in their trace', () => {
    expect(pools.length).toBeGreaterThan(0);
    expect(pools.filter((p) => dedustPoolAssets(logsOf(parseCorpusTrace(p.doc).trace, p.pool)) !== null).length).toBeGreaterThanOrEqual(3);
  });

  for (const p of pools) {
    it(`${p.traceId}: pool ${p.pool}: the assets of its swap logs are the ones get_assets gave TON Center, or none without a swap`, () => {
      const { trace } = parseCorpusTrace(p.doc);
      const ours = dedustPoolAssets(logsOf(trace, p.pool));
      if (ours !== null) expect(new Set(ours)).toEqual(new Set(recordedAssets(p.doc, p.pool)));
      // With the code hash the facts carry them; without it, none.
      const evidence = { inOps: new Set<number>(), outOps: new Set<number>(), logs: logsOf(trace, p.pool) };
      expect(accountFacts(p.pool, { codeHash: SOME_POOL_CODE, dataBoc: null }, evidence)?.dedustPool?.assets).toEqual(ours ?? undefined);
      expect(accountFacts(p.pool, { codeHash: null, dataBoc: null }, evidence)?.dedustPool).toBeUndefined();
    });
  }

  /** The recorded repository with every pool's `dedustPool` replaced by production's facts. */
  const productionRepo = (doc: Doc, trace: Trace, recorded: InterfaceRepository): InterfaceRepository => (a) => {
    const { dedustPool: _recorded, ...rest } = recorded(a) ?? {};
    const out: AccountInterfaces = { ...rest };
    if (doc.interfaces[a]?.DedustPool) {
      const facts = accountFacts(a, { codeHash: SOME_POOL_CODE, dataBoc: null }, { inOps: new Set(), outOps: new Set(), logs: logsOf(trace, a) });
      if (facts?.dedustPool) out.dedustPool = facts.dedustPool;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  };
  const cases: ActionCase[] = existsSync(path.join(corpus, 'test_cases'))
    ? readdirSync(path.join(corpus, 'test_cases'))
        .filter((f) => f.endsWith('.yaml'))
        .flatMap((f) => loadCases(path.join(corpus, 'test_cases', f)))
        .filter((c) => traces.some((t) => t.traceId === c.traceId))
    : [];
  for (const c of cases) {
    const t = traces.find((x) => x.traceId === c.traceId)!;
    it(`${c.name}: TON Center's expected actions with the production DeDust pool facts`, () => {
      const { trace, repo } = parseCorpusTrace(t.doc);
      expect(checkCase(c, createClassifier(productionRepo(t.doc, trace, repo)).classify(trace))).toEqual([]);
    });
  }
  it('a DeDust swap case is not classified as expected without pool facts (the facts decide)', () => {
    const failing = cases.filter((c) => {
      const t = traces.find((x) => x.traceId === c.traceId)!;
      const { trace, repo } = parseCorpusTrace(t.doc);
      const without: InterfaceRepository = (a) => {
        const { dedustPool: _d, ...rest } = repo(a) ?? {};
        return Object.keys(rest).length > 0 ? rest : undefined;
      };
      return checkCase(c, createClassifier(without).classify(trace)).length > 0;
    });
    expect(failing.length).toBeGreaterThan(0);
  });
});
