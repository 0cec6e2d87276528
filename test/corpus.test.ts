import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { writeCorpus } from '../bench/corpus.js';
import { decodeBlock } from '../shared/ton/decode-block.js';
import { describeFixtures, fixturesDir } from './helpers/fixtures.js';

/*
 * The benchmark corpus (bench/corpus.ts): each copy of a real shard block decodes, with every transaction's lt and
 * every internal / external-out message's created_lt moved by the copy's step, so transactions and those messages
 * get new hashes; bodies, external-in messages and everything else stay the real ones.
 */

describeFixtures('benchmark corpus', () => {
  it('copies decode with moved lts and new transaction and message hashes', () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'tonflow-corpus-'));
    try {
      const blocks = path.join(fixturesDir, 'blocks');
      writeCorpus({ fromDir: blocks, outDir: out, transactions: 1500 });
      const name = 'mainnet_0_8000000000000000_71398501.boc';
      const original = decodeBlock(readFileSync(path.join(blocks, name)));
      const copyFile = readdirSync(out).find((f) => f === `copy1_0_${71398501 + 100_000_000}.boc`);
      expect(copyFile).toBeDefined();
      const copy = decodeBlock(readFileSync(path.join(out, copyFile!)));
      const step = 10_000_000_000_000n;
      expect(copy.transactions).toHaveLength(original.transactions.length);
      let internal = 0;
      let externalIn = 0;
      original.transactions.forEach((o, i) => {
        const c = copy.transactions[i]!;
        expect(BigInt(c.lt)).toBe(BigInt(o.lt) + step);
        expect(c.hash).not.toBe(o.hash);
        const pairs = [[o.in_msg, c.in_msg], ...o.out_msgs.map((m, j) => [m, c.out_msgs[j]])] as const;
        for (const [om, cm] of pairs) {
          if (!om) continue;
          expect(cm!.message_content.hash).toBe(om.message_content.hash);
          if (om.created_lt === null) {
            expect(cm!.hash).toBe(om.hash);
            externalIn++;
          } else {
            expect(BigInt(cm!.created_lt!)).toBe(BigInt(om.created_lt) + step);
            expect(cm!.hash).not.toBe(om.hash);
            internal++;
          }
        }
      });
      expect(internal).toBeGreaterThan(300);
      expect(externalIn).toBeGreaterThan(0);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
