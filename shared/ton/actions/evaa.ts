import {
  EVAA_LIQUIDATE_FAIL,
  EVAA_LIQUIDATE_MASTER,
  EVAA_LIQUIDATE_SATISFIED,
  EVAA_LIQUIDATE_SUCCESS,
  EVAA_LIQUIDATE_SUCCESS_REPORT,
  EVAA_LIQUIDATE_UNSATISFIED,
  EVAA_LIQUIDATE_USER,
  EVAA_LIQUIDATION_ERRORS,
  EVAA_SUPPLY_FAIL,
  EVAA_SUPPLY_MASTER,
  EVAA_SUPPLY_SUCCESS,
  EVAA_SUPPLY_USER,
  EVAA_TON_ASSET_ID,
  EVAA_WITHDRAW_COLLATERALIZED,
  EVAA_WITHDRAW_FAIL,
  EVAA_WITHDRAW_FAIL_REASONS,
  EVAA_WITHDRAW_MASTER,
  EVAA_WITHDRAW_NO_FUNDS_EXCESS,
  EVAA_WITHDRAW_SUCCESS,
  EVAA_WITHDRAW_USER,
  loadEvaaLiquidateMaster,
  loadEvaaLiquidateSatisfied,
  loadEvaaLiquidateUnsatisfied,
  loadEvaaOwnerAssetAmount,
  loadEvaaSupplyJettonPayload,
  loadEvaaSupplyMaster,
  loadEvaaUserAsset,
  loadEvaaUserHeaderOp,
  loadEvaaWithdrawMaster,
} from '../bodies/Evaa.js';
import { bodySlice } from '../bodies/cell.js';
import { Block } from './block.js';
import { CallContractBlock, TonTransferBlock, isCall } from './basic.js';
import type { Family } from './classify.js';
import { JettonTransferBlock } from './jettons.js';
import { ExclusiveOrMatcher, Matcher, type MatcherOptions, OpMatcher, OrMatcher, PredicateMatcher, TypeMatcher, getLabeled, labeled } from './matcher.js';
import type { ActionRow } from './row.js';

/**
 * EVAA lending: supply (TON, or a jetton transfer whose payload is supply_master) and withdraw, each ending in
 * the protocol's success or failure message; `success` is the protocol's verdict.
 */
const comment = (): Matcher =>
  new PredicateMatcher((b) => b instanceof TonTransferBlock && ['EVAA liquidation.', 'EVAA supply.', 'EVAA withdraw.'].includes(b.data.comment ?? ''), { optional: true });

/** A message to a user contract: its opcode sits after the user header. */
class UserOpMatcher extends Matcher {
  constructor(
    readonly op: number,
    o: MatcherOptions = {},
  ) {
    super(o);
  }
  override testSelf(b: Block): boolean {
    if (!(b instanceof CallContractBlock)) return false;
    try {
      return loadEvaaUserHeaderOp(b.body()) === this.op;
    } catch {
      return false;
    }
  }
}

function payloadOp(b: Block): number | null {
  if (!(b instanceof JettonTransferBlock) || !b.data.forwardPayload) return null;
  try {
    return bodySlice(b.data.forwardPayload).loadUint(32);
  } catch {
    return null;
  }
}

const hex = (v: bigint | null): string | null => (v === null ? null : '0x' + v.toString(16));

class EvaaSupplyMatcher extends Matcher {
  constructor() {
    const success = labeled('supply_success', new OpMatcher(EVAA_SUPPLY_SUCCESS, { child: comment() }));
    const fail = labeled('supply_fail', new OpMatcher(EVAA_SUPPLY_FAIL));
    const refund = labeled('jetton_return', new TypeMatcher('jetton_transfer'));
    super({ child: labeled('supply_user', new UserOpMatcher(EVAA_SUPPLY_USER, { child: new OrMatcher([success, fail, refund]) })) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, EVAA_SUPPLY_MASTER) || payloadOp(b) === EVAA_SUPPLY_MASTER;
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const isTon = block instanceof CallContractBlock;
    let d: Record<string, any>;
    if (isTon) {
      const m = loadEvaaSupplyMaster(block.body());
      d = { sender: block.message.source, amount: m.supplyAmount, recipient: m.recipient, master: block.message.destination, senderWallet: null, masterWallet: null, recipientWallet: null, asset: null };
    } else {
      const t = (block as JettonTransferBlock).data;
      if (!t.forwardPayload) return [];
      const p = loadEvaaSupplyJettonPayload(bodySlice(t.forwardPayload));
      d = { sender: t.sender, senderWallet: t.senderWallet, masterWallet: t.receiverWallet, amount: t.amount, master: t.receiver, asset: t.asset, recipient: p.recipient, recipientWallet: null };
      if (d.sender === d.recipient) d.recipientWallet = d.senderWallet;
      else {
        for (const o of others) {
          if (o instanceof JettonTransferBlock && o.data.senderWallet === d.masterWallet) {
            d.recipientWallet = o.data.receiverWallet;
            break;
          }
        }
      }
    }
    const user = getLabeled('supply_user', others);
    if (!user) return [];
    d.recipientContract = user.message.destination;
    d.assetId = loadEvaaUserAsset(user.body()).assetId;
    d.isTon = isTon;
    const success = getLabeled('supply_success', others);
    if (success) {
      d.amount = loadEvaaOwnerAssetAmount(success.body()).amount;
      d.isSuccess = true;
      const nb = new Block('evaa_supply', [], d);
      nb.mergeBlocks([block, ...others]);
      return [nb];
    }
    const fail = getLabeled('supply_fail', others);
    const ret = getLabeled('jetton_return', others);
    if (fail || ret) {
      d.isSuccess = false;
      const nb = new Block('evaa_supply', [], d);
      nb.mergeBlocks([block, ...others, ...(ret ? [ret] : []), ...(fail ? [fail] : [])]);
      return [nb];
    }
    return [];
  }
}

class EvaaWithdrawMatcher extends Matcher {
  constructor() {
    const jettonPayout = labeled('jetton_payout', new TypeMatcher('jetton_transfer'));
    const tonPayout = labeled('ton_payout', new OpMatcher(EVAA_WITHDRAW_SUCCESS, { child: comment() }));
    const successM = labeled('withdraw_success', new UserOpMatcher(EVAA_WITHDRAW_SUCCESS, { child: new TypeMatcher('ton_transfer') }));
    const collOk = labeled('withdraw_collateralized_success', new OpMatcher(EVAA_WITHDRAW_COLLATERALIZED, { children: [new ExclusiveOrMatcher([jettonPayout, tonPayout]), successM] }));
    const noFunds = labeled(
      'withdraw_fail_no_funds',
      new UserOpMatcher(EVAA_WITHDRAW_FAIL, { child: labeled('withdraw_no_funds_excess', new OpMatcher(EVAA_WITHDRAW_NO_FUNDS_EXCESS)) }),
    );
    const collFail = labeled('withdraw_collateralized_fail', new OpMatcher(EVAA_WITHDRAW_COLLATERALIZED, { child: noFunds }));
    const userFail = labeled(
      'withdraw_fail_on_user_excesses',
      new PredicateMatcher((b) => b instanceof CallContractBlock && b.op !== null && EVAA_WITHDRAW_FAIL_REASONS.has(b.op)),
    );
    super({ child: labeled('withdraw_on_user', new UserOpMatcher(EVAA_WITHDRAW_USER, { child: new ExclusiveOrMatcher([collOk, collFail, userFail]) })) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, EVAA_WITHDRAW_MASTER);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const m = loadEvaaWithdrawMaster(block.body());
    const isTon = m.assetId === EVAA_TON_ASSET_ID;
    const user = getLabeled('withdraw_on_user', others);
    if (!user) return [];
    const d: Record<string, any> = {
      owner: block.message.source,
      ownerContract: user.message.destination,
      recipient: m.recipient,
      assetId: m.assetId,
      amount: m.amount,
      isTon,
      recipientWallet: null,
      masterWallet: null,
      failReason: null,
      master: block.message.destination,
      asset: null,
    };
    const ok = getLabeled('withdraw_collateralized_success', others);
    if (ok) {
      d.amount = loadEvaaOwnerAssetAmount(ok.body()).amount;
      if (isTon) {
        if (!getLabeled('ton_payout', others)) return [];
      } else {
        const p = getLabeled('jetton_payout', others);
        if (!(p instanceof JettonTransferBlock)) return [];
        d.asset = p.data.asset;
        d.recipientWallet = p.data.receiverWallet;
        d.masterWallet = p.data.senderWallet;
      }
      d.isSuccess = true;
    } else if (getLabeled('withdraw_collateralized_fail', others)) {
      d.isSuccess = false;
      d.failReason = 'withdraw_no_funds_excess';
    } else {
      const f = getLabeled('withdraw_fail_on_user_excesses', others);
      if (!f) return [];
      d.isSuccess = false;
      d.failReason = EVAA_WITHDRAW_FAIL_REASONS.get((f as CallContractBlock).op!) ?? null;
    }
    const nb = new Block('evaa_withdraw', [], d);
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

/** An address as evaa_liquidate writes it (actions.md S.2): raw lower-case, `addr_none` for none. */
const lowerAddr = (a: string | null): string => (a === null ? 'addr_none' : a.toLowerCase());

/**
 * Liquidation: liquidate_master (TON, or a jetton transfer whose payload is liquidate_master) → the borrower's
 * user contract → satisfied (then liquidate_success to the user and the collateral to the liquidator, or
 * liquidate_fail when the master lacks liquidity) or unsatisfied (the error it carries); or refused by the master at
 * once (the TON bounced, the jettons sent back).
 */
class EvaaLiquidateMatcher extends Matcher {
  constructor() {
    const finish = (): Matcher =>
      labeled(
        'finish_with_tokens_and_report',
        new ExclusiveOrMatcher([
          new PredicateMatcher((b) => b instanceof CallContractBlock && (b.op === EVAA_LIQUIDATE_SUCCESS_REPORT || b.op === EVAA_LIQUIDATE_FAIL)),
          new TypeMatcher('jetton_transfer'),
        ]),
      );
    const satisfiedOk = labeled(
      'liquidate_satisfied_and_success',
      new OpMatcher(EVAA_LIQUIDATE_SATISFIED, { children: [new UserOpMatcher(EVAA_LIQUIDATE_SUCCESS, { child: comment() }), finish()] }),
    );
    // TON Center matches this liquidate_fail to the user contract by its opcode first, without the user header.
    const satisfiedFail = labeled('liquidate_satisfied_and_fail', new OpMatcher(EVAA_LIQUIDATE_SATISFIED, { children: [new OpMatcher(EVAA_LIQUIDATE_FAIL), finish()] }));
    const unsatisfied = labeled('liquidate_unsatisfied', new OpMatcher(EVAA_LIQUIDATE_UNSATISFIED, { child: finish() }));
    const user = labeled('liquidate_user', new UserOpMatcher(EVAA_LIQUIDATE_USER, { child: new ExclusiveOrMatcher([satisfiedOk, satisfiedFail, unsatisfied]) }));
    const refund = labeled(
      'immediate_fail_refund',
      new ExclusiveOrMatcher([new PredicateMatcher((b) => b instanceof CallContractBlock && b.message.bounced === true), new TypeMatcher('jetton_transfer')]),
    );
    super({ child: new ExclusiveOrMatcher([user, refund]) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, EVAA_LIQUIDATE_MASTER) || payloadOp(b) === EVAA_LIQUIDATE_MASTER;
  }
  override build(block: Block, others: Block[]): Block[] | null {
    let liquidator: string | null;
    let m: ReturnType<typeof loadEvaaLiquidateMaster>;
    if (block instanceof CallContractBlock) {
      liquidator = block.message.source;
      m = loadEvaaLiquidateMaster(block.body());
    } else {
      const t = (block as JettonTransferBlock).data;
      if (!t.forwardPayload) return [];
      liquidator = t.sender;
      m = loadEvaaLiquidateMaster(bodySlice(t.forwardPayload));
    }
    const d: Record<string, any> = {
      liquidator,
      borrower: m.borrower,
      borrowerContract: null,
      collateralAssetId: m.collateralAssetId,
      collateralAmount: 0n,
      debtAmount: m.incomingAmount,
      isSuccess: false,
      failReason: null,
    };
    const user = getLabeled('liquidate_user', others);
    if (!user) {
      if (!getLabeled('immediate_fail_refund', others)) return [];
      d.failReason = 'immediate_rejection';
    } else {
      d.borrowerContract = user.message.destination;
      const ok = getLabeled('liquidate_satisfied_and_success', others);
      const unsatisfied = getLabeled('liquidate_unsatisfied', others);
      if (ok) {
        const sat = loadEvaaLiquidateSatisfied(ok.body());
        d.borrower = sat.owner;
        d.collateralAssetId = sat.collateralAssetId;
        d.collateralAmount = sat.collateralReward;
        d.debtAmount = sat.liquidatableAmount;
        d.isSuccess = true;
      } else if (unsatisfied) {
        // TON Center reads the message outside its error handling (a body that does not read is no liquidation);
        // only a missing error code gives `parse_error` (its LiquidationError reader).
        const code = loadEvaaLiquidateUnsatisfied(unsatisfied.body()).errorCode;
        d.failReason = code === null ? 'parse_error' : (EVAA_LIQUIDATION_ERRORS.get(code) ?? 'unknown');
      } else if (getLabeled('liquidate_satisfied_and_fail', others)) {
        d.failReason = 'master_not_enough_liquidity';
      } else {
        return [];
      }
    }
    const nb = new Block('evaa_liquidate', [], d);
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

export const evaaFamily: Family = {
  matchers: () => [
    [520, new EvaaSupplyMatcher()],
    [530, new EvaaWithdrawMatcher()],
    [540, new EvaaLiquidateMatcher()],
  ],
  fillers: [
    [
      'evaa_supply',
      (b: Block, row: ActionRow) => {
        const d = b.data;
        row.source = d.sender;
        row.source_secondary = d.senderWallet;
        row.destination = d.recipient;
        row.destination_secondary = d.recipientContract;
        row.amount = d.amount;
        row.asset = d.asset;
        row.success = d.isSuccess && !b.failed;
        row.evaa_supply_data = { is_ton: d.isTon, asset_id: hex(d.assetId), master: d.master, recipient_jetton_wallet: d.recipientWallet || null, master_jetton_wallet: d.masterWallet || null };
      },
    ],
    [
      'evaa_withdraw',
      (b: Block, row: ActionRow) => {
        const d = b.data;
        row.source = d.owner;
        row.destination = d.recipient;
        row.destination_secondary = d.ownerContract;
        row.amount = d.amount;
        row.asset = d.asset;
        row.success = d.isSuccess && !b.failed;
        row.evaa_withdraw_data = {
          is_ton: d.isTon,
          recipient_jetton_wallet: d.recipientWallet || null,
          master_jetton_wallet: d.masterWallet || null,
          fail_reason: d.failReason,
          master: d.master,
          asset_id: hex(d.assetId),
        };
      },
    ],
    [
      'evaa_liquidate',
      (b: Block, row: ActionRow) => {
        const d = b.data;
        row.source = lowerAddr(d.liquidator);
        row.destination = lowerAddr(d.borrower);
        row.destination_secondary = d.borrowerContract === null ? null : lowerAddr(d.borrowerContract);
        row.asset = d.collateralAssetId.toString();
        row.amount = d.collateralAmount;
        row.success = d.isSuccess;
        row.evaa_liquidate_data = { asset_id: hex(d.collateralAssetId), fail_reason: d.failReason, debt_amount: d.debtAmount };
      },
    ],
  ],
};
