import { NonRetryableError } from '../runtime/errors.js';
import { parseAddressForm } from './address.js';
import { Boc } from './boc/reader.js';
import { Slice } from './boc/slice.js';
import { serializeBoc } from './boc/writer.js';
import { type CellRecord, collectWholeCells } from './cells/cells.js';
import { DecodeError } from './errors.js';
import { accountStateBocs, accountStateRecord } from './records/account-state.js';
import { b64, rawAddress } from './records/format.js';
import type { V3AccountState } from './records/transaction.js';
import { loadAccount } from './tlb/Account.js';
import { loadShardAccount } from './tlb/ShardAccount.js';

/**
 * A state snapshot: the whole states of a set of accounts at one masterchain block, for accounts that no indexed
 * block touches (a devnet's genesis wallets, accounts idle since before the first replayed block). Blocks carry an
 * account's state only when they touch it (their state update is a Merkle update of what changed), so without a
 * snapshot such an account has no state at all. README "State snapshots" documents the format:
 *
 * ```json
 * { "format": "tonflow-state-snapshot", "version": 1, "mc_seqno": 0, "gen_utime": 1800000000,
 *   "accounts": [
 *     { "address": "0:ABC…", "status": "active", "balance": "1000000000",
 *       "last_trans_lt": "0", "last_trans_hash": "<base64, 32 bytes>", "account": "<base64 BOC of the Account cell>" } ] }
 * ```
 *
 * `account` is the block.tlb `Account` (`account$1 addr storage_stat storage`), whole (no pruned branch): code and
 * data are its StateInit, and its hash is the account state hash transactions name. `address`, `status` and
 * `balance` repeat what it holds, for readers of the file; they must agree with it. `last_trans_lt`/`last_trans_hash`
 * are the ShardAccount fields beside the Account (block.tlb `account_descr$_`).
 */

export const STATE_SNAPSHOT_FORMAT = 'tonflow-state-snapshot';
export const STATE_SNAPSHOT_VERSION = 1;
/** The snapshot's name in a block directory (`--source files:DIR`). */
export const STATE_SNAPSHOT_FILE = 'state-snapshot.json';

export interface SnapshotAccount {
  /** Raw `wc:HEX`. */
  address: string;
  status: 'active' | 'uninit' | 'frozen';
  /** Nanotons, decimal. */
  balance: string;
  /** Decimal uint64. */
  last_trans_lt: string;
  /** Base64, 32 bytes. */
  last_trans_hash: string;
  /** Base64 BOC of the whole Account cell. */
  account: string;
}

export interface StateSnapshot {
  format: typeof STATE_SNAPSHOT_FORMAT;
  version: typeof STATE_SNAPSHOT_VERSION;
  /** The masterchain block the states are at. */
  mc_seqno: number;
  /** That block's gen_utime. */
  gen_utime: number;
  accounts: SnapshotAccount[];
}

/** A snapshot (or a state message made of one) that does not hold what the format says. Never retryable. */
export class StateSnapshotError extends NonRetryableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('STATE_SNAPSHOT_INVALID', message, options);
  }
}

/** One account of a snapshot, read: what the account state tables and the cell store are filled with. */
export interface SnapshotAccountState {
  /** Raw `wc:HEX`. */
  address: string;
  /** The AccountState record; balance and status are known. */
  state: V3AccountState & { balance: string; account_status: NonNullable<V3AccountState['account_status']> };
  code_boc: string | null;
  data_boc: string | null;
  last_trans_lt: string;
  last_trans_hash: string;
  /**
   * `storage_stat.last_paid`: the storage phase of every transaction sets it to the transaction's time, so it is the
   * time of the last transaction (the genesis time for an account that never had one).
   */
  last_paid: number;
  /** The Account's whole cells (shared/ton/cells/cells.ts), each once. */
  cells: Array<{ hash: string; record: CellRecord }>;
}

const U64_MAX = (1n << 64n) - 1n;
const DECIMAL = /^(0|[1-9]\d*)$/;
const B64_HASH = /^[A-Za-z0-9+/]{43}=$/;

/**
 * Reads and checks one snapshot account: its Account BOC parses, is whole, is an existing account (`account$1`), and
 * agrees with the entry's address, status and balance. Throws {@link StateSnapshotError} naming the entry.
 */
export function readSnapshotAccount(entry: SnapshotAccount, where = 'account'): SnapshotAccountState {
  const fail = (detail: string, cause?: unknown): never => {
    throw new StateSnapshotError(`${where}: ${detail}`, cause === undefined ? undefined : { cause });
  };
  if (typeof entry !== 'object' || entry === null) fail('not an object');
  for (const k of ['address', 'status', 'balance', 'last_trans_lt', 'last_trans_hash', 'account'] as const) {
    if (typeof entry[k] !== 'string') fail(`"${k}" must be a string`);
  }
  let address: string;
  try {
    address = parseAddressForm(entry.address).raw;
  } catch (e) {
    return fail(`address ${JSON.stringify(entry.address)} does not parse: ${(e as Error).message}`);
  }
  if (!DECIMAL.test(entry.last_trans_lt) || BigInt(entry.last_trans_lt) > U64_MAX) fail(`last_trans_lt ${JSON.stringify(entry.last_trans_lt)} is not a uint64`);
  if (!B64_HASH.test(entry.last_trans_hash)) fail(`last_trans_hash ${JSON.stringify(entry.last_trans_hash)} is not 32 bytes of base64`);
  if (!DECIMAL.test(entry.balance)) fail(`balance ${JSON.stringify(entry.balance)} is not a decimal amount`);
  let boc: Boc;
  try {
    boc = Boc.parse(Buffer.from(entry.account, 'base64'));
  } catch (e) {
    return fail(`"account" is not a bag of cells: ${(e as Error).message}`, e);
  }
  if (boc.roots.length !== 1) fail(`"account" has ${boc.roots.length} roots, expected 1`);
  const root = boc.root;
  if (boc.isExotic(root) || boc.levelMask(root) !== 0) fail('"account" is not a whole Account cell (it holds pruned branches or is exotic)');
  let account: ReturnType<typeof loadAccount>;
  try {
    account = loadAccount(new Slice(boc, root));
  } catch (e) {
    return fail(`"account" is not a block.tlb Account: ${(e as Error).message}`, e);
  }
  if (account.type === 'none') return fail('"account" is account_none: a snapshot lists existing accounts only');
  if (account.addr.type !== 'std' || rawAddress(account.addr.workchain, account.addr.hash) !== address) {
    fail(`address ${entry.address} differs from the Account's own address`);
  }
  const state = accountStateRecord(boc, root, account) as SnapshotAccountState['state'];
  if (state.account_status !== entry.status) fail(`status "${entry.status}" differs from the Account's "${state.account_status}"`);
  if (state.balance !== entry.balance) fail(`balance ${entry.balance} differs from the Account's ${state.balance}`);
  const bocs = accountStateBocs(boc, account);
  const cells: SnapshotAccountState['cells'] = [];
  collectWholeCells(boc, [root], (hash, record) => cells.push({ hash, record }));
  return {
    address,
    state,
    code_boc: bocs.code_boc,
    data_boc: bocs.data_boc,
    last_trans_lt: entry.last_trans_lt,
    last_trans_hash: entry.last_trans_hash,
    last_paid: account.storageStat.lastPaid,
    cells,
  };
}

/**
 * Checks a parsed snapshot object throughout (every account, as {@link readSnapshotAccount}; no address twice) and
 * returns it typed. `where` names it in errors (a file path).
 */
export function checkStateSnapshot(value: unknown, where: string): StateSnapshot {
  const fail = (detail: string): never => {
    throw new StateSnapshotError(`${where}: ${detail}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('not a JSON object');
  const v = value as Record<string, unknown>;
  if (v.format !== STATE_SNAPSHOT_FORMAT) fail(`"format" must be "${STATE_SNAPSHOT_FORMAT}", got ${JSON.stringify(v.format)}`);
  if (v.version !== STATE_SNAPSHOT_VERSION) fail(`"version" ${JSON.stringify(v.version)} is not supported (this build reads ${STATE_SNAPSHOT_VERSION})`);
  const u32 = (k: string): void => {
    const n = v[k];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 0xffffffff) fail(`"${k}" must be a uint32, got ${JSON.stringify(n)}`);
  };
  u32('mc_seqno');
  u32('gen_utime');
  if (!Array.isArray(v.accounts)) return fail('"accounts" must be an array');
  const seen = new Set<string>();
  (v.accounts as SnapshotAccount[]).forEach((a, i) => {
    const read = readSnapshotAccount(a, `${where}: accounts[${i}]`);
    if (seen.has(read.address)) fail(`accounts[${i}]: ${read.address} is listed twice`);
    seen.add(read.address);
  });
  return v as unknown as StateSnapshot;
}

/** Parses a snapshot file's text; throws {@link StateSnapshotError} (never a bare SyntaxError). */
export function parseStateSnapshot(text: string, where: string): StateSnapshot {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new StateSnapshotError(`${where}: not JSON: ${(e as Error).message}`, { cause: e });
  }
  return checkStateSnapshot(value, where);
}

/** The snapshot as its file holds it: one account per line, so a large file still reads and diffs line by line. */
export function serializeStateSnapshot(s: StateSnapshot): string {
  const head = JSON.stringify({ format: s.format, version: s.version, mc_seqno: s.mc_seqno, gen_utime: s.gen_utime });
  const lines = s.accounts.map((a) => '  ' + JSON.stringify(a));
  return `${head.slice(0, -1)},\n "accounts": [\n${lines.join(',\n')}\n ]}\n`;
}

/**
 * The snapshot entry of an account from its ShardAccount BOC (block.tlb `account_descr$_ account:^Account
 * last_trans_hash:bits256 last_trans_lt:uint64`), as a shard state holds it; null for `account_none`.
 */
export function snapshotAccountOf(shardAccountBoc: Uint8Array): SnapshotAccount | null {
  const boc = Boc.parse(shardAccountBoc);
  const sa = loadShardAccount(new Slice(boc, boc.root));
  return entryOf(boc, sa.accountCell, sa.lastTransLt, sa.lastTransHash);
}

/**
 * The snapshot entry of an account from its Account BOC and the ShardAccount fields beside it (a liteserver's
 * `liteServer.accountState`, once its proof is checked); null for `account_none`.
 */
export function snapshotAccountFromState(accountBoc: Uint8Array, lastTransLt: bigint, lastTransHash: Uint8Array): SnapshotAccount | null {
  const boc = Boc.parse(accountBoc);
  return entryOf(boc, boc.root, lastTransLt, lastTransHash);
}

function entryOf(boc: Boc, accountCell: number, lastTransLt: bigint, lastTransHash: Uint8Array): SnapshotAccount | null {
  const account = loadAccount(new Slice(boc, accountCell));
  if (account.type === 'none') return null;
  if (account.addr.type !== 'std') throw new DecodeError('TLB_INVALID', 'Account: address is not addr_std');
  const state = accountStateRecord(boc, accountCell, account);
  return {
    address: rawAddress(account.addr.workchain, account.addr.hash),
    status: account.status,
    balance: state.balance!,
    last_trans_lt: lastTransLt.toString(),
    last_trans_hash: b64(lastTransHash),
    account: b64(serializeBoc(boc, accountCell, { crc32: false })),
  };
}
