import { expect, it } from 'vitest';
import { accountFacts, factsNeedData } from './account-facts.js';
import { isNominatorPool } from './nominator-pool.js';

/*
 * Nominator pools are known by one code hash, the one TON Center's interface repository compares the latest state's
 * `code_hash` with (indexer/events/interface_repository.py `NOMINATOR_POOL_CODE_HASH`, base64 as the indexer stores
 * it). No code or state of such a pool is among the fixtures, so this checks the encodings a state row can carry and
 * that the fact needs no data.
 */

const UPSTREAM_BASE64 = 'mj7BS8CY9rRAZMMFIiyuooAPF92oXuaoGYpwle3hDc8=';
const NONE = { inOps: new Set<number>(), outOps: new Set<number>() };
const POOL = '-1:' + '5A'.repeat(32);

it("a state of TON Center's nominator pool code hash, in either encoding, is a nominator pool", () => {
  expect(isNominatorPool(UPSTREAM_BASE64)).toBe(true);
  expect(isNominatorPool(Buffer.from(UPSTREAM_BASE64, 'base64').toString('hex'))).toBe(true);
  expect(isNominatorPool(Buffer.from(UPSTREAM_BASE64, 'base64').toString('hex').toUpperCase())).toBe(true);
});

it('another code, or none, is not', () => {
  const other = Buffer.from(UPSTREAM_BASE64, 'base64');
  other[31] = other[31]! ^ 1;
  expect(isNominatorPool(other.toString('base64'))).toBe(false);
  expect(isNominatorPool(null)).toBe(false);
});

it('the facts come from the code hash alone: no data read, nominatorPool set without it', () => {
  expect(factsNeedData(UPSTREAM_BASE64, NONE)).toBe(false);
  expect(accountFacts(POOL, { codeHash: UPSTREAM_BASE64, dataBoc: null }, NONE)).toEqual({ nominatorPool: true });
  expect(accountFacts(POOL, { codeHash: null, dataBoc: null }, NONE)).toBeUndefined();
});
