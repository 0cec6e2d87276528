import { addressBookFriendly } from '../../../shared/ton/address.js';
import { addressBookInterfaces as interfacesOf } from '../../../shared/ton/interfaces/wallets.js';
import { yieldToLoop } from '../json-page.js';
import { type Db, type DbCore, type Req, query } from './db.js';

/** One address book entry (api-v3.md §0.5). `domain` stays null until DNS indexing exists. */
export interface AddressBookRow {
  user_friendly: string | null;
  domain: string | null;
  interfaces: string[];
}

export type AddressBook = Record<string, AddressBookRow>;

const RAW = /^-?\d+:[0-9A-F]{64}$/;

/**
 * Entries built between two turns of the event loop. A page of 1,000 transactions names a few thousand addresses,
 * each a user-friendly form (base64 with a CRC) to compute: other requests get the thread between slices, as
 * between the page's records (json-page.ts); a book of a few records is built in one go.
 */
export const BOOK_ENTRIES_PER_SLICE = 250;

/** Code hash per raw account from the latest state (null when the account has none or is unknown). */
export function codeHashes(
  db: Db,
  req: Req,
  accounts: Iterable<string>,
  known?: ReadonlyMap<string, string | null>,
): Promise<Map<string, string | null>> {
  return cachedCodeHashes(db, accounts, known, (missing) => db.batches.codeHashes.get(missing, req));
}

/**
 * {@link codeHashes} of every raw address among `addresses`, read by a statement of its own instead of the shared
 * batch: for a batch loader that has just read the records naming them (repo/transactions.ts), so that the address
 * book of those records costs no further wait.
 */
export function readBookCodeHashes(db: DbCore, req: Req, addresses: Iterable<string | null | undefined>): Promise<Map<string, string | null>> {
  const raw: string[] = [];
  for (const a of addresses) if (a && RAW.test(a)) raw.push(a);
  return cachedCodeHashes(db, raw, undefined, async (missing) => {
    // In statements of at most the shared batch's size (batches.ts MAX_KEYS.states).
    const out = new Map<string, string | null>();
    for (let i = 0; i < missing.length; i += 1000) for (const [a, h] of await readCodeHashes(db, req, missing.slice(i, i + 1000))) out.set(a, h);
    return out;
  });
}

async function cachedCodeHashes(
  db: DbCore,
  accounts: Iterable<string>,
  known: ReadonlyMap<string, string | null> | undefined,
  read: (missing: string[]) => Promise<ReadonlyMap<string, string | null>>,
): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  const missing: string[] = [];
  for (const a of new Set(accounts)) {
    if (known?.has(a)) {
      out.set(a, known.get(a) ?? null);
      continue;
    }
    const cached = db.caches.codeHashes.get(a);
    if (cached !== undefined) out.set(a, cached);
    else missing.push(a);
  }
  if (missing.length > 0) {
    const found = await read(missing);
    for (const a of missing) {
      const h = found.get(a) ?? null;
      out.set(a, h);
      db.caches.codeHashes.set(a, h);
    }
  }
  return out;
}

/**
 * {@link codeHashes}' statement, for every account of a batch (batches.ts); unknown accounts are absent. FINAL, not
 * `ORDER BY last_trans_lt DESC LIMIT 1 BY account` as the wide reads of repo/transactions.ts: for two narrow columns
 * the merge costs less than the sort (66 accounts: 1.6 against 1.9 ms).
 */
export async function readCodeHashes(db: DbCore, req: Req, accounts: readonly string[]): Promise<Map<string, string | null>> {
  const rows = await query<{ account: string; code_hash: string | null }>(
    db,
    req,
    `SELECT account, code_hash FROM latest_account_states FINAL WHERE account IN {accounts:Array(String)} SETTINGS ${db.store.pointReadSettings}`,
    { accounts },
  );
  return new Map(rows.map((r) => [r.account, r.code_hash]));
}

/** The entry of a raw address whose code hash is known (null = none). */
export function bookEntry(raw: string, codeHash: string | null, testnet: boolean): AddressBookRow {
  return {
    user_friendly: addressBookFriendly(raw, codeHash, testnet),
    domain: null,
    interfaces: interfacesOf(codeHash),
  };
}

/**
 * The address book of a response: every address that appears in it (nulls skipped), keyed by the raw address.
 * Addresses that are not raw (`addr_var`) get TON Center's `"addr_none"`.
 */
export async function addressBook(
  db: Db,
  req: Req,
  addresses: Iterable<string | null | undefined>,
  known?: ReadonlyMap<string, string | null>,
): Promise<AddressBook> {
  const all = new Set<string>();
  for (const a of addresses) if (a) all.add(a);
  const raw = [...all].filter((a) => RAW.test(a));
  const hashes = await codeHashes(db, req, raw, known);
  const book: AddressBook = {};
  let n = 0;
  for (const a of all) {
    if (n > 0 && n % BOOK_ENTRIES_PER_SLICE === 0) await yieldToLoop();
    n++;
    book[a] = RAW.test(a) ? bookEntry(a, hashes.get(a) ?? null, db.testnet) : { user_friendly: 'addr_none', domain: null, interfaces: [] };
  }
  return book;
}
