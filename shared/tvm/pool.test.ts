import { Cell, beginCell } from '@ton/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../test/helpers/fixtures.js';
import { patience } from '../../test/helpers/patience.js';
import { withoutUnreadParams } from './config-scope.js';
import { MAINNET_CONFIG_BOC } from './mainnet-config.js';
import { methodId } from './method-id.js';
import { TvmClosedError, type TvmPool, TvmTimeoutError, createTvmPool } from './pool.js';
import { stackFromB64, stackToB64 } from './stack.js';

/**
 * The worker pool on the real TVM (compiled worker from dist/: `npm run build` first): get-methods of the mainnet
 * wallet v4r2 code on data the test lays out (wallet-v4-code.fc: seqno, subwallet id, public key, plugins), a
 * contract that never stops (AGAINEND, opcode 0xEB: an endless loop) cut off by the time limit, and the pool going
 * on after its worker was replaced.
 */

const PUBLIC_KEY = Buffer.from('5f'.repeat(32), 'hex');

function v4Data(seqno: number): Cell {
  return beginCell().storeUint(seqno, 32).storeUint(698983191, 32).storeBuffer(PUBLIC_KEY).storeBit(0).endCell();
}

describeFixtures('TVM worker pool', () => {
  let pool: TvmPool;
  const code = Cell.fromBoc(readFixture('contracts/wallet_v4r2.code.boc'))[0]!;
  const job = (method: string, data: Cell, gasLimit = 1_000_000n, c: Cell = code) => ({
    code: c.toBoc().toString('base64'),
    data: data.toBoc().toString('base64'),
    address: `0:${'ab'.repeat(32)}`,
    balance: 10n ** 9n,
    config: MAINNET_CONFIG_BOC,
    now: 1_800_000_000,
    methodId: methodId(method),
    stack: stackToB64([]),
    gasLimit,
  });

  beforeAll(() => {
    // The time limit is the patience for 3 s: a worker's first job (the emulator's first run, the configuration
    // parsed) takes well under that on a quiet machine, and more than it on one at load 14.
    pool = createTvmPool({ workers: 1, timeoutMs: patience(3000) });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('runs get-methods on a worker: seqno and get_public_key of a v4r2 wallet', async () => {
    const busy = pool.busyMs();
    const seqno = await pool.runGetMethod(job('seqno', v4Data(42)));
    // The worker's busy time counts the job it ran.
    expect(pool.busyMs()).toBeGreaterThan(busy);
    if (!seqno.ok) throw new Error(seqno.error);
    expect(seqno.exitCode).toBe(0);
    expect(seqno.gasUsed).toBeGreaterThan(0n);
    expect(stackFromB64(seqno.stack)).toEqual([{ type: 'int', value: 42n }]);
    const pk = await pool.runGetMethod(job('get_public_key', v4Data(1)));
    if (!pk.ok) throw new Error(pk.error);
    expect(stackFromB64(pk.stack)).toEqual([{ type: 'int', value: BigInt('0x' + PUBLIC_KEY.toString('hex')) }]);
  });

  it('each job runs with its own configuration, which a worker is sent only when it changes', async () => {
    // PUSHINT 34 (0x80 0x22), CONFIGPARAM (0xF832): ConfigParam 34 (the current validator set) and -1, or just 0
    // when the configuration the job ran with has no ConfigParam 34.
    const reader = beginCell().storeUint(0x8022, 16).storeUint(0xf832, 16).endCell();
    const run = async (config: string) => {
      const r = await pool.runGetMethod({ ...job('seqno', beginCell().endCell(), 1_000_000n, reader), config });
      if (!r.ok) throw new Error(r.error);
      return stackFromB64(r.stack).at(-1);
    };
    const without = withoutUnreadParams(MAINNET_CONFIG_BOC);
    expect(await run(MAINNET_CONFIG_BOC)).toEqual({ type: 'int', value: -1n });
    expect(await run(MAINNET_CONFIG_BOC)).toEqual({ type: 'int', value: -1n });
    expect(await run(without)).toEqual({ type: 'int', value: 0n });
    expect(await run(without)).toEqual({ type: 'int', value: 0n });
    // An equal configuration that is another string is the same configuration.
    expect(await run((' ' + MAINNET_CONFIG_BOC).slice(1))).toEqual({ type: 'int', value: -1n });
  });

  it('gas bounds a method: out of gas is exit code -14 with the limit used', async () => {
    const r = await pool.runGetMethod(job('seqno', v4Data(1), 100n));
    if (!r.ok) throw new Error(r.error);
    expect(r.exitCode).toBe(-14);
  });

  it('a job past its time limit fails, and the replaced worker serves the next one', async () => {
    const endless = beginCell().storeUint(0xeb, 8).endCell();
    await expect(pool.runGetMethod(job('seqno', v4Data(1), 1n << 62n, endless))).rejects.toBeInstanceOf(TvmTimeoutError);
    const after = await pool.runGetMethod(job('seqno', v4Data(9)));
    expect(after.ok && stackFromB64(after.stack)).toEqual([{ type: 'int', value: 9n }]);
  }, patience(60_000));

  it('refuses jobs once closed', async () => {
    const p = createTvmPool({ workers: 1, timeoutMs: 3000 });
    await p.close();
    await expect(p.runGetMethod(job('seqno', v4Data(1)))).rejects.toBeInstanceOf(TvmClosedError);
  });
});
