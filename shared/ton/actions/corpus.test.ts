import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeFixtures, fixturesDir } from '../../../test/helpers/fixtures.js';
import { checkCase, loadCases } from '../../../test/helpers/action-cases.js';
import { createClassifier, parseCorpusTrace } from './index.js';

/**
 * TON Center's own action test cases (fixtures/action-corpus/test_cases/*.yaml) on the recorded mainnet traces,
 * checked with the rules of TON Center's harness. Cases listed in KNOWN_FAILING are documented in README.md.
 */
const corpus = path.join(fixturesDir, 'action-corpus');

export const KNOWN_FAILING: Record<string, string> = {};

describeFixtures('action classifier on TON Center test cases', () => {
  const files = existsSync(corpus) ? readdirSync(path.join(corpus, 'test_cases')).filter((f) => f.endsWith('.yaml')).sort() : [];
  for (const file of files) {
    for (const c of loadCases(path.join(corpus, 'test_cases', file))) {
      const key = `${file}: ${c.name}`;
      const traceFile = path.join(corpus, 'traces', `${c.traceId}.json`);
      const known = KNOWN_FAILING[key];
      const run = (): string[] => {
        const { trace, repo } = parseCorpusTrace(JSON.parse(readFileSync(traceFile, 'utf8')));
        return checkCase(c, createClassifier(repo).classify(trace));
      };
      if (!existsSync(traceFile)) {
        it.skip(`${key} (trace not published)`, () => {});
      } else if (known) {
        it.fails(`${key} (known: ${known})`, () => expect(run()).toEqual([]));
      } else {
        it(key, () => expect(run()).toEqual([]));
      }
    }
  }
});
