import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeFixtures, fixturesDir } from '../../../test/helpers/fixtures.js';
import { toRows } from '../../indexer/rows.js';
import { decodeTransactionDocument } from '../../../shared/contracts/transaction-document.js';
import { decodeBlock } from '../../../shared/ton/decode-block.js';
import { documentAddresses } from './transactions.js';

const RAW = /^-?\d+:[0-9A-F]{64}$/;

describeFixtures('transaction documents: the addresses their text names', () => {
  it('are exactly the raw account, sources and destinations of the parsed documents, never those of nested JSON texts', () => {
    const dir = path.join(fixturesDir, 'blocks');
    let documents = 0;
    let sample: string | null = null;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.boc'))) {
      const d = decodeBlock(readFileSync(path.join(dir, f)));
      const rows = toRows(d, { mcSeqno: null, points: true });
      for (const { doc } of rows.transaction_documents) {
        const parsed = decodeTransactionDocument(doc);
        const account = String(parsed.tx.account);
        const want = new Set([account, ...parsed.messages.flatMap((m) => [m.source, m.destination])].filter((a): a is string => typeof a === 'string' && RAW.test(a)));
        expect(new Set(documentAddresses(doc)), `${f}: ${account}`).toEqual(want);
        // A version-1 document (the object form, written before) of the same rows names the same addresses.
        const v1 = JSON.stringify({ ...parsed.tx, messages: parsed.messages, contents: parsed.contents, states: parsed.states });
        expect(new Set(documentAddresses(v1)), `${f}: ${account} (version 1)`).toEqual(want);
        documents++;
        if (sample === null && parsed.messages.length > 0) sample = doc;
      }
    }
    expect(documents).toBeGreaterThan(1000);

    // A decoded body with keys of its own (a jetton transfer's destination) is a JSON text inside the document, so
    // JSON.stringify escapes its quotes: the scan must not take its address for one of the transaction's.
    const v = JSON.parse(sample!) as unknown[];
    const foreign = `0:${'AB'.repeat(32)}`;
    // A `contents` entry (hash, boc, decoded) of version 2.
    (v[3] as unknown[][]).push(['x', '', JSON.stringify({ type: 'jetton_transfer', destination: foreign, source: foreign, account: foreign })]);
    const text = JSON.stringify(v);
    expect(text).toContain(`\\"destination\\":\\"${foreign}`);
    expect(documentAddresses(text)).toContain(decodeTransactionDocument(sample!).tx.account);
    expect(documentAddresses(text)).not.toContain(foreign);
  });
});
