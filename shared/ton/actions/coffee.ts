import {
  COFFEE_CREATE_VAULT,
  COFFEE_DEPLOY,
  COFFEE_MEV_FAILED_SWAP,
  COFFEE_MEV_HOLD_FUNDS,
  loadCoffeeMevFailedSwap,
  COFFEE_SERVICE_FEE,
  COFFEE_STAKING_CLAIM_REWARDS,
  COFFEE_STAKING_DEPOSIT,
  COFFEE_STAKING_WITHDRAW,
  loadCoffeeClaimRewards,
  loadCoffeeCreateVault,
  loadCoffeeWithdraw2,
  loadCoffeeWithdraw3,
  COFFEE_NOTIFICATION,
  COFFEE_PAYOUT,
  COFFEE_PAYOUT_INTERNAL,
  COFFEE_SWAP_INTERNAL,
  COFFEE_SWAP_NATIVE,
  COFFEE_SWAP_SUCCESSFUL_EVENT,
  loadCoffeePayoutInternal,
  loadCoffeeSwapEvent,
  loadCoffeeSwapNativeAmount,
  COFFEE_CREATE_DEPOSITORY_REQUEST,
  COFFEE_DEPOSIT_LIQUIDITY_INTERNAL,
  COFFEE_DEPOSIT_LIQUIDITY_NATIVE,
  COFFEE_DEPOSIT_SUCCESSFUL_EVENT,
  COFFEE_WITHDRAWAL_EVENT,
  loadCoffeeDepositoryRequest,
  loadCoffeeLiquidityEvent,
  COFFEE_CREATE_POOL_CREATOR_REQUEST,
  COFFEE_CREATE_POOL_EXTRA,
  COFFEE_CREATE_POOL_NATIVE,
  loadCoffeeCreatePool,
  COFFEE_CREATE_POOL_REQUEST,
  loadCoffeeCreatePoolRequest,
} from '../bodies/Coffee.js';
import { JETTON_INTERNAL_TRANSFER, loadJettonInternalTransfer } from '../bodies/JettonInternalTransfer.js';
import { EXCESSES } from './matcher.js';
import { depositData, fillDexWithdrawLiquidity } from './dedust-liquidity.js';
import { type DexTransfer, JettonSwapBlock, type PeerSwap } from './swaps.js';
import { bodySlice } from '../bodies/cell.js';
import { Block } from './block.js';
import { CallContractBlock, isCall } from './basic.js';
import type { Family } from './classify.js';
import { JettonTransferBlock } from './jettons.js';
import { Matcher, OpMatcher, OrMatcher, PredicateMatcher, RecursiveMatcher, TypeMatcher, findCall, findCalls, getLabeled, labeled } from './matcher.js';
import { NftMintBlock } from './nft.js';
import type { ActionRow } from './row.js';

/** swap.coffee: vault creation, MEV-protector holds, staking deposits, withdrawals and reward claims. */

/** The 32-bit tag of a jetton transfer's forward payload, or null. */
function payloadOp(b: Block): number | null {
  if (!(b instanceof JettonTransferBlock) || !b.data.forwardPayload) return null;
  try {
    const s = bodySlice(b.data.forwardPayload);
    return s.remainingBits >= 32 ? s.loadUint(32) : null;
  } catch {
    return null;
  }
}

class CoffeeCreateVaultMatcher extends Matcher {
  constructor() {
    super({
      child: labeled('deploy', new OpMatcher(COFFEE_DEPLOY, { child: new OpMatcher(0x2c76b973, { optional: true, child: new OpMatcher(0xd1735400, { optional: true }) }) })),
    });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, COFFEE_CREATE_VAULT);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const m = loadCoffeeCreateVault(block.body());
    const deploy = getLabeled('deploy', others);
    if (!deploy) return [];
    const nb = new Block('coffee_create_vault', [], { sender: block.message.source, vault: deploy.message.destination, asset: m.asset, amount: BigInt(block.message.value ?? 0) });
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

class CoffeeMevHoldFundsMatcher extends Matcher {
  constructor() {
    super({ parent: new PredicateMatcher(() => true, { optional: true, child: new OpMatcher(COFFEE_SERVICE_FEE) }) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, COFFEE_MEV_HOLD_FUNDS) || payloadOp(b) === COFFEE_MEV_HOLD_FUNDS;
  }
  override build(block: Block, others: Block[]): Block[] | null {
    let d: Record<string, unknown>;
    if (block instanceof CallContractBlock) {
      d = { sender: block.message.source, senderWallet: null, mevContract: block.message.destination, mevWallet: null, asset: null, amount: BigInt(block.message.value ?? 0) };
    } else if (block instanceof JettonTransferBlock) {
      d = { sender: block.data.sender, senderWallet: block.data.senderWallet, mevContract: block.data.receiver, mevWallet: null, asset: block.data.asset, amount: block.data.amount };
    } else return [];
    const nb = new Block('coffee_mev_protect_hold_funds', [], d);
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

/**
 * The MEV protector giving funds back after a failed swap (TON with `mev_protect_failed_swap`, or a jetton transfer
 * carrying it as payload). TON Center builds this block but its serializer has no case for the type, so the row
 * carries the generic columns only (actions.md); the block keeps the recipient and asset all the same.
 */
class CoffeeMevFailedSwapMatcher extends Matcher {
  override testSelf(b: Block): boolean {
    return isCall(b, COFFEE_MEV_FAILED_SWAP) || payloadOp(b) === COFFEE_MEV_FAILED_SWAP;
  }
  override build(block: Block, others: Block[]): Block[] | null {
    let d: Record<string, unknown>;
    if (block instanceof CallContractBlock) d = { recipient: loadCoffeeMevFailedSwap(block.body()).recipient, asset: null };
    else if (block instanceof JettonTransferBlock && block.data.forwardPayload) d = { recipient: loadCoffeeMevFailedSwap(bodySlice(block.data.forwardPayload)).recipient, asset: block.data.asset };
    else return [];
    const nb = new Block('coffee_mev_protect_failed_swap', [], d);
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

class CoffeeStakingDepositMatcher extends Matcher {
  constructor() {
    super({
      child: labeled(
        'pool_call',
        new OpMatcher(COFFEE_STAKING_DEPOSIT, { children: [labeled('log', new OpMatcher(COFFEE_STAKING_DEPOSIT, { optional: true })), labeled('nft_mint', new TypeMatcher('nft_mint'))] }),
      ),
    });
  }
  override testSelf(b: Block): boolean {
    return b instanceof JettonTransferBlock;
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const t = block as JettonTransferBlock;
    const pool = getLabeled('pool_call', others);
    const log = getLabeled('log', others);
    const mint = getLabeled('nft_mint', others);
    if (!pool || !(mint instanceof NftMintBlock)) return [];
    const nb = new Block('coffee_staking_deposit', [], {
      source: t.data.sender,
      userWallet: t.data.senderWallet,
      poolWallet: t.data.receiverWallet,
      pool: pool.message.destination,
      value: t.data.amount,
      itemAddress: mint.data.address,
      itemIndex: mint.data.index,
      asset: t.data.asset,
    });
    nb.mergeBlocks(log ? [t, pool, mint, log] : [t, pool, mint]);
    return [nb];
  }
}

class CoffeeStakingWithdrawMatcher extends Matcher {
  constructor() {
    const w3 = labeled('withdraw_3', new OpMatcher(COFFEE_STAKING_WITHDRAW, { children: [labeled('jetton_transfer', new TypeMatcher('jetton_transfer'))] }));
    const w2 = labeled('withdraw_2', new OpMatcher(COFFEE_STAKING_WITHDRAW, { children: [w3, labeled('log', new OpMatcher(COFFEE_STAKING_WITHDRAW, { optional: true }))] }));
    super({ child: w2 });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, COFFEE_STAKING_WITHDRAW);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const w2 = getLabeled('withdraw_2', others);
    const w3 = getLabeled('withdraw_3', others);
    const t = getLabeled('jetton_transfer', others);
    if (!w2 || !w3 || !(t instanceof JettonTransferBlock)) return [];
    const m2 = loadCoffeeWithdraw2(w2.body());
    const m3 = loadCoffeeWithdraw3(w3.body());
    const nb = new Block('coffee_staking_withdraw', [], {
      source: m2.owner,
      pool: w2.message.source,
      asset: t.data.asset,
      amount: m3.amount,
      userWallet: t.data.receiverWallet,
      poolWallet: m3.jettonWallet,
      nftAddress: block.message.destination,
      nftIndex: m2.nftId,
      points: m2.points,
    });
    const log = getLabeled('log', others);
    nb.mergeBlocks(log ? [block, w2, w3, t, log] : [block, w2, w3, t]);
    return [nb];
  }
}

class CoffeeStakingClaimMatcher extends Matcher {
  constructor() {
    super({ children: [labeled('jetton_transfer', new TypeMatcher('jetton_transfer')), labeled('log', new OpMatcher(COFFEE_STAKING_CLAIM_REWARDS, { optional: true }))] });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, COFFEE_STAKING_CLAIM_REWARDS) && b.next.length > 0;
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const m = loadCoffeeClaimRewards(block.body());
    const t = getLabeled('jetton_transfer', others);
    if (!(t instanceof JettonTransferBlock)) return [];
    const nb = new Block('coffee_staking_claim_rewards', [], {
      recipient: m.receiver,
      pool: block.message.destination,
      asset: t.data.asset,
      amount: m.amount,
      poolWallet: m.jettonWallet,
      recipientWallet: t.data.receiverWallet,
    });
    const log = getLabeled('log', others);
    nb.mergeBlocks(log ? [block, t, log] : [block, t]);
    return [nb];
  }
}

/** A swap routed by swap.coffee: its pool hops with their success logs, then the payout. */
class CoffeeSwapMatcher extends Matcher {
  constructor() {
    const inT = labeled('in_transfer', new OrMatcher([new TypeMatcher('jetton_transfer'), new OpMatcher(COFFEE_SWAP_NATIVE)]));
    const outT = labeled('out_transfer', new OrMatcher([new TypeMatcher('jetton_transfer'), new OpMatcher(COFFEE_PAYOUT), new OpMatcher(COFFEE_NOTIFICATION)]));
    const payout = labeled('payout', new OpMatcher(COFFEE_PAYOUT_INTERNAL, { child: outT }));
    const hop = new OpMatcher(COFFEE_SWAP_INTERNAL, { child: new OpMatcher(COFFEE_SWAP_SUCCESSFUL_EVENT) });
    const chain = new RecursiveMatcher(hop, payout, true);
    super({ parent: inT, children: [new OpMatcher(COFFEE_SWAP_SUCCESSFUL_EVENT), new OrMatcher([chain, payout])] });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, COFFEE_SWAP_INTERNAL);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const inT = getLabeled('in_transfer', others);
    const payout = getLabeled('payout', others);
    const outT = getLabeled('out_transfer', others);
    if (!inT || !payout || !outT) return [];
    const hops = [...new Set([...findCalls(others, COFFEE_SWAP_INTERNAL), block])].sort((a, b) => (a.minLt < b.minLt ? -1 : a.minLt > b.minLt ? 1 : 0));
    let ok = true;
    const peers: PeerSwap[] = [];
    for (const h of hops) {
      const ev = findCall(h.next, COFFEE_SWAP_SUCCESSFUL_EVENT);
      if (!ev) {
        ok = false;
        continue;
      }
      const e = loadCoffeeSwapEvent(ev.body());
      peers.push({ assetIn: e.input, amountIn: e.inputAmount, assetOut: null, amountOut: e.outputAmount });
    }
    if (peers.length === 0) return [];
    let sender: string | null = null;
    let incoming: DexTransfer | null = null;
    if (inT instanceof JettonTransferBlock) {
      const d = inT.data;
      sender = d.sender;
      incoming = { asset: d.asset, amount: d.amount, source: d.sender, sourceJettonWallet: d.senderWallet, destination: d.receiver, destinationJettonWallet: d.receiverWallet };
    } else if (isCall(inT, COFFEE_SWAP_NATIVE)) {
      sender = inT.message.source;
      incoming = { asset: null, amount: loadCoffeeSwapNativeAmount(inT.body()), source: sender, sourceJettonWallet: null, destination: inT.message.destination, destinationJettonWallet: null };
    }
    let outgoing: DexTransfer | null = null;
    if (outT instanceof JettonTransferBlock) {
      const d = outT.data;
      outgoing = { asset: d.asset, amount: d.amount, source: d.sender, sourceJettonWallet: d.senderWallet, destination: d.receiver, destinationJettonWallet: d.receiverWallet };
    } else if (isCall(outT, COFFEE_PAYOUT)) {
      const p = loadCoffeePayoutInternal(payout.body());
      outgoing = { asset: null, amount: p.amount, source: payout.message.source, sourceJettonWallet: null, destination: p.recipient, destinationJettonWallet: null };
    } else if (isCall(outT, COFFEE_NOTIFICATION)) {
      const m = outT.message;
      outgoing = { asset: null, amount: BigInt(m.value ?? 0), source: m.source, sourceJettonWallet: null, destination: m.destination, destinationJettonWallet: null };
    }
    for (let i = 0; i + 1 < peers.length; i++) peers[i]!.assetOut = peers[i + 1]!.assetIn;
    if (outgoing) peers[peers.length - 1]!.assetOut = outgoing.asset;
    const empty: DexTransfer = { asset: null, amount: null, source: null, sourceJettonWallet: null, destination: null, destinationJettonWallet: null };
    const nb = new JettonSwapBlock({
      dex: 'coffee',
      sender,
      sourceAsset: incoming?.asset ?? null,
      destinationAsset: outgoing?.asset ?? null,
      incoming: incoming ?? empty,
      outgoing: outgoing ?? empty,
      peerSwaps: peers.length > 1 ? peers : [],
    });
    nb.mergeBlocks([block, ...others]);
    nb.failed = !ok;
    return [nb];
  }
}

const outTransfer = (): Matcher => new OrMatcher([new TypeMatcher('jetton_transfer'), new OpMatcher(COFFEE_PAYOUT), new OpMatcher(COFFEE_NOTIFICATION)]);
const TON = 'TON';

/** A deposit into a swap.coffee pool: the vault's request creating the depository, then the pool's result. */
class CoffeeDepositLiquidityMatcher extends Matcher {
  constructor() {
    const payout = labeled('payout', new OpMatcher(COFFEE_PAYOUT_INTERNAL, { optional: true, child: labeled('out_transfer', outTransfer()) }));
    const lp = labeled('lp_transfer', new OpMatcher(JETTON_INTERNAL_TRANSFER, { child: new OpMatcher(EXCESSES, { optional: true }) }));
    const success = labeled('success_event', new OpMatcher(COFFEE_DEPOSIT_SUCCESSFUL_EVENT));
    const internal = labeled('deposit_internal', new OpMatcher(COFFEE_DEPOSIT_LIQUIDITY_INTERNAL, { optional: true, children: [lp, success, payout] }));
    const deploy = labeled('deploy', new OpMatcher(COFFEE_DEPLOY, { child: internal }));
    super({ parent: labeled('in_transfer', new OrMatcher([new OpMatcher(COFFEE_DEPOSIT_LIQUIDITY_NATIVE), new TypeMatcher('jetton_transfer')])), child: deploy });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, COFFEE_CREATE_DEPOSITORY_REQUEST);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const inT = getLabeled('in_transfer', others);
    if (!inT) return [];
    let inWallet: string | null = null;
    let inAsset: string = TON;
    if (inT instanceof JettonTransferBlock) {
      inWallet = inT.data.senderWallet;
      inAsset = inT.data.asset ?? TON;
    }
    const req = loadCoffeeDepositoryRequest(block.body());
    const first = req.first ?? TON;
    const second = req.second ?? TON;
    const d: Record<string, unknown> = { dex: 'coffee', sender: req.sender, asset1: null, amount1: null, wallet1: null, asset2: null, amount2: null, wallet2: null, targetAmount1: null, targetAmount2: null };
    if (inAsset === first) Object.assign(d, { amount1: req.amount, asset1: inAsset, wallet1: inWallet, targetAsset1: first, targetAsset2: second });
    else if (inAsset === second) Object.assign(d, { amount2: req.amount, asset2: inAsset, wallet2: inWallet, targetAsset1: second, targetAsset2: first });
    else return [];
    const deploy = getLabeled('deploy', others);
    if (!deploy) return [];
    let lpTokens: bigint | null = null;
    let pool: string | null = null;
    const success = getLabeled('success_event', others);
    if (success) {
      lpTokens = loadCoffeeLiquidityEvent(success.body()).lpAmount;
      pool = success.message.source;
    }
    const lp = getLabeled('lp_transfer', others);
    if (lp && (lpTokens === null || pool === null)) {
      lpTokens = loadJettonInternalTransfer(lp.body()).amount;
      pool = lp.message.source;
    }
    const excessBlock = getLabeled('out_transfer', others);
    let excesses: [string, bigint][] = [];
    if (excessBlock instanceof JettonTransferBlock) excesses = [[excessBlock.data.asset ?? TON, excessBlock.data.amount]];
    else if (excessBlock instanceof CallContractBlock) excesses = [[TON, BigInt(excessBlock.message.value ?? 0)]];
    Object.assign(d, { pool, depositContract: deploy.message.destination, lpTokens, vaultExcesses: excesses });
    const nb = new Block('coffee_deposit_liquidity', [], d);
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

/** LP tokens burnt at a swap.coffee pool, paid out as two payouts and logged by the pool. */
class CoffeeWithdrawLiquidityMatcher extends Matcher {
  constructor() {
    const payout = (): Matcher => new OpMatcher(COFFEE_PAYOUT_INTERNAL, { child: outTransfer() });
    super({ children: [labeled('payout_1', payout()), labeled('payout_2', payout()), labeled('success_event', new OpMatcher(COFFEE_WITHDRAWAL_EVENT))] });
  }
  override testSelf(b: Block): boolean {
    return b.type === 'jetton_burn';
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const ev = getLabeled('success_event', others);
    if (!ev) return [];
    const e = loadCoffeeLiquidityEvent(ev.body());
    const pool = ev.message.source;
    const side = (p: Block | null): { asset: string | null; dexWallet: string | null; dexJettonWallet: string | null; wallet: string | null } => {
      const r = { asset: null as string | null, dexWallet: pool, dexJettonWallet: null as string | null, wallet: null as string | null };
      if (!p) return r;
      r.dexWallet = p.message.source;
      for (const n of p.next) {
        if (n instanceof JettonTransferBlock) {
          r.asset = n.data.asset;
          r.dexJettonWallet = n.data.senderWallet;
          r.wallet = n.data.receiverWallet;
          break;
        }
        if (isCall(n, COFFEE_PAYOUT)) {
          r.wallet = n.message.destination;
          break;
        }
      }
      return r;
    };
    const s1 = side(getLabeled('payout_1', others));
    const s2 = side(getLabeled('payout_2', others));
    const nb = new Block('dex_withdraw_liquidity', [], {
      dex: 'coffee',
      sender: block.data.owner,
      senderWallet: block.data.jettonWallet,
      pool,
      asset: block.data.asset,
      lpTokensBurnt: block.data.amount,
      isRefund: false,
      amount1: e.amount1,
      amount2: e.amount2,
      side1: s1,
      side2: s2,
    });
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

/** The first step of creating a pool: an asset sent to the vault, which deploys a pool creator. */
class CoffeeCreatePoolCreatorMatcher extends Matcher {
  constructor() {
    super({
      parent: labeled('in_transfer', new OrMatcher([new TypeMatcher('jetton_transfer'), new OpMatcher(COFFEE_CREATE_POOL_NATIVE), new OpMatcher(COFFEE_CREATE_POOL_EXTRA)])),
      child: labeled('deploy', new OpMatcher(COFFEE_DEPLOY)),
    });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, COFFEE_CREATE_POOL_CREATOR_REQUEST);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const inT = getLabeled('in_transfer', others);
    let d: Record<string, unknown>;
    let p;
    if (inT instanceof JettonTransferBlock) {
      if (!inT.data.forwardPayload) return [];
      p = loadCoffeeCreatePool(bodySlice(inT.data.forwardPayload));
      d = { sender: inT.data.sender, senderWallet: inT.data.senderWallet, asset: inT.data.asset, amount: inT.data.amount };
    } else if (inT && isCall(inT, COFFEE_CREATE_POOL_NATIVE)) {
      p = loadCoffeeCreatePool(inT.body());
      d = { sender: inT.message.source, senderWallet: null, asset: null, amount: p.amount };
    } else return [];
    const deploy = getLabeled('deploy', others);
    if (!deploy) return [];
    Object.assign(d, { creator: deploy.message.destination, recipient: p.recipient, first: p.first, second: p.second });
    const nb = new Block('coffee_create_pool_creator', [], d);
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

/** The second step: the vault, holding both assets, deploys the pool, which mints the first LP tokens. */
class CoffeeCreatePoolMatcher extends Matcher {
  constructor() {
    const lp = labeled('lp_transfer', new OpMatcher(JETTON_INTERNAL_TRANSFER, { child: new OpMatcher(EXCESSES, { optional: true }) }));
    const deploy = labeled(
      'pool_deploy',
      new OpMatcher(COFFEE_DEPLOY, {
        children: [lp, labeled('success_event', new OpMatcher(COFFEE_DEPOSIT_SUCCESSFUL_EVENT)), new OpMatcher(COFFEE_NOTIFICATION, { optional: true, child: new OpMatcher(0xb216d31f, { optional: true }) })],
      }),
    );
    super({ child: labeled('pool_request', new OpMatcher(COFFEE_CREATE_POOL_REQUEST, { child: deploy })) });
  }
  override testSelf(b: Block): boolean {
    return b.type === 'coffee_create_pool_creator';
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const c = block.data;
    const req = getLabeled('pool_request', others);
    if (!req) return [];
    const r = loadCoffeeCreatePoolRequest(req.body());
    let [amount1, amount2] = [r.amount1, r.amount2];
    let [initiator1, initiator2] = [c.sender as string | null, r.initiator];
    const deploy = getLabeled('pool_deploy', others);
    if (!deploy) return [];
    const success = getLabeled('success_event', others);
    if (!success) return [];
    const lpTokens = loadCoffeeLiquidityEvent(success.body()).lpAmount;
    let asset1: string | null = c.asset;
    let asset2: string | null;
    if (asset1 === c.first) asset2 = c.second;
    else if (asset1 === c.second) {
      asset2 = c.first;
      [amount1, amount2] = [amount2, amount1];
      [initiator1, initiator2] = [initiator2, initiator1];
    } else {
      asset1 = c.first;
      asset2 = c.second;
    }
    const nb = new Block('coffee_create_pool', [], {
      source: c.sender,
      sourceWallet: c.senderWallet,
      providedAsset: c.asset,
      amount: c.amount,
      initiator1,
      initiator2,
      pool: deploy.message.destination,
      asset1,
      asset2,
      amount1,
      amount2,
      lpTokens,
      creator: c.creator,
    });
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

const fill = (f: (d: Record<string, any>, row: ActionRow) => void) => (b: Block, row: ActionRow) => f(b.data, row);

export const coffeeFamily: Family = {
  matchers: () => [
    [660, new CoffeeSwapMatcher()],
    [650, new CoffeeDepositLiquidityMatcher()],
    [670, new CoffeeWithdrawLiquidityMatcher()],
    [680, new CoffeeCreateVaultMatcher()],
    [690, new CoffeeCreatePoolCreatorMatcher()],
    [700, new CoffeeCreatePoolMatcher()],
    [710, new CoffeeMevHoldFundsMatcher()],
    [720, new CoffeeMevFailedSwapMatcher()],
    [730, new CoffeeStakingDepositMatcher()],
    [740, new CoffeeStakingWithdrawMatcher()],
    [750, new CoffeeStakingClaimMatcher()],
  ],
  fillers: [
    ['coffee_deposit_liquidity', fill((d, r) => {
      r.type = 'dex_deposit_liquidity';
      r.source = d.sender;
      r.destination = d.pool;
      r.destination_secondary = d.depositContract;
      r.dex_deposit_liquidity_data = depositData(d, true);
    })],
    ['dex_withdraw_liquidity', fillDexWithdrawLiquidity],
    ['coffee_create_pool_creator', fill((d, r) => {
      r.source = d.sender;
      r.source_secondary = d.senderWallet;
      r.destination = d.recipient;
      r.destination_secondary = d.creator;
      r.asset = d.asset;
      r.asset2 = d.first;
      r.asset2_secondary = d.second;
      r.amount = d.amount;
    })],
    ['coffee_create_pool', fill((d, r) => {
      r.source = d.source;
      r.source_secondary = d.sourceWallet;
      r.amount = d.amount;
      r.asset = d.asset1;
      r.asset2 = d.asset2;
      r.destination = d.pool;
      r.destination_secondary = d.creator;
      r.coffee_create_pool_data = {
        amount_1: d.amount1,
        amount_2: d.amount2,
        initiator_1: d.initiator1,
        initiator_2: d.initiator2,
        provided_asset: d.providedAsset,
        lp_tokens_minted: d.lpTokens,
      };
    })],
    ['coffee_create_vault', fill((d, r) => {
      r.source = d.sender;
      r.destination = d.vault;
      r.asset = d.asset;
      r.value = d.amount;
    })],
    ['coffee_mev_protect_hold_funds', fill((d, r) => {
      r.source = d.sender;
      r.source_secondary = d.senderWallet;
      r.destination = d.mevContract;
      r.destination_secondary = d.mevWallet;
      r.asset = d.asset;
      r.amount = d.amount;
    })],
    ['coffee_staking_deposit', fill((d, r) => {
      r.source = d.source;
      r.source_secondary = d.userWallet;
      r.destination = d.pool;
      r.destination_secondary = d.poolWallet;
      r.asset = d.asset;
      r.amount = d.value;
      r.coffee_staking_deposit_data = { minted_item_address: d.itemAddress, minted_item_index: d.itemIndex };
    })],
    ['coffee_staking_withdraw', fill((d, r) => {
      r.source = d.source;
      r.source_secondary = d.userWallet;
      r.destination = d.pool;
      r.destination_secondary = d.poolWallet;
      r.asset = d.asset;
      r.amount = d.amount;
      r.coffee_staking_withdraw_data = { nft_address: d.nftAddress, nft_index: d.nftIndex, points: d.points };
    })],
    ['coffee_staking_claim_rewards', fill((d, r) => {
      r.source = d.pool;
      r.source_secondary = d.poolWallet;
      r.destination = d.recipient;
      r.destination_secondary = d.recipientWallet;
      r.asset = d.asset;
      r.amount = d.amount;
    })],
  ],
};
