import { Cell, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test/helpers/fixtures.js';
import { WALLETS } from './wallets.js';

describe('wallet code hashes (fixtures: compiled wallet codes)', () => {
  it('are the hashes of the real wallet codes', () => {
    const files: Array<[string, string]> = [
      ['wallet_v1r1', 'wallet v1 r1'],
      ['wallet_v1r2', 'wallet v1 r2'],
      ['wallet_v1r3', 'wallet v1 r3'],
      ['wallet_v2r1', 'wallet v2 r1'],
      ['wallet_v2r2', 'wallet v2 r2'],
      ['wallet_v3r1', 'wallet v3 r1'],
      ['wallet_v3r2', 'wallet v3 r2'],
      ['wallet_v4r1', 'wallet v4 r1'],
      ['wallet_v4r2', 'wallet v4 r2'],
      ['wallet_v5r1', 'wallet v5 r1'],
      ['wallet_v5_beta_libref', 'wallet v5 beta'],
    ];
    for (const [file, type] of files) {
      let bytes: Buffer;
      try {
        bytes = readFixture(`contracts/${file}.code.boc`);
      } catch {
        return; // fixtures absent: the fixture suites report it
      }
      const hash = Cell.fromBoc(bytes)[0]!.hash().toString('base64');
      expect({ file, type: WALLETS.get(hash)?.type }).toEqual({ file, type });
    }
    // A builder sanity check: a v1 data cell is a bare seqno.
    expect(beginCell().storeUint(7, 32).endCell().beginParse().loadUint(32)).toBe(7);
  });
});
