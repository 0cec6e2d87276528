import {
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

export const evaaFamily: Family = {
  matchers: () => [
    [520, new EvaaSupplyMatcher()],
    [530, new EvaaWithdrawMatcher()],
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
  ],
};
