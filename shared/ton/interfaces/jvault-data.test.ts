import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { checkCase, loadCases } from '../../../test/helpers/action-cases.js';
import { describeFixtures, fixturesDir } from '../../../test/helpers/fixtures.js';
import type { AccountInterfaces, InterfaceRepository } from '../actions/interfaces.js';
import { createClassifier, parseCorpusTrace } from '../actions/index.js';
import type { Trace } from '../actions/trace.js';
import type { DerivedRole } from '../actions/interfaces.js';
import { type AccountEvidence, accountFacts, factsNeedData } from './account-facts.js';
import { jvaultNamedAccounts, jvaultPoolData, jvaultStakeWalletData } from './jvault-data.js';

/*
 * The JVault `data_boc` facts against TON Center's own answers in the corpus: each recorded `data_boc` entry is the
 * account's data (our detector's input) plus the fields TON Center's classifier derived from it (`pool` of a stake
 * wallet, `lock_wallet_address` of a pool). Then the JVault test cases classified with those entries produced the
 * way the action stage produces them (services/actions/read.ts: evidence from the trace's messages, the chain stake
 * wallet → pool → lock wallet), instead of the recorded ones.
 */

const corpus = path.join(fixturesDir, 'action-corpus');

interface Recorded {
  traceId: string;
  doc: { interfaces: Record<string, Record<string, Record<string, unknown>>> };
}

function recordedTraces(): Recorded[] {
  const dir = path.join(corpus, 'traces');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f): Recorded => ({ traceId: f.slice(0, -'.json'.length), doc: JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Recorded['doc'] }))
    .filter((t) => Object.values(t.doc.interfaces ?? {}).some((v) => v?.data_boc !== undefined));
}

/** What the trace's messages show about each account: the opcodes it received and sent (read.ts `assembleTrace`). */
function evidenceOf(trace: Trace): Map<string, { inOps: Set<number>; outOps: Set<number>; roles?: Set<DerivedRole> }> {
  const out = new Map<string, { inOps: Set<number>; outOps: Set<number> }>();
  for (const tx of trace.transactions) {
    let e = out.get(tx.account);
    if (!e) out.set(tx.account, (e = { inOps: new Set(), outOps: new Set() }));
    for (const m of tx.messages) if (m.opcode !== null) (m.direction === 'in' ? e.inOps : e.outOps).add(m.opcode >>> 0);
  }
  return out;
}

/**
 * The recorded repository with every account's `extra` replaced by production's: data read for the accounts whose
 * facts need it (the recorded `data_boc` standing for the stored state's data), and the accounts their facts name
 * added with their roles, a round per link as read.ts does.
 */
function productionRepo(trace: Trace, recorded: InterfaceRepository, dataOf: (a: string) => string | null): InterfaceRepository {
  const evidence = evidenceOf(trace);
  const extra = new Map<string, AccountInterfaces['extra']>();
  let round = [...evidence.keys()].filter((a) => factsNeedData(null, evidence.get(a)!));
  for (let i = 0; i < 3 && round.length > 0; i++) {
    const next: string[] = [];
    for (const a of round) {
      const facts = accountFacts(a, { codeHash: null, dataBoc: dataOf(a) }, evidence.get(a) as AccountEvidence);
      if (facts?.extra) extra.set(a, facts.extra);
      for (const [named, role] of jvaultNamedAccounts(facts?.extra)) {
        const ev = evidence.get(named) ?? { inOps: new Set(), outOps: new Set() };
        evidence.set(named, { ...ev, roles: new Set([...(ev.roles ?? []), role]) });
        next.push(named);
      }
    }
    round = next;
  }
  return (a) => {
    const { extra: _recorded, ...rest } = recorded(a) ?? {};
    const mine = extra.get(a);
    const out: AccountInterfaces = mine ? { ...rest, extra: mine } : rest;
    return Object.keys(out).length > 0 ? out : undefined;
  };
}

describeFixtures('JVault data_boc facts on TON Center recorded states', () => {
  const traces = recordedTraces();

  it('the corpus holds JVault stake wallets and pools', () => {
    const entries = traces.flatMap((t) => Object.values(t.doc.interfaces).map((v) => v?.data_boc).filter(Boolean));
    expect(entries.filter((e) => 'pool' in e!).length).toBeGreaterThan(0);
    expect(entries.filter((e) => 'lock_wallet_address' in e!).length).toBeGreaterThan(0);
  });

  for (const t of traces) {
    for (const [account, v] of Object.entries(t.doc.interfaces)) {
      const e = v?.data_boc;
      if (!e) continue;
      if ('pool' in e) {
        it(`${t.traceId}: stake wallet ${account}: pool as TON Center read it`, () => {
          expect(jvaultStakeWalletData(String(e.data_boc))?.pool).toBe(e.pool);
        });
      }
      if ('lock_wallet_address' in e) {
        it(`${t.traceId}: pool ${account}: lock wallet as TON Center read it`, () => {
          expect(jvaultPoolData(String(e.data_boc))?.lock_wallet_address).toBe(e.lock_wallet_address);
        });
      }
    }
  }

  const casesFile = path.join(corpus, 'test_cases', 'jvault.yaml');
  const cases = existsSync(casesFile) ? loadCases(casesFile).filter((c) => traces.some((t) => t.traceId === c.traceId)) : [];
  it('JVault cases whose accounts have recorded data are present', () => {
    expect(cases.length).toBeGreaterThanOrEqual(4);
  });
  for (const c of cases) {
    const t = traces.find((x) => x.traceId === c.traceId)!;
    const dataOf = (a: string): string | null => {
      const d = t.doc.interfaces[a]?.data_boc?.data_boc;
      return typeof d === 'string' ? d : null;
    };
    it(`${c.name}: TON Center's expected actions with the production data_boc facts`, () => {
      const { trace, repo } = parseCorpusTrace(t.doc);
      expect(checkCase(c, createClassifier(productionRepo(trace, repo, dataOf)).classify(trace))).toEqual([]);
    });
    it(`${c.name}: not classified as expected without the data_boc facts (the facts decide)`, () => {
      const { trace, repo } = parseCorpusTrace(t.doc);
      expect(checkCase(c, createClassifier(productionRepo(trace, repo, () => null)).classify(trace))).not.toEqual([]);
    });
  }
});
