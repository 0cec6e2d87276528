import { Address, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { bodySlice } from './cell.js';
import { EVAA_LIQUIDATE_USER, loadEvaaLiquidateMaster, loadEvaaLiquidateSatisfied, loadEvaaLiquidateUnsatisfied, loadEvaaUserHeaderOp } from './Evaa.js';

/*
 * The EVAA liquidation readers against bodies written field by field from the layouts TON Center's message classes
 * cite (evaa-protocol schema.tlb: liquidate_master, liquidate_user, liquidate_satisfied, liquidate_unsatisfied) with
 * @ton/core's builder: each field read back is the one written.
 */

const slice = (c: ReturnType<typeof beginCell>) => bodySlice(c.endCell().toBoc().toString('base64'));
const raw = (a: Address): string => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const BORROWER = Address.parseRaw('0:' + '11'.repeat(32));
const LIQUIDATOR = Address.parseRaw('0:' + '22'.repeat(32));
const COLLATERAL = 0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8an;
const DEBT = 0x91ad5c5c1b07a9a06cff27b4c4e5b7ad2f0bc6bd2b8a5b5c9c3f4c9a1b2c3d4en;

describe('EVAA liquidation bodies', () => {
  it('liquidate_master: borrower, collateral asset, incoming amount', () => {
    const b = beginCell()
      .storeUint(3, 32)
      .storeUint(42n, 64)
      .storeAddress(BORROWER)
      .storeAddress(LIQUIDATOR)
      .storeUint(COLLATERAL, 256)
      .storeUint(1_000n, 64) // min_collateral_amount
      .storeInt(-1, 2) // include_user_code (BoolExtended)
      .storeUint(123_456_789n, 64)
      .storeRef(beginCell().storeUint(0n, 64).storeRef(beginCell().endCell()).endCell())
      .storeRef(beginCell().endCell());
    expect(loadEvaaLiquidateMaster(slice(b))).toEqual({ borrower: raw(BORROWER), collateralAssetId: COLLATERAL, incomingAmount: 123_456_789n });
  });

  it('liquidate_user: its opcode after the user header (user_version:Coins upgrade_info:(Maybe ^Cell) upgrade_exec:uint2)', () => {
    const b = beginCell().storeCoins(5n).storeMaybeRef(beginCell().storeUint(1, 8).endCell()).storeUint(0, 2).storeUint(EVAA_LIQUIDATE_USER, 32).storeUint(1n, 64);
    expect(loadEvaaUserHeaderOp(slice(b))).toBe(EVAA_LIQUIDATE_USER);
  });

  it('liquidate_satisfied: owner, transferred asset, liquidatable amount, collateral asset and reward', () => {
    const ref = beginCell()
      .storeInt(-500n, 64) // delta_loan_principal
      .storeUint(777n, 64) // liquidatable_amount
      .storeUint(3n, 64) // protocol_gift
      .storeInt(-9n, 64) // new_user_loan_principal
      .storeUint(COLLATERAL, 256)
      .storeInt(-44n, 64) // delta_collateral_principal
      .storeUint(888n, 64) // collateral_reward
      .storeUint(1n, 64)
      .storeInt(2n, 64)
      .storeUint(3n, 64)
      .storeRef(beginCell().endCell());
    const b = beginCell().storeUint(0x311, 32).storeUint(42n, 64).storeAddress(BORROWER).storeAddress(LIQUIDATOR).storeUint(DEBT, 256).storeRef(ref.endCell());
    expect(loadEvaaLiquidateSatisfied(slice(b))).toEqual({ owner: raw(BORROWER), transferredAssetId: DEBT, liquidatableAmount: 777n, collateralAssetId: COLLATERAL, collateralReward: 888n });
  });

  it('liquidate_unsatisfied: the error code after the payload reference, or none', () => {
    const ref = (error: number | null) => {
      const r = beginCell().storeUint(999n, 64).storeUint(COLLATERAL, 256).storeUint(10n, 64).storeUint(20n, 64).storeRef(beginCell().endCell());
      if (error !== null) r.storeUint(error, 32);
      return r.endCell();
    };
    const body = (error: number | null) => beginCell().storeUint(0x31f, 32).storeUint(42n, 64).storeAddress(BORROWER).storeAddress(LIQUIDATOR).storeUint(DEBT, 256).storeRef(ref(error));
    expect(loadEvaaLiquidateUnsatisfied(slice(body(0xe003)))).toEqual({ owner: raw(BORROWER), transferredAmount: 999n, collateralAssetId: COLLATERAL, errorCode: 0xe003 });
    expect(loadEvaaLiquidateUnsatisfied(slice(body(null))).errorCode).toBeNull();
  });
});
