import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeFixtures, fixturesDir, readFixture } from '../../../test/helpers/fixtures.js';
import { parseBlock } from '../decode-block.js';
import { Slice } from '../boc/slice.js';
import { findShardAccount, loadShardStateAccounts } from './ShardState.js';

/**
 * findShardAccount looks an account up in one side of a block's state update. What it finds is checked against the
 * block's own transactions: after the block, an account's `last_trans_lt` is its last transaction's lt and
 * `last_trans_hash` that transaction's hash; before it, they are the first transaction's prev_trans_lt and
 * prev_trans_hash (block.tlb `account_descr$_`, `transaction$0111`).
 */
describeFixtures('findShardAccount: the accounts of a block, on both sides of its state update', () => {
  const files = readdirSync(path.join(fixturesDir, 'blocks')).filter((f) => f.endsWith('.boc')).sort();

  it('finds every account a block touched, with the state its transactions name, and nothing else', () => {
    let found = 0;
    let absent = 0;
    for (const f of files) {
      const { boc, block, accountBlocks, transactions } = parseBlock(readFixture(`blocks/${f}`));
      const oldSide = loadShardStateAccounts(new Slice(boc, block.stateUpdate.old));
      const newSide = loadShardStateAccounts(new Slice(boc, block.stateUpdate.new));
      if (!oldSide || !newSide) continue;
      let t = 0;
      for (const ab of accountBlocks) {
        const txs = transactions.slice(t, t + ab.transactions.length);
        t += ab.transactions.length;
        const first = txs[0]!;
        const last = txs[txs.length - 1]!;
        const after = findShardAccount(newSide, boc, ab.accountAddr);
        if (after) {
          found++;
          expect(after.lastTransLt, f).toBe(last.lt);
          expect(Buffer.from(after.lastTransHash).equals(Buffer.from(boc.hash(last.cell))), f).toBe(true);
        }
        const before = findShardAccount(oldSide, boc, ab.accountAddr);
        if (before) {
          found++;
          expect(before.lastTransLt, f).toBe(first.prevTransLt);
          expect(Buffer.from(before.lastTransHash).equals(Buffer.from(first.prevTransHash)), f).toBe(true);
        }
        // The same address with one bit changed, at every depth of the key: absent (or pruned away), never a hit.
        for (const bit of [0, 1, 7, 8, 23, 24, 25, 100, 200, 254, 255]) {
          const key = Uint8Array.from(ab.accountAddr);
          key[bit >> 3]! ^= 0x80 >> (bit & 7);
          if (accountBlocks.some((other) => Buffer.from(other.accountAddr).equals(Buffer.from(key)))) continue;
          const other = findShardAccount(newSide, boc, key);
          if (other && other.account.type === 'account' && other.account.addr.type === 'std') {
            expect(Buffer.from(other.account.addr.hash).equals(Buffer.from(key)), `${f} bit ${bit}`).toBe(true);
          } else {
            expect(other, `${f} bit ${bit}`).toBeNull();
            absent++;
          }
        }
      }
    }
    expect(found).toBeGreaterThan(100);
    expect(absent).toBeGreaterThan(1000);
  });
});
