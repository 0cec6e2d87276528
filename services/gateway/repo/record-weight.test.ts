import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeFixtures, fixturesDir } from '../../../test/helpers/fixtures.js';
import { decodeBlock } from '../../../shared/ton/decode-block.js';
import { toRows } from '../../indexer/rows.js';
import { contentFromRow, recordWeight, transactionFromRow } from './records.js';

describeFixtures('record weight: what the record cache counts against its budget', () => {
  it('is within a factor of two of each real record’s JSON, and close to it over all of them', () => {
    const dir = path.join(fixturesDir, 'blocks');
    let weight = 0;
    let json = 0;
    let records = 0;
    let maxMessages = 0;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.boc'))) {
      const rows = toRows(decodeBlock(readFileSync(path.join(dir, f))), { mcSeqno: null });
      const contents = new Map(rows.message_contents.map((c) => [c.hash, contentFromRow(c as never)]));
      const states = new Map(rows.account_states.map((s) => [s.hash, s as never]));
      for (const tx of rows.transactions) {
        const msgs = rows.messages.filter((m) => m.tx_account === tx.account && m.tx_lt === tx.lt);
        const rec = transactionFromRow(tx, msgs, contents, states);
        const w = recordWeight(rec);
        const j = Buffer.byteLength(JSON.stringify(rec));
        expect(w / j, `${f} ${tx.hash}: ${w} for ${j} bytes`).toBeGreaterThan(0.5);
        expect(w / j, `${f} ${tx.hash}: ${w} for ${j} bytes`).toBeLessThan(2);
        weight += w;
        json += j;
        records++;
        maxMessages = Math.max(maxMessages, msgs.length);
      }
    }
    expect(records).toBeGreaterThan(1000);
    expect(maxMessages).toBeGreaterThan(10);
    expect(weight / json).toBeGreaterThan(0.8);
    expect(weight / json).toBeLessThan(1.25);
  });
});
