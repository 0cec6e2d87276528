import type { Slice } from '../boc/slice.js';
import { loadAddr, refSlice } from './cell.js';

/**
 * EVAA lending protocol messages (evaa-protocol schema.tlb): `supply_master#00000001 query_id:uint64
 * include_user_code:BoolExtended(int2) supply_amount:uint64 recipient_address:MsgAddressInt ...` (TON) or, as a
 * jetton forward payload, `supply_master#00000001 include_user_code:int2 recipient_address:MsgAddressInt ...`;
 * `withdraw_master#00000002 query_id asset_id:uint256 amount:uint64 recipient_address`; `liquidate_master#00000003
 * query_id borrower liquidator collateral_asset_id:uint256 min_collateral_amount:uint64 include_user_code:int2
 * liquidate_incoming_amount:uint64`; to a user contract (after a header `user_version:Coins upgrade_info:(Maybe
 * ^Cell) upgrade_exec:uint2`) `supply_user#11`, `withdraw_user#21`, `liquidate_user#31`; results
 * `supply_success#11a query_id owner asset_id amount_supplied:uint64`, `supply_fail#11f`,
 * `withdraw_collateralized#211 query_id owner asset_id withdraw_amount_current:uint64`, `withdraw_success#211a`,
 * `withdraw_fail#211f`, the excesses `#21e6/#21e7/#21e8/#21ec` (refused on the user contract) and `#211fe8` (no
 * funds on the master), `liquidate_satisfied#311`, `liquidate_unsatisfied#31f`, `liquidate_success#311a`,
 * `liquidate_fail#311f`, `liquidate_success_report#311d`.
 */
export const EVAA_SUPPLY_MASTER = 0x1;
export const EVAA_WITHDRAW_MASTER = 0x2;
export const EVAA_LIQUIDATE_MASTER = 0x3;
export const EVAA_SUPPLY_USER = 0x11;
export const EVAA_WITHDRAW_USER = 0x21;
export const EVAA_LIQUIDATE_USER = 0x31;
export const EVAA_SUPPLY_SUCCESS = 0x11a;
export const EVAA_SUPPLY_FAIL = 0x11f;
export const EVAA_WITHDRAW_COLLATERALIZED = 0x211;
export const EVAA_WITHDRAW_SUCCESS = 0x211a;
export const EVAA_WITHDRAW_FAIL = 0x211f;
export const EVAA_WITHDRAW_NO_FUNDS_EXCESS = 0x211fe8;
export const EVAA_LIQUIDATE_SATISFIED = 0x311;
export const EVAA_LIQUIDATE_UNSATISFIED = 0x31f;
export const EVAA_LIQUIDATE_SUCCESS = 0x311a;
export const EVAA_LIQUIDATE_FAIL = 0x311f;
export const EVAA_LIQUIDATE_SUCCESS_REPORT = 0x311d;
/** sha256("TON"): EVAA's asset id of TON. */
export const EVAA_TON_ASSET_ID = 0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8an;

/**
 * `LiquidationError` codes a `liquidate_unsatisfied` carries after its payload reference (evaa-protocol
 * liquidate-message.fc), by the name TON Center stores as `fail_reason`.
 */
export const EVAA_LIQUIDATION_ERRORS: ReadonlyMap<number, string> = new Map([
  [0xe001, 'master_liquidating_too_much'],
  [0xe002, 'user_withdraw_in_progress'],
  [0xe003, 'not_liquidatable'],
  [0xe004, 'execution_crashed'],
  [0xe005, 'min_collateral_not_satisfied'],
  [0xe006, 'user_not_enough_collateral'],
  [0xe007, 'user_liquidating_too_much'],
  [0xe008, 'master_not_enough_liquidity'],
  [0xe009, 'liquidation_prices_missing'],
]);

export const EVAA_WITHDRAW_FAIL_REASONS: ReadonlyMap<number, string> = new Map([
  [0x21e6, 'withdraw_locked_excess'],
  [0x21e7, 'withdraw_not_collateralized_excess'],
  [0x21e8, 'withdraw_missing_prices_excess'],
  [0x21ec, 'withdraw_execution_crashed'],
]);

/** Steps over a user-contract message header; returns the opcode after it. */
export function loadEvaaUserHeaderOp(s: Slice): number {
  s.loadCoins();
  s.loadMaybeRef();
  s.loadUint(2);
  return s.loadUint(32);
}

export function loadEvaaSupplyMaster(s: Slice): { supplyAmount: bigint; recipient: string | null } {
  s.loadUint(32);
  s.loadUintBig(64);
  s.loadInt(2);
  return { supplyAmount: s.loadUintBig(64), recipient: loadAddr(s) };
}

export function loadEvaaSupplyJettonPayload(s: Slice): { recipient: string | null } {
  if (s.loadUint(32) !== EVAA_SUPPLY_MASTER) throw new Error('not an EVAA supply payload');
  s.loadInt(2);
  return { recipient: loadAddr(s) };
}

/** supply_user / withdraw_user after the header: `query_id asset_id:uint256 amount:uint64`. */
export function loadEvaaUserAsset(s: Slice): { assetId: bigint; amount: bigint } {
  loadEvaaUserHeaderOp(s);
  s.loadUintBig(64);
  return { assetId: s.loadUintBig(256), amount: s.loadUintBig(64) };
}

/** supply_success / withdraw_collateralized: `query_id owner asset_id amount:uint64`. */
export function loadEvaaOwnerAssetAmount(s: Slice): { owner: string | null; assetId: bigint; amount: bigint } {
  s.loadUint(32);
  s.loadUintBig(64);
  return { owner: loadAddr(s), assetId: s.loadUintBig(256), amount: s.loadUintBig(64) };
}

export function loadEvaaWithdrawMaster(s: Slice): { assetId: bigint; amount: bigint; recipient: string | null } {
  s.loadUint(32);
  s.loadUintBig(64);
  return { assetId: s.loadUintBig(256), amount: s.loadUintBig(64), recipient: loadAddr(s) };
}

export function loadEvaaLiquidateMaster(s: Slice): { borrower: string | null; collateralAssetId: bigint; incomingAmount: bigint } {
  s.loadUint(32);
  s.loadUintBig(64);
  const borrower = loadAddr(s);
  loadAddr(s);
  const collateralAssetId = s.loadUintBig(256);
  s.loadUintBig(64);
  s.loadInt(2);
  return { borrower, collateralAssetId, incomingAmount: s.loadUintBig(64) };
}

export function loadEvaaLiquidateSatisfied(s: Slice): { owner: string | null; transferredAssetId: bigint; liquidatableAmount: bigint; collateralAssetId: bigint; collateralReward: bigint } {
  s.loadUint(32);
  s.loadUintBig(64);
  const owner = loadAddr(s);
  loadAddr(s);
  const transferredAssetId = s.loadUintBig(256);
  const r = refSlice(s, s.loadRef());
  r.loadIntBig(64);
  const liquidatableAmount = r.loadUintBig(64);
  r.loadUintBig(64);
  r.loadIntBig(64);
  const collateralAssetId = r.loadUintBig(256);
  r.loadIntBig(64);
  return { owner, transferredAssetId, liquidatableAmount, collateralAssetId, collateralReward: r.loadUintBig(64) };
}

/**
 * `liquidate_unsatisfied#0000031f query_id owner_address liquidator_address transferred_asset_id:AssetId
 * ^[transferred_amount:Amount collateral_asset_id:AssetId min_collateral_amount:Amount forward_ton_amount:Amount
 * custom_response_payload:^Cell error:LiquidationError]`: the error's 32-bit code, null when the reference ends before it.
 */
export function loadEvaaLiquidateUnsatisfied(s: Slice): { owner: string | null; transferredAmount: bigint; collateralAssetId: bigint; errorCode: number | null } {
  s.loadUint(32);
  s.loadUintBig(64);
  const owner = loadAddr(s);
  loadAddr(s);
  s.loadUintBig(256);
  const r = refSlice(s, s.loadRef());
  const transferredAmount = r.loadUintBig(64);
  const collateralAssetId = r.loadUintBig(256);
  r.loadUintBig(64);
  r.loadUintBig(64);
  r.loadRef();
  return { owner, transferredAmount, collateralAssetId, errorCode: r.remainingBits >= 32 ? r.loadUint(32) : null };
}
