import { normaliseCodeHash } from './repository.js';

/**
 * Nominator pools, as TON Center's classifier knows them (`NominatorPool`): an account whose latest state has the
 * one code hash its interface repository compares with (indexer/events/interface_repository.py
 * `NOMINATOR_POOL_CODE_HASH`, `mj7BS8CY9rRAZMMFIiyuooAPF92oXuaoGYpwle3hDc8=` in base64). Nothing else is checked and
 * nothing is read from the data: the code hash is the whole detection, so it needs no data cell.
 */
const NOMINATOR_POOL_CODE_HASH = '9a3ec14bc098f6b44064c305222caea2800f17dda85ee6a8198a7095ede10dcf';

/** Whether an account of this code hash (any encoding normaliseCodeHash reads) is a nominator pool. */
export function isNominatorPool(codeHash: string | null): boolean {
  return codeHash !== null && normaliseCodeHash(codeHash) === NOMINATOR_POOL_CODE_HASH;
}
