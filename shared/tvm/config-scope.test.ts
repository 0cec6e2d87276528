import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Cell, Dictionary, beginCell, loadShardAccount } from '@ton/core';
import { beforeAll, expect, it } from 'vitest';
import { describeFixtures, fixturesDir, readFixture } from '../../test/helpers/fixtures.js';
import { bocMayReadRawConfig, mayReadRawConfig, withoutUnreadParams } from './config-scope.js';
import { type GetMethodJob, TvmExecutor } from './executor.js';
import { MAINNET_CONFIG_BOC } from './mainnet-config.js';
import { methodId } from './method-id.js';
import { stackFromB64, stackToB64 } from './stack.js';

/**
 * Get-methods run with the configuration scoped (config-scope.ts) answer exactly as with the whole mainnet
 * configuration: on the real code and data of the 234 mainnet accounts a block touched (the pre-block states of
 * states/mainnet_block71398501_prev_shard_accounts.json, one account per distinct code) and on every contract code
 * of fixtures/contracts, for the get-methods wallets, jettons, NFTs and sales answer. Exit code, gas used and the
 * whole output stack must be equal. A contract that does read the raw configuration (the mainnet elector, and a
 * two-instruction contract reading ConfigParam 34) is recognised and gets the whole dictionary.
 */

const METHODS = [
  'seqno',
  'get_public_key',
  'get_subwallet_id',
  'get_plugin_list',
  'get_wallet_data',
  'get_jetton_data',
  'get_nft_data',
  'get_collection_data',
  'get_sale_data',
  'get_royalty_params',
];

interface Contract {
  name: string;
  address: string;
  balance: bigint;
  code: Cell;
  data: Cell;
}

function job(c: Contract, method: string | number, config = MAINNET_CONFIG_BOC): GetMethodJob {
  return {
    code: c.code.toBoc().toString('base64'),
    data: c.data.toBoc().toString('base64'),
    address: c.address,
    balance: c.balance,
    config,
    now: 1_700_000_000,
    methodId: typeof method === 'number' ? method : methodId(method),
    stack: stackToB64([]),
    gasLimit: 1_000_000n,
  };
}

/** Active accounts of the block's pre-states, one per distinct code. */
function blockAccounts(): Contract[] {
  const items = JSON.parse(readFixture('states/mainnet_block71398501_prev_shard_accounts.json').toString('utf8')) as Array<{
    account: string;
    shard_account_boc_base64: string;
  }>;
  const byCode = new Map<string, Contract>();
  for (const it of items) {
    const sa = loadShardAccount(Cell.fromBase64(it.shard_account_boc_base64).beginParse());
    const st = sa.account?.storage.state;
    if (st?.type !== 'active' || !st.state.code || !st.state.data) continue;
    const key = st.state.code.hash().toString('hex');
    if (!byCode.has(key)) byCode.set(key, { name: it.account, address: it.account, balance: sa.account!.storage.balance.coins, code: st.state.code, data: st.state.data });
  }
  return [...byCode.values()];
}

describeFixtures('get-methods with the configuration scoped to what they can read', () => {
  let scoped: TvmExecutor;
  let whole: TvmExecutor;

  beforeAll(async () => {
    [scoped, whole] = await Promise.all([TvmExecutor.create(), TvmExecutor.create({ scopeConfig: false })]);
  });

  /** Compares every method's outcome; returns how many ran to an exit code (the rest failed alike). */
  async function expectSame(c: Contract): Promise<number> {
    let ran = 0;
    for (const m of METHODS) {
      const a = await scoped.runGetMethod(job(c, m));
      const b = await whole.runGetMethod(job(c, m));
      expect(a, `${c.name} ${m}`).toEqual(b);
      if (b.ok) ran++;
    }
    return ran;
  }

  it('mainnet accounts of a block answer as with the whole configuration', { timeout: 120_000 }, async () => {
    const accounts = blockAccounts();
    expect(accounts.length).toBeGreaterThan(5);
    // Some run with the reduced configuration (wallets), some not (library-cell code such as the jetton wallets
    // here, or an opcode's bits found by chance): both kinds are compared.
    const reduced = accounts.filter((c) => !mayReadRawConfig([c.code, c.data]));
    expect(reduced.length).toBeGreaterThanOrEqual(2);
    expect(reduced.length).toBeLessThan(accounts.length);
    // The others run with the whole configuration either way.
    let answered = 0;
    for (const c of reduced) answered += await expectSame(c);
    expect(answered).toBeGreaterThan(reduced.length);
  });

  it('every contract code of the fixtures answers as with the whole configuration', { timeout: 120_000 }, async () => {
    const dir = path.join(fixturesDir, 'contracts');
    const files = readdirSync(dir).filter((f) => f.endsWith('.code.boc'));
    expect(files.length).toBeGreaterThan(20);
    // Wallet-shaped data (seqno, subwallet, key, no plugins) for every code: a method either reads it or fails the same way.
    const data = beginCell().storeUint(7, 32).storeUint(698983191, 32).storeBuffer(Buffer.alloc(32, 0x5f)).storeBit(0).endCell();
    let compared = 0;
    for (const f of files) {
      const code = Cell.fromBoc(readFixture(`contracts/${f}`))[0]!;
      if (mayReadRawConfig([code, data])) continue;
      await expectSame({ name: f, address: `0:${'ab'.repeat(32)}`, balance: 10n ** 9n, code, data });
      compared++;
    }
    expect(compared).toBeGreaterThan(files.length / 3);
  });

  it('a contract that reads ConfigParam 34 gets the whole configuration', async () => {
    // PUSHINT 34 (0x80 0x22), CONFIGPARAM (0xF832): pushes ConfigParam 34 (the current validator set) and -1.
    const code = beginCell().storeUint(0x8022, 16).storeUint(0xf832, 16).endCell();
    const c: Contract = { name: 'config reader', address: `-1:${'33'.repeat(32)}`, balance: 10n ** 9n, code, data: beginCell().endCell() };
    expect(mayReadRawConfig([code])).toBe(true);
    const viaScope = await scoped.runGetMethod(job(c, 0));
    const viaWhole = await whole.runGetMethod(job(c, 0));
    expect(viaScope).toEqual(viaWhole);
    if (!viaWhole.ok) throw new Error(viaWhole.error);
    const found = stackFromB64(viaWhole.stack);
    expect(found.at(-1)).toEqual({ type: 'int', value: -1n });
    expect(found.at(-2)?.type).toBe('cell');
    // Without the scope's check the same method would see the validator set missing: the check is what keeps it exact.
    const withoutSets = await whole.runGetMethod(job(c, 0, withoutUnreadParams(MAINNET_CONFIG_BOC)));
    expect(withoutSets).not.toEqual(viaWhole);
  });

  it('recognises the mainnet elector (its code reads the validator sets) and leaves out only ConfigParams 32-37, 44 and negative ones', () => {
    // The whole Account cell: its code is among its cells.
    expect(mayReadRawConfig(Cell.fromBoc(readFixture('states/mainnet_account_-1_3333_elector_full.boc')))).toBe(true);
    // The wallets every client polls do not.
    for (const w of ['wallet_v3r2', 'wallet_v4r2', 'wallet_v5r1', 'stablecoin_jetton_wallet']) {
      expect(mayReadRawConfig(Cell.fromBoc(readFixture(`contracts/${w}.code.boc`))), w).toBe(false);
    }
    const keys = (b64: string) => Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), Cell.fromBase64(b64)).keys().sort((a, b) => a - b);
    const full = keys(MAINNET_CONFIG_BOC);
    expect(full).toEqual(expect.arrayContaining([32, 34, 36, 44, -999]));
    expect(keys(withoutUnreadParams(MAINNET_CONFIG_BOC))).toEqual(full.filter((k) => k >= 0 && (k < 32 || k > 37) && k !== 44));
  });

  it('gives the same verdict on a serialized bag of cells as on its cells', () => {
    const lib = new Cell({ exotic: true, bits: beginCell().storeUint(2, 8).storeBuffer(Buffer.alloc(32, 1)).endCell().bits });
    const cases: Cell[] = [
      Cell.fromBoc(readFixture('states/mainnet_account_-1_3333_elector_full.boc'))[0]!,
      ...['wallet_v3r2', 'wallet_v4r2', 'wallet_v5r1', 'stablecoin_jetton_wallet'].map((w) => Cell.fromBoc(readFixture(`contracts/${w}.code.boc`))[0]!),
      beginCell().storeRef(lib).endCell(),
      beginCell().storeUint(0xf831, 16).endCell(),
      beginCell().storeUint(1, 3).storeUint(0xf832, 16).endCell(),
      beginCell().storeUint(5, 7).storeRef(beginCell().storeUint(0xed47, 16).endCell()).endCell(),
    ];
    const verdicts = cases.map((c) => mayReadRawConfig([c]));
    expect(verdicts).toEqual([true, false, false, false, false, true, false, true, true]);
    expect(cases.map((c) => bocMayReadRawConfig(c.toBoc()))).toEqual(verdicts);
  });

  it('counts an exotic cell (a library reference) as a possible read', () => {
    const lib = new Cell({ exotic: true, bits: beginCell().storeUint(2, 8).storeBuffer(Buffer.alloc(32, 1)).endCell().bits });
    expect(mayReadRawConfig([beginCell().storeRef(lib).endCell()])).toBe(true);
    expect(mayReadRawConfig([beginCell().storeUint(0xf831, 16).endCell()])).toBe(false);
    // At any bit offset, not only at instruction boundaries.
    expect(mayReadRawConfig([beginCell().storeUint(1, 3).storeUint(0xf832, 16).endCell()])).toBe(true);
  });
});
