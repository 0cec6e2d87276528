import { Address, Cell, loadAccount as coreLoadAccount, loadShardAccount as coreLoadShardAccount } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../test/helpers/fixtures.js';
import { decodeBlock } from './decode-block.js';
import {
  STATE_SNAPSHOT_FORMAT,
  STATE_SNAPSHOT_VERSION,
  type SnapshotAccount,
  type StateSnapshot,
  StateSnapshotError,
  checkStateSnapshot,
  parseStateSnapshot,
  readSnapshotAccount,
  serializeStateSnapshot,
  snapshotAccountOf,
} from './state-snapshot.js';

/*
 * The state snapshot format on real mainnet accounts: entries made from the tonutils pre-block ShardAccounts of
 * block 71398501 (MANIFEST.md item 1) carry the state hash that the block's own transactions record as their
 * account_state_before, and what @ton/core reads from the same cells; the tonutils Account fixture reads as its
 * upstream test states (address EQDEGeK4…, active, 31011747 nanoton). Malformed snapshots are refused with
 * STATE_SNAPSHOT_INVALID naming the entry.
 */

const zeroHash = Buffer.alloc(32).toString('base64');

function tonutilsEntry(over: Partial<SnapshotAccount> = {}): SnapshotAccount {
  return {
    address: Address.parse('EQDEGeK4o7bNgazTln27r0RC4YcOmerzIni3gUpsyqxfgMWk').toRawString(),
    status: 'active',
    balance: '31011747',
    last_trans_lt: '28370239000003',
    last_trans_hash: zeroHash,
    account: readFixture('states/mainnet_account_state_tonutils_EQDEGeK4.boc').toString('base64'),
    ...over,
  };
}

function snapshotOf(accounts: unknown[]): StateSnapshot {
  return { format: STATE_SNAPSHOT_FORMAT, version: STATE_SNAPSHOT_VERSION, mc_seqno: 7, gen_utime: 1_700_000_000, accounts: accounts as SnapshotAccount[] };
}

function invalid(fn: () => unknown, pattern: RegExp): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(StateSnapshotError);
  expect((err as StateSnapshotError).code).toBe('STATE_SNAPSHOT_INVALID');
  expect((err as StateSnapshotError).retryable).toBe(false);
  expect((err as Error).message).toMatch(pattern);
}

describeFixtures('state snapshots on real mainnet accounts', () => {
  it('entries from block 71398501\'s pre-block ShardAccounts carry the state hashes its transactions record', () => {
    const decoded = decodeBlock(readFixture('blocks/mainnet_0_8000000000000000_71398501.boc'));
    const firstTx = new Map<string, (typeof decoded.transactions)[number]>();
    for (const t of decoded.transactions) if (!firstTx.has(t.account)) firstTx.set(t.account, t);
    const fixtures = JSON.parse(readFixture('states/mainnet_block71398501_prev_shard_accounts.json').toString('utf8')) as Array<{
      account: string;
      shard_account_boc_base64: string;
    }>;
    const entries: SnapshotAccount[] = [];
    let checked = 0;
    for (const f of fixtures) {
      const entry = snapshotAccountOf(Buffer.from(f.shard_account_boc_base64, 'base64'));
      if (!entry) continue;
      entries.push(entry);
      const core = coreLoadShardAccount(Cell.fromBase64(f.shard_account_boc_base64).beginParse());
      expect(entry.address).toBe(f.account.toUpperCase());
      expect(entry.balance).toBe(core.account!.storage.balance.coins.toString());
      expect(entry.last_trans_lt).toBe(core.lastTransactionLt.toString());
      expect(entry.last_trans_hash).toBe(Buffer.from(core.lastTransactionHash.toString(16).padStart(64, '0'), 'hex').toString('base64'));
      const read = readSnapshotAccount(entry);
      // The chain's own statement of this state: the hash the account's first transaction in the block starts from.
      expect(read.state.hash).toBe(firstTx.get(read.address)!.account_state_before.hash);
      const st = core.account!.storage.state;
      if (st.type === 'active') {
        expect(read.state.code_hash).toBe(st.state.code!.hash().toString('base64'));
        expect(read.state.data_hash).toBe(st.state.data!.hash().toString('base64'));
        // A library reference (an exotic cell) is kept by its hash only, as block states keep it.
        if (st.state.code!.isExotic) expect(read.code_boc).toBeNull();
        else expect(Cell.fromBase64(read.code_boc!).hash().toString('base64')).toBe(st.state.code!.hash().toString('base64'));
        expect(Cell.fromBase64(read.data_boc!).hash().toString('base64')).toBe(st.state.data!.hash().toString('base64'));
      }
      // Every cell of the account is there once, keyed by its hash.
      expect(new Set(read.cells.map((c) => c.hash)).size).toBe(read.cells.length);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
    const text = serializeStateSnapshot(snapshotOf(entries));
    expect(parseStateSnapshot(text, 'snapshot').accounts).toEqual(entries);
  });

  it('the tonutils Account reads as its upstream test states', () => {
    const read = readSnapshotAccount(tonutilsEntry());
    expect(read.state.balance).toBe('31011747');
    expect(read.state.account_status).toBe('active');
    const slice = Cell.fromBoc(readFixture('states/mainnet_account_state_tonutils_EQDEGeK4.boc'))[0]!.beginParse();
    expect(slice.loadBit()).toBe(true); // account$1 (@ton/core's loadAccount reads what follows the tag)
    const core = coreLoadAccount(slice);
    expect(read.state.hash).toBe(Cell.fromBoc(readFixture('states/mainnet_account_state_tonutils_EQDEGeK4.boc'))[0]!.hash().toString('base64'));
    expect(read.last_paid).toBe(core.storageStats.lastPaid);
  });

  it('refuses entries that disagree with their Account, and malformed files', () => {
    invalid(() => readSnapshotAccount(tonutilsEntry({ balance: '31011748' })), /balance 31011748 differs from the Account's 31011747/);
    invalid(() => readSnapshotAccount(tonutilsEntry({ status: 'frozen' })), /status "frozen" differs/);
    invalid(() => readSnapshotAccount(tonutilsEntry({ address: `0:${'11'.repeat(32)}` })), /differs from the Account's own address/);
    invalid(() => readSnapshotAccount(tonutilsEntry({ account: 'AAAA' })), /"account" is not a bag of cells/);
    invalid(() => readSnapshotAccount(tonutilsEntry({ last_trans_lt: '-1' })), /last_trans_lt/);
    invalid(() => readSnapshotAccount(tonutilsEntry({ last_trans_hash: 'abc' })), /last_trans_hash/);
    // A Merkle proof of an account (pruned branches) is not a whole state.
    invalid(
      () => readSnapshotAccount(tonutilsEntry({ account: readFixture('states/account_state_pruned_proof_toncore.boc').toString('base64') })),
      /not a whole Account cell/,
    );
    const good = tonutilsEntry();
    invalid(() => checkStateSnapshot(snapshotOf([good, good]), 'f.json'), /f\.json: accounts\[1\]: .* listed twice/);
    invalid(() => checkStateSnapshot(snapshotOf([good, { ...good, balance: '1' }]), 'f.json'), /f\.json: accounts\[1\]: balance 1 differs/);
    invalid(() => checkStateSnapshot({ ...snapshotOf([good]), version: 2 }, 'f.json'), /"version" 2 is not supported/);
    invalid(() => checkStateSnapshot({ ...snapshotOf([good]), format: 'x' }, 'f.json'), /"format" must be/);
    invalid(() => checkStateSnapshot({ ...snapshotOf([good]), mc_seqno: -1 }, 'f.json'), /"mc_seqno" must be a uint32/);
    invalid(() => parseStateSnapshot('{"format": ', 'f.json'), /f\.json: not JSON/);
  });
});

describe('state snapshot files', () => {
  it('serializes one account per line and parses back', () => {
    const s = snapshotOf([]);
    const text = serializeStateSnapshot(s);
    expect(JSON.parse(text)).toEqual(s);
  });
});
