import { JETTON_INTERNAL_TRANSFER, loadJettonInternalTransfer } from '../bodies/JettonInternalTransfer.js';
import { JETTON_NOTIFY } from '../bodies/JettonNotify.js';
import {
  STONFI_V2_ADD_LIQUIDITY,
  STONFI_V2_BURN_NOTIFICATION_EXT,
  STONFI_V2_CB_ADD_LIQUIDITY,
  STONFI_V2_CB_REFUND_ME,
  STONFI_V2_PROVIDE_LP,
  STONFI_V2_REFUND_ME,
  loadStonfiV2ProvideLp,
} from '../bodies/StonfiV2Liquidity.js';
import { PTON_TON_TRANSFER, STONFI_V2_PAY_TO, loadPTonTransfer } from '../bodies/StonfiV2Swap.js';
import { Block, LabelBlock } from './block.js';
import { isCall } from './basic.js';
import type { Family } from './classify.js';
import { type WithdrawLiquidityData, type WithdrawSide, fillDexWithdrawLiquidity } from './dedust-liquidity.js';
import { JettonTransferBlock } from './jettons.js';
import { Matcher, OpMatcher, OrMatcher, PredicateMatcher, TypeMatcher, labeled } from './matcher.js';
import type { ActionRow } from './row.js';

/**
 * STON.fi v2 liquidity (actions.md "DEX liquidity", `dex` = `stonfi_v2`). Providing: the user's asset reaches the
 * router (a jetton transfer, or TON through pTON), the router calls the pool (`provide_lp`), the pool credits the
 * user's LP account (`add_liquidity`), and once both sides are in, the LP account calls back (`cb_add_liquidity`) and
 * the pool mints LP jettons, or refunds. A provision of both sides from one message is one action. Withdrawing: LP
 * jettons burnt (or a refund asked of the LP account), the pool sends one `pay_to` per token to the router, which
 * transfers it. Assets: null = TON.
 */

interface DepositData {
  dex: 'stonfi_v2';
  sender: string | null;
  pool: string | null;
  asset1: string | null;
  amount1: bigint | null;
  wallet1: string | null;
  asset2: string | null;
  amount2: bigint | null;
  wallet2: string | null;
  lpTokens: bigint | null;
}

const isStonfiDeposit = (b: Block): boolean => b.type === 'dex_deposit_liquidity' && b.data?.dex === 'stonfi_v2';

/** TON Center `StonfiV2ProvideLiquidityMatcher`. */
class StonfiV2ProvideLiquidityMatcher extends Matcher {
  constructor() {
    // The other side of a two-sided provision, already matched, hanging off the same parent (the user's wallet).
    const otherDeposit = new Matcher({ child: labeled('deposit_part', new PredicateMatcher(isStonfiDeposit)), optional: true });
    const inPton = new OpMatcher(JETTON_NOTIFY, { parent: labeled('in_transfer', new OpMatcher(PTON_TON_TRANSFER, { parent: otherDeposit })) });
    const inJetton = labeled('in_transfer', new TypeMatcher('jetton_transfer', { parent: otherDeposit }));
    const inJettonNotify = new OpMatcher(JETTON_NOTIFY, { parent: new OpMatcher(JETTON_INTERNAL_TRANSFER, { parent: inJetton }) });
    const callback = new OpMatcher(STONFI_V2_CB_ADD_LIQUIDITY, {
      optional: true,
      child: new OrMatcher([labeled('lp_token_transfer', new OpMatcher(JETTON_INTERNAL_TRANSFER)), labeled('refund_add_liquidity', new OpMatcher(STONFI_V2_ADD_LIQUIDITY))]),
    });
    super({ parent: new OrMatcher([inPton, inJetton, inJettonNotify]), child: new OpMatcher(STONFI_V2_ADD_LIQUIDITY, { child: callback }) });
  }

  override testSelf(b: Block): boolean {
    return isCall(b, STONFI_V2_PROVIDE_LP);
  }

  override build(block: Block, others: Block[]): Block[] | null {
    let failed = false;
    let inTransfer: Block | null = null;
    let lpTransfer: Block | null = null;
    let other: Block | null = null;
    for (const b of others) {
      if (!(b instanceof LabelBlock)) continue;
      if (b.label === 'refund_add_liquidity') failed = true;
      else if (b.label === 'in_transfer') inTransfer = b.block;
      else if (b.label === 'lp_token_transfer') lpTransfer = b.block;
      else if (b.label === 'deposit_part') other = b.block;
    }
    if (inTransfer === null) throw new Error('no incoming transfer');
    const lpTokens = lpTransfer === null ? null : loadJettonInternalTransfer(lpTransfer.body()).amount;
    const provide = loadStonfiV2ProvideLp(block.body());
    const jetton = inTransfer instanceof JettonTransferBlock ? inTransfer : null;
    const data: DepositData = {
      dex: 'stonfi_v2',
      sender: provide.fromUser,
      pool: block.message.destination,
      asset1: jetton === null ? null : jetton.data.asset,
      amount1: provide.leftAmount > 0n ? provide.leftAmount : provide.rightAmount,
      wallet1: jetton === null ? null : jetton.data.senderWallet,
      asset2: null,
      amount2: null,
      wallet2: null,
      lpTokens,
    };
    const include = [block, ...others];
    if (other !== null) {
      const o = other.data as DepositData;
      if (o.sender === data.sender && o.pool === data.pool && o.lpTokens !== data.lpTokens) {
        // Both sides become one action: an empty block takes the parent's place above the two, so the parent
        // (the user's wallet) stays outside the action (TON Center inserts the same proxy).
        const parent = other.previous;
        if (parent === null || !parent.next.includes(other) || !parent.next.includes(inTransfer)) throw new Error('sides under different parents');
        const proxy = new Block('empty', []);
        parent.insertBetween([other, inTransfer], proxy);
        include.push(proxy);
        const i = include.indexOf(parent);
        if (i < 0) throw new Error('parent not matched');
        include.splice(i, 1);
        data.amount2 = o.amount1;
        data.asset2 = o.asset1;
        data.wallet2 = o.wallet1;
        if (lpTokens === null) data.lpTokens = o.lpTokens;
      }
    }
    const nb = new Block('dex_deposit_liquidity', [], data);
    nb.mergeBlocks(include);
    nb.failed = failed;
    return [nb];
  }
}

/** TON Center `StonfiV2WithdrawLiquidityMatcher`: matched on the first `pay_to`, which gathers its sibling. */
class StonfiV2WithdrawLiquidityMatcher extends Matcher {
  constructor() {
    const refunded = labeled('withdraw_refunded_liquidity', new OpMatcher(STONFI_V2_CB_REFUND_ME, { parent: new OpMatcher(STONFI_V2_REFUND_ME) }));
    const withdrawn = labeled('withdraw_liquidity', new OpMatcher(STONFI_V2_BURN_NOTIFICATION_EXT, { parent: new TypeMatcher('jetton_burn') }));
    super({ parent: new OrMatcher([refunded, withdrawn]), child: new TypeMatcher('jetton_transfer') });
  }

  override testSelf(b: Block): boolean {
    return isCall(b, STONFI_V2_PAY_TO);
  }

  override build(block: Block, others: Block[]): Block[] | null {
    const payouts: Block[] = [block];
    const extra: Block[] = [];
    const transfersOf = (b: Block): JettonTransferBlock[] => b.next.filter((x): x is JettonTransferBlock => x instanceof JettonTransferBlock);
    for (const b of block.previous?.next ?? []) {
      if (b === block || others.includes(b) || !isCall(b, STONFI_V2_PAY_TO)) continue;
      const transfers = transfersOf(b);
      if (transfers.length > 0) {
        payouts.push(b);
        extra.push(...transfers);
      }
    }
    const sides: { amount: bigint; side: WithdrawSide }[] = [];
    for (const p of payouts) {
      const transfer = transfersOf(p)[0];
      if (transfer === undefined) continue;
      const t = transfer.data;
      // TON leaves through pTON: the router's pTON wallet sends the TON on (`ton_transfer`).
      const pton = transfer.next.find((x) => isCall(x, PTON_TON_TRANSFER));
      let amount: bigint;
      let asset: string | null;
      if (pton !== undefined) {
        amount = loadPTonTransfer(pton.body()).tonAmount;
        extra.push(pton);
        asset = null;
      } else {
        amount = t.amount;
        asset = t.asset;
      }
      sides.push({ amount, side: { asset, dexWallet: t.sender, dexJettonWallet: t.senderWallet, wallet: t.receiverWallet } });
    }
    let sender: string | null = null;
    let senderWallet: string | null = null;
    let asset: string | null = null;
    let burnt: bigint | null = null;
    let isRefund = false;
    for (const b of others) {
      if (!(b instanceof LabelBlock)) continue;
      if (b.label === 'withdraw_refunded_liquidity') {
        isRefund = true;
        sender = b.block.previous!.message.source;
      } else if (b.label === 'withdraw_liquidity') {
        const burn = b.block.previous;
        if (burn === null || burn.type !== 'jetton_burn') return [];
        sender = burn.data.owner;
        senderWallet = burn.data.jettonWallet;
        burnt = burn.data.amount;
        asset = burn.data.asset;
      }
    }
    const none: WithdrawSide = { asset: null, dexWallet: null, dexJettonWallet: null, wallet: null };
    const data: WithdrawLiquidityData = {
      dex: 'stonfi_v2',
      sender,
      senderWallet,
      pool: block.message.source,
      asset,
      lpTokensBurnt: burnt,
      isRefund,
      amount1: sides[0]?.amount ?? null,
      amount2: sides[1]?.amount ?? null,
      side1: sides[0]?.side ?? none,
      side2: sides[1]?.side ?? { ...none },
    };
    const nb = new Block('dex_withdraw_liquidity', [], data);
    nb.mergeBlocks([...payouts, ...others, ...extra]);
    return [nb];
  }
}

/** TON Center `_fill_dex_deposit_liquidity`: the 8 keys of a STON.fi v2 provision. */
function fillDeposit(b: Block, row: ActionRow): void {
  const d = b.data as DepositData;
  row.source = d.sender;
  row.destination = d.pool;
  row.dex_deposit_liquidity_data = {
    dex: d.dex,
    amount1: d.amount1,
    amount2: d.amount2,
    asset1: d.asset1,
    asset2: d.asset2,
    user_jetton_wallet_1: d.wallet1,
    user_jetton_wallet_2: d.wallet2,
    lp_tokens_minted: d.lpTokens,
  };
}

export const stonfiLiquidityFamily: Family = {
  matchers: () => [
    [460, new StonfiV2ProvideLiquidityMatcher()],
    [470, new StonfiV2WithdrawLiquidityMatcher()],
  ],
  fillers: [
    ['dex_deposit_liquidity', fillDeposit],
    ['dex_withdraw_liquidity', fillDexWithdrawLiquidity],
  ],
};
