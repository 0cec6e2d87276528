import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeFixtures, fixturesDir } from '../../test/helpers/fixtures.js';
import { decodeTransactionDocument } from '../../shared/contracts/transaction-document.js';
import { decodeBlock } from '../../shared/ton/decode-block.js';
import { toRows } from './rows.js';

describeFixtures('transaction documents of the real fixture blocks', () => {
  it('hold exactly the rows of the MergeTree tables a record reads: the transaction, its messages, their contents, its states', () => {
    const dir = path.join(fixturesDir, 'blocks');
    let documents = 0;
    let withContents = 0;
    let withStates = 0;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.boc'))) {
      const rows = toRows(decodeBlock(readFileSync(path.join(dir, f))), { mcSeqno: null, points: true });
      expect(rows.transaction_documents.length, f).toBe(rows.transactions.length);
      const contents = new Map(rows.message_contents.map((c) => [c.hash, c]));
      const states = new Map(rows.account_states.map((s) => [s.hash, s]));
      rows.transactions.forEach((tx, i) => {
        const doc = rows.transaction_documents[i]!;
        expect(doc.key).toBe(`${tx.account}|${tx.lt}`);
        const d = decodeTransactionDocument(doc.doc);
        const { description, ...head } = tx;
        expect(d.tx, `${f} ${doc.key}`).toEqual({ ...head, description: JSON.parse(description) });
        const sides = rows.messages.filter((m) => m.tx_account === tx.account && m.tx_lt === tx.lt);
        expect(d.messages).toEqual(sides.map(({ tx_account: _a, tx_lt: _l, tx_hash: _h, ...side }) => side));
        const hashes = new Set(sides.flatMap((m) => [m.body_hash, m.init_state_hash]).filter((h): h is string => h !== null && contents.has(h)));
        expect(d.contents).toEqual([...hashes].map((h) => contents.get(h)));
        const own = [...new Set([tx.account_state_hash_before, tx.account_state_hash_after])].filter((h) => states.has(h));
        expect(d.states).toEqual(own.map((h) => {
          const { account: _a, last_trans_lt: _l, data_boc: _d, code_boc: _c, ...cols } = states.get(h)!;
          return cols;
        }));
        documents++;
        if (d.contents.length > 0) withContents++;
        if (d.states.length > 0) withStates++;
      });
    }
    expect(documents).toBeGreaterThan(1000);
    expect(withContents).toBeGreaterThan(500);
    expect(withStates).toBeGreaterThan(300);
  });
});
