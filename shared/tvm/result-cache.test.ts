import { Cell, beginCell } from '@ton/core';
import { beforeAll, expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../test/helpers/fixtures.js';
import { type GetMethodJob, type Tvm, createInlineTvm } from './executor.js';
import { MAINNET_CONFIG_BOC } from './mainnet-config.js';
import { methodId } from './method-id.js';
import { withGetMethodCache } from './result-cache.js';
import { stackFromB64, stackToB64 } from './stack.js';

/**
 * Get-method outcomes kept by job, on the real TVM (wallet v4r2 `seqno`): an equal job is answered without running
 * the emulator again, and any changed input (data, NOW, balance, method) runs it and gets its own answer.
 */

describeFixtures('get-method outcome cache', () => {
  let runs = 0;
  let tvm: Tvm;
  const code = Cell.fromBoc(readFixture('contracts/wallet_v4r2.code.boc'))[0]!.toBoc().toString('base64');
  const job = (seqno: number, over: Partial<GetMethodJob> = {}): GetMethodJob => ({
    code,
    data: beginCell().storeUint(seqno, 32).storeUint(698983191, 32).storeBuffer(Buffer.alloc(32, 0x5f)).storeBit(0).endCell().toBoc().toString('base64'),
    address: `0:${'ab'.repeat(32)}`,
    balance: 10n ** 9n,
    config: MAINNET_CONFIG_BOC,
    now: 1_800_000_000,
    methodId: methodId('seqno'),
    stack: stackToB64([]),
    gasLimit: 1_000_000n,
    ...over,
  });

  beforeAll(async () => {
    const inner = await createInlineTvm();
    tvm = withGetMethodCache(
      {
        runGetMethod: (j) => {
          runs++;
          return inner.runGetMethod(j);
        },
        runTransaction: (j) => inner.runTransaction(j),
        close: () => inner.close(),
      },
      { entries: 100, maxBytes: 1 << 20 },
    );
  });

  const seqnoOf = async (j: GetMethodJob) => {
    const o = await tvm.runGetMethod(j);
    if (!o.ok) throw new Error(o.error);
    return stackFromB64(o.stack)[0];
  };

  it('answers an equal job from the cache and a changed one from the TVM', async () => {
    const [a, b] = await Promise.all([seqnoOf(job(7)), seqnoOf(job(7))]);
    expect(a).toEqual({ type: 'int', value: 7n });
    expect(b).toEqual(a);
    expect(runs).toBe(1);
    expect(await seqnoOf(job(7))).toEqual(a);
    expect(runs).toBe(1);
    expect(await seqnoOf(job(8))).toEqual({ type: 'int', value: 8n });
    expect(runs).toBe(2);
    await seqnoOf(job(7, { now: 1_800_000_001 }));
    await seqnoOf(job(7, { balance: 1n }));
    expect(runs).toBe(4);
    const other = await tvm.runGetMethod(job(7, { methodId: methodId('get_subwallet_id') }));
    expect(runs).toBe(5);
    if (!other.ok) throw new Error(other.error);
    expect(stackFromB64(other.stack)[0]).toEqual({ type: 'int', value: 698983191n });
  });
});
