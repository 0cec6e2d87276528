import {
  DEDUST_PAYOUT,
  DEDUST_PAYOUT_FROM_POOL,
  DEDUST_SWAP,
  DEDUST_SWAP_EXTERNAL,
  DEDUST_SWAP_NOTIFICATION,
  DEDUST_SWAP_PAYLOAD,
  DEDUST_SWAP_PEER,
  loadDedustPayoutAmount,
  loadDedustSteps,
  loadDedustSwapNotification,
} from '../bodies/Dedust.js';
import { JETTON_NOTIFY } from '../bodies/JettonNotify.js';
import { STONFI_PAYMENT_REQUEST, STONFI_SWAP, loadStonfiPaymentRequest, loadStonfiSwap } from '../bodies/StonfiSwap.js';
import {
  PTON_TON_TRANSFER,
  STONFI_SWAP_OK,
  STONFI_V2_PAY_TO,
  STONFI_V2_SWAP,
  loadPTonTransfer,
  loadStonfiV2PayTo,
  loadStonfiV2Swap,
  stonfiV2NotifyTarget,
  stonfiV2PoolAccounts,
} from '../bodies/StonfiV2Swap.js';
import { bodySlice } from '../bodies/cell.js';
import { Block, LabelBlock, WrapperBlock } from './block.js';
import { CallContractBlock, isCall } from './basic.js';
import type { Family } from './classify.js';
import { type InterfaceRepository, jettonWallet } from './interfaces.js';
import { JettonTransferBlock, PTON_MASTERS } from './jettons.js';
import { Matcher, OpMatcher, OrMatcher, PredicateMatcher, RecursiveMatcher, TypeMatcher, findCall, findCalls, labeled, sequence } from './matcher.js';
import type { ActionRow } from './row.js';

/**
 * DEX swaps → `jetton_swap` (actions.md "Jettons"): STON.fi v1 (swap → pay_to → jetton transfer), STON.fi v2
 * (swap → pay_to, hops chained through pTON or the router's own wallets), DeDust (swap_external / swap_peer chain →
 * payout_from_pool → payout or jetton transfer). Assets: null = TON.
 */
export interface DexTransfer {
  asset: string | null;
  amount: bigint | null;
  source: string | null;
  sourceJettonWallet: string | null;
  destination: string | null;
  destinationJettonWallet: string | null;
}

export interface PeerSwap {
  assetIn: string | null;
  amountIn: bigint | null;
  assetOut: string | null;
  amountOut: bigint | null;
}

export interface SwapData {
  dex: string;
  sender: string | null;
  incoming: DexTransfer;
  outgoing: DexTransfer;
  peerSwaps: PeerSwap[] | null;
  /** Set for stonfi_v2, dedust, tonco: the row's asset / asset2 come from here. */
  sourceAsset?: string | null;
  destinationAsset?: string | null;
  destinationWallet?: string | null;
  minOutAmount?: bigint | null;
}

export class JettonSwapBlock extends Block {
  declare data: SwapData;
  constructor(data: SwapData) {
    super('jetton_swap', [], data);
  }
}

const STONFI_SWAP_OK_REF = 0x45078540;
const STONFI_SENDER_CODES = new Set([0x38976e9b, 0x5ffe1295, STONFI_SWAP_OK]);

/** Jetton → TON: a pTON master stands for TON. */
function tonIfPton(jetton: string | null): string | null {
  return jetton !== null && PTON_MASTERS.has(jetton) ? null : jetton;
}

class StonfiSwapMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ child: sequence([new OpMatcher(STONFI_SWAP), new OpMatcher(STONFI_PAYMENT_REQUEST), new TypeMatcher('jetton_transfer')]) });
  }
  override testSelf(b: Block): boolean {
    return b instanceof JettonTransferBlock;
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const swapCall = others.find((x) => isCall(x, STONFI_SWAP))!;
    const swap = loadStonfiSwap(swapCall.body());
    const requests = findCalls(others, STONFI_PAYMENT_REQUEST).map((b) => ({ msg: loadStonfiPaymentRequest(b.body()), b }));
    if (requests.length === 0) return null;
    let outAmt: bigint | null = null;
    let outAddr: string | null = null;
    let outgoing: JettonTransferBlock | null = null;
    let success = false;
    for (const { msg, b } of requests) {
      const [amount, addr] = msg.amount0Out > 0n ? [msg.amount0Out, msg.token0Out] : [msg.amount1Out, msg.token1Out];
      if (STONFI_SENDER_CODES.has(msg.exitCode)) {
        success = msg.exitCode === STONFI_SWAP_OK;
        if (outAmt === null || outAmt < amount) {
          outgoing = b.next.find((n): n is JettonTransferBlock => n instanceof JettonTransferBlock) ?? null;
          outAmt = amount;
          outAddr = addr;
        }
      } else if (msg.exitCode === STONFI_SWAP_OK_REF) {
        for (const x of b.bfs()) {
          const i = others.indexOf(x);
          if (i >= 0) others.splice(i, 1);
        }
      }
    }
    if (outgoing === null) throw new Error('no outgoing transfer');
    const incomingTransfer = swapCall.previous as JettonTransferBlock;
    const actualOutAddr = outAddr;
    if (block instanceof JettonTransferBlock && block.data.stonfiSwap !== null) outAddr = block.data.stonfiSwap.jettonWallet;
    const outWallet = jettonWallet(this.repo, outAddr);
    const actualOutWallet = jettonWallet(this.repo, actualOutAddr);
    const dexInWallet = jettonWallet(this.repo, swap.tokenWallet);
    const outgoingT: DexTransfer = {
      asset: actualOutWallet?.jetton ?? null,
      amount: outAmt,
      source: outgoing.data.sender,
      sourceJettonWallet: outgoing.data.senderWallet,
      destination: null,
      destinationJettonWallet: null,
    };
    if (outgoing.data.hasInternalTransfer && outgoing.data.receiverWallet !== null) {
      outgoingT.destinationJettonWallet = outgoing.data.receiverWallet;
      outgoingT.destination = outgoing.data.receiver;
    } else if (incomingTransfer.data.stonfiSwap !== null) {
      outgoingT.destination = incomingTransfer.data.stonfiSwap.userAddress;
    } else outgoingT.destination = swap.fromUser;
    const data: SwapData = {
      dex: 'stonfi',
      sender: swap.fromRealUser,
      incoming: {
        asset: dexInWallet?.jetton ?? null,
        amount: swap.amount,
        source: swap.fromRealUser,
        sourceJettonWallet: incomingTransfer.data.hasInternalTransfer ? incomingTransfer.data.senderWallet : null,
        destination: dexInWallet?.owner ?? null,
        destinationJettonWallet: swap.tokenWallet,
      },
      outgoing: outgoingT,
      peerSwaps: [],
      destinationAsset: outWallet?.jetton ?? null,
      destinationWallet: outAddr,
    };
    const nb = new JettonSwapBlock(data);
    if (!success) nb.failed = true;
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

class StonfiV2SwapMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    const payout = labeled('payout', new OpMatcher(STONFI_V2_PAY_TO));
    const peerSwap = labeled('peer_swap', new OpMatcher(STONFI_V2_SWAP, { child: payout, optional: true }));
    const ptonVerified = new PredicateMatcher((b) => this.validIntermediatePton(b), {
      child: new OpMatcher(JETTON_NOTIFY, { child: peerSwap }),
      optional: true,
    });
    const intermediatePton = new PredicateMatcher((b) => b.type === 'jetton_transfer' && !b.data.hasInternalTransfer, { child: ptonVerified });
    payout.child = new OrMatcher([
      labeled('out_transfer', intermediatePton),
      labeled('out_transfer', new TypeMatcher('jetton_transfer', { child: peerSwap, optional: true })),
      peerSwap,
    ]);
    const inPton = new OpMatcher(JETTON_NOTIFY, { parent: labeled('in_transfer', new OpMatcher(PTON_TON_TRANSFER)) });
    super({ parent: new OrMatcher([labeled('in_transfer', new TypeMatcher('jetton_transfer')), inPton]), child: payout });
  }

  private validIntermediatePton(b: Block): boolean {
    const prev = b.previous;
    if (prev === null || prev.data?.hasInternalTransfer) return false;
    if (prev.data?.receiver !== b.message.destination) return false;
    try {
      const p = loadPTonTransfer(b.body());
      if (p.forwardPayload === null) return false;
      return p.forwardPayload.loadUint(32) === STONFI_V2_SWAP;
    } catch {
      return false;
    }
  }

  override testSelf(b: Block): boolean {
    return isCall(b, STONFI_V2_SWAP);
  }

  private assetOfWallet(addr: string | null): string | null | undefined {
    const w = jettonWallet(this.repo, addr);
    if (w === null) return undefined;
    return tonIfPton(w.jetton);
  }

  override build(block: Block, others: Block[]): Block[] | null {
    const sorted = [...others].sort((a, b) => (a.minLt < b.minLt ? -1 : a.minLt > b.minLt ? 1 : 0));
    const steps: [Block, Block | null][] = [[block, null]];
    let inTransfer: Block | null = null;
    let outTransfer: Block | null = null;
    for (const b of sorted) {
      if (!(b instanceof LabelBlock)) continue;
      if (b.label === 'peer_swap') steps.push([b.block, null]);
      else if (b.label === 'payout') steps[steps.length - 1]![1] = b.block;
      else if (b.label === 'out_transfer') outTransfer = b.block;
      else if (b.label === 'in_transfer') inTransfer = b.block;
    }
    let ok = true;
    const actual: { wallet: string | null; lt: bigint; payTo: ReturnType<typeof loadStonfiV2PayTo>; swap: ReturnType<typeof loadStonfiV2Swap> }[] = [];
    for (const [swap, payTo] of steps) {
      if (payTo === null) throw new Error('swap without pay_to');
      const p = loadStonfiV2PayTo(payTo.body());
      if (p.exitCode !== STONFI_SWAP_OK) ok = false;
      const s = loadStonfiV2Swap(swap.body());
      actual.push({ wallet: s.tokenWallet1, lt: swap.minLt, payTo: p, swap: s });
    }
    actual.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
    let destinationAsset: string | null | undefined;
    const pools = stonfiV2PoolAccounts(actual[0]!.swap);
    const target = jettonWallet(this.repo, pools[pools.length - 1]);
    if (target !== null) destinationAsset = tonIfPton(target.jetton);
    const poolAsset = new Map<string, string | null>();
    for (const a of actual) {
      if (a.wallet === null) throw new Error('STON.fi v2 swap without a pool wallet');
      const asset = this.assetOfWallet(a.wallet);
      if (asset === undefined) {
        block.broken = true;
        break;
      }
      poolAsset.set(a.wallet, asset);
    }
    if (inTransfer === null || outTransfer === null) throw new Error('stonfi v2 swap without transfers');
    let sender: string | null;
    let incoming: DexTransfer;
    if (inTransfer instanceof JettonTransferBlock) {
      const d = inTransfer.data;
      sender = d.sender;
      incoming = { asset: tonIfPton(d.asset), amount: d.amount, source: d.sender, sourceJettonWallet: d.senderWallet, destination: d.receiver, destinationJettonWallet: d.receiverWallet };
    } else {
      const m = inTransfer.message;
      let amount = m.value === null ? null : BigInt(m.value);
      if (inTransfer.node.opcode === PTON_TON_TRANSFER) amount = loadPTonTransfer(inTransfer.body()).tonAmount;
      sender = m.source;
      incoming = { asset: null, amount, source: m.source, sourceJettonWallet: null, destination: block.message.source, destinationJettonWallet: m.destination };
    }
    const peer: PeerSwap[] = [];
    if (actual.length > 1) {
      const best = (p: ReturnType<typeof loadStonfiV2PayTo>): [bigint, string | null] =>
        p.amount0Out >= p.amount1Out ? [p.amount0Out, p.token0] : [p.amount1Out, p.token1];
      // A hop's output is looked up among the hops' pool wallets whose jetton is known: TON Center gives up on the
      // swap when it is not there (an unknown wallet is not TON).
      const hopAsset = (tok: string | null): string | null => {
        const a = tok === null ? undefined : poolAsset.get(tok);
        if (a === undefined) throw new Error('STON.fi v2 hop into an unknown pool wallet');
        return a;
      };
      const first = actual[0]!.payTo;
      const [amt, tok] = best(first);
      peer.push({ assetIn: incoming.asset, amountIn: incoming.amount, assetOut: hopAsset(tok), amountOut: amt });
      if (first.exitCode === STONFI_SWAP_OK) {
        for (let i = 1; i < actual.length; i++) {
          const p = actual[i]!.payTo;
          if (p.exitCode !== STONFI_SWAP_OK) continue;
          const [a2, t2] = best(p);
          const last = peer[peer.length - 1]!;
          peer.push({ assetIn: last.assetOut, amountIn: last.amountOut, assetOut: hopAsset(t2), amountOut: a2 });
        }
      }
    }
    const extra: Block[] = [];
    const pton = outTransfer.next.find((x) => isCall(x, PTON_TON_TRANSFER)) ?? null;
    let outgoing: DexTransfer;
    const od = outTransfer.data;
    if (pton === null && od.hasInternalTransfer) {
      outgoing = { asset: tonIfPton(od.asset), amount: od.amount, source: od.sender, sourceJettonWallet: od.senderWallet, destination: od.receiver, destinationJettonWallet: od.receiverWallet };
    } else {
      if (pton === null) throw new Error('no pTON payout');
      extra.push(pton);
      outgoing = { asset: null, amount: loadPTonTransfer(pton.body()).tonAmount, source: od.sender, sourceJettonWallet: od.senderWallet, destination: pton.message.destination, destinationJettonWallet: null };
    }
    const nb = new JettonSwapBlock({
      dex: 'stonfi_v2',
      sourceAsset: incoming.asset,
      destinationAsset: outgoing.asset,
      sender,
      incoming,
      outgoing,
      peerSwaps: peer.length <= 1 ? [] : peer,
    });
    nb.mergeBlocks([block, ...others, ...extra]);
    nb.failed = !ok;
    if (!ok) {
      if (destinationAsset !== undefined) nb.data.destinationAsset = destinationAsset;
      else {
        try {
          const prevNode = block.previous?.nodes[0];
          const t = prevNode ? stonfiV2NotifyTarget(prevNode.body()) : null;
          const w = jettonWallet(this.repo, t);
          if (w !== null) nb.data.destinationAsset = w.jetton;
        } catch {
          // No target in the notification.
        }
      }
    }
    return [nb];
  }
}

/** A DeDust pool → pool hop with its log and payout, grouped (TON Center `DedustPeerBlockMatcher`). */
class DedustSwapMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    const swapM = new OrMatcher([
      new OpMatcher(DEDUST_SWAP_PEER, { children: [new OpMatcher(DEDUST_SWAP_NOTIFICATION, { optional: true })] }),
      new OpMatcher(DEDUST_SWAP_EXTERNAL, { children: [new OpMatcher(DEDUST_SWAP_NOTIFICATION, { optional: true })] }),
    ]);
    const peer = new RecursiveMatcher(
      swapM,
      new OpMatcher(DEDUST_PAYOUT_FROM_POOL, { child: new OrMatcher([new OpMatcher(DEDUST_PAYOUT), new TypeMatcher('jetton_transfer')]) }),
    );
    const payout = sequence([new OpMatcher(DEDUST_PAYOUT_FROM_POOL), new OrMatcher([new TypeMatcher('jetton_transfer'), new OpMatcher(DEDUST_PAYOUT)])]);
    super({
      children: [new OrMatcher([payout, peer]), new OpMatcher(DEDUST_SWAP_NOTIFICATION, { optional: true })],
      parent: new OrMatcher([new TypeMatcher('jetton_transfer'), new OpMatcher(DEDUST_SWAP)]),
    });
  }

  override testSelf(b: Block): boolean {
    return isCall(b, DEDUST_SWAP_EXTERNAL);
  }

  private sequenceOut(pools: string[], assetIn: string | null): string | null {
    let prev = assetIn;
    for (const pool of pools) {
      const info = this.repo(pool)?.dedustPool;
      if (!info) throw new Error(`unknown DeDust pool ${pool}`);
      for (const a of info.assets) {
        if (a === null && prev === null) continue;
        if (prev !== null && a === prev) continue;
        prev = a;
        break;
      }
    }
    return prev;
  }

  override build(block: Block, others: Block[]): Block[] | null {
    const include: Block[] = [block];
    for (const b of others) {
      if (b instanceof WrapperBlock) include.push(...b.children);
      else include.push(b);
    }
    const notes = findCalls(include, DEDUST_SWAP_NOTIFICATION).sort((a, b) => (a.minLt < b.minLt ? -1 : a.minLt > b.minLt ? 1 : 0));
    const peer: PeerSwap[] = notes.map((n) => {
      const m = loadDedustSwapNotification(n.body());
      return { assetIn: m.assetIn, amountIn: m.amountIn, assetOut: m.assetOut, amountOut: m.amountOut };
    });
    let sender: string | null = null;
    let senderWallet: string | null = null;
    let dexInJettonWallet: string | null = null;
    let dexInWallet: string | null = null;
    let amountIn: bigint | null = null;
    let assetIn: string | null = null;
    let steps: string[] = [];
    const prev = block.previous;
    if (prev !== null && prev instanceof JettonTransferBlock && others.includes(prev)) {
      const d = prev.data;
      dexInJettonWallet = d.receiverWallet;
      dexInWallet = d.receiver;
      senderWallet = d.senderWallet;
      sender = d.sender;
      assetIn = d.asset;
      if (d.forwardPayload === null) return [];
      const p = bodySlice(d.forwardPayload);
      if (p.remainingBits < 32 || p.loadUint(32) !== DEDUST_SWAP_PAYLOAD) return [];
      amountIn = d.amount;
      steps = loadDedustSteps(p);
    } else {
      const reqs = findCalls(others, DEDUST_SWAP);
      if (reqs.length > 0) {
        sender = reqs[0]!.message.source;
        dexInWallet = reqs[0]!.message.destination;
        const s = reqs[0]!.body();
        s.loadUint(32);
        s.loadUintBig(64);
        amountIn = s.loadCoins();
        steps = loadDedustSteps(s);
        assetIn = null;
      }
    }
    const payouts = findCalls(others, DEDUST_PAYOUT_FROM_POOL);
    if (payouts.length !== 1) throw new Error('expected one payout from pool');
    let receiver = sender;
    let receiverWallet: string | null = null;
    let dexOutJettonWallet: string | null = null;
    let dexOutWallet: string | null = null;
    let actualAmountOut: bigint | null = loadDedustPayoutAmount(payouts[0]!.body());
    let actualAssetOut: string | null = null;
    for (const pb of payouts[0]!.next) {
      if (!include.includes(pb)) continue;
      if (pb instanceof JettonTransferBlock) {
        receiverWallet = pb.data.receiverWallet;
        receiver = pb.data.receiver;
        dexOutWallet = pb.data.sender;
        dexOutJettonWallet = pb.data.senderWallet;
        actualAssetOut = pb.data.asset;
        actualAmountOut = pb.data.amount;
      } else if (isCall(pb, DEDUST_PAYOUT)) {
        dexOutWallet = pb.message.source;
        receiver = pb.message.destination;
        actualAssetOut = null;
      }
    }
    const assetOut = this.sequenceOut(steps, assetIn);
    if (peer.length === 0) peer.push({ assetIn, amountIn, assetOut: actualAssetOut, amountOut: actualAmountOut });
    let failed = false;
    for (const b of [block, ...others]) {
      if (b instanceof CallContractBlock && (b.op === DEDUST_SWAP_EXTERNAL || b.op === DEDUST_SWAP_PEER)) {
        if (!b.next.some((n) => include.includes(n) && isCall(n, DEDUST_SWAP_NOTIFICATION))) {
          failed = true;
          break;
        }
      }
    }
    const first = peer[0]!;
    const last = peer[peer.length - 1]!;
    const nb = new JettonSwapBlock({
      dex: 'dedust',
      sender,
      incoming: { asset: first.assetIn, amount: first.amountIn, source: sender, sourceJettonWallet: senderWallet, destination: dexInWallet, destinationJettonWallet: dexInJettonWallet },
      outgoing: { asset: last.assetOut, amount: last.amountOut, source: dexOutWallet, sourceJettonWallet: dexOutJettonWallet, destination: receiver, destinationJettonWallet: receiverWallet },
      peerSwaps: peer.length > 1 ? peer : [],
      sourceAsset: assetIn,
      destinationAsset: assetOut,
    });
    nb.mergeBlocks(include);
    nb.failed = failed;
    return [nb];
  }
}

function transferJson(t: DexTransfer): Record<string, unknown> {
  return {
    amount: t.amount,
    source: t.source,
    source_jetton_wallet: t.sourceJettonWallet,
    destination: t.destination,
    destination_jetton_wallet: t.destinationJettonWallet,
    asset: t.asset,
  };
}

export function fillJettonSwap(b: Block, row: ActionRow): void {
  const d = b.data as SwapData;
  row.asset = d.incoming.asset;
  row.asset2 = d.outgoing.asset;
  if (d.dex === 'stonfi_v2' || d.dex === 'dedust' || d.dex === 'tonco') {
    row.asset = d.sourceAsset ?? null;
    row.asset2 = d.destinationAsset ?? null;
  }
  row.source = d.incoming.source;
  row.source_secondary = d.incoming.sourceJettonWallet;
  row.destination = d.outgoing.destination;
  row.destination_secondary = d.outgoing.destinationJettonWallet;
  if (d.destinationWallet !== undefined && d.destinationWallet !== null) row.destination_secondary = d.destinationWallet;
  if (d.destinationAsset !== undefined && d.destinationAsset !== null) row.asset2 = d.destinationAsset;
  const swap: Record<string, unknown> = {
    dex: d.dex,
    sender: d.sender,
    dex_incoming_transfer: transferJson(d.incoming),
    dex_outgoing_transfer: transferJson(d.outgoing),
    min_out_amount: d.minOutAmount ?? null,
  };
  if (d.peerSwaps !== null) {
    swap.peer_swaps = d.peerSwaps.map((p) => ({ amount_in: p.amountIn, asset_in: p.assetIn, amount_out: p.amountOut, asset_out: p.assetOut }));
  }
  row.jetton_swap_data = swap;
}

export const swapFamily: Family = {
  matchers: (repo) => [
    [190, new DedustSwapMatcher(repo)],
    [200, new StonfiSwapMatcher(repo)],
    [210, new StonfiV2SwapMatcher(repo)],
  ],
  fillers: [['jetton_swap', fillJettonSwap]],
};

export { findCall };
