import { describe, expect, it } from 'vitest';
import { type TxFilter, type TxOrder, txOrder } from './transactions.js';

describe("transactions' order: the last filter in ton-index-go's sequence decides (utime, mc_seqno, one account, hash, lt)", () => {
  const A = '0:' + 'A'.repeat(64);
  const B = '0:' + 'B'.repeat(64);
  it.each<[TxFilter, TxOrder]>([
    [{}, 'lt'],
    [{ start_utime: 1 }, 'now'],
    [{ end_utime: 1 }, 'now'],
    [{ mc_seqno: 5, start_utime: 1 }, 'lt'],
    [{ accounts: [A], mc_seqno: 5, start_utime: 1 }, 'now'],
    [{ accounts: [A] }, 'lt'],
    [{ accounts: [A, B], start_utime: 1 }, 'now'],
    [{ accounts: [A], hash: 'h' }, 'hash'],
    [{ hash: 'h', start_utime: 1 }, 'hash'],
    [{ hash: 'h', lt: '7' }, 'exact_lt'],
    [{ accounts: [A, B], lt: '7' }, 'exact_lt'],
    [{ lt: '7', start_utime: 1, mc_seqno: 3 }, 'exact_lt'],
  ])('%j → %s', (filter, order) => {
    expect(txOrder(filter)).toBe(order);
  });
});
