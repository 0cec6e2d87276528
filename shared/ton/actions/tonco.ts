import {
  TONCO_POOL_INIT,
  TONCO_POOL_SWAP,
  TONCO_ROUTER_CREATE_POOL,
  TONCO_ROUTER_PAY_TO,
  type ToncoPayTo,
  loadToncoCreatePool,
  loadToncoPayTo,
  loadToncoPoolInitActive,
  loadToncoPoolSwap,
  toncoSwapTargets,
} from '../bodies/ToncoPool.js';
import { JETTON_NOTIFY } from '../bodies/JettonNotify.js';
import { JETTON_TRANSFER } from '../bodies/JettonTransfer.js';
import { PTON_TON_TRANSFER, loadPTonTransfer } from '../bodies/StonfiV2Swap.js';
import type { Slice } from '../boc/slice.js';
import { Block, LabelBlock } from './block.js';
import { isCall } from './basic.js';
import type { Family } from './classify.js';
import { type InterfaceRepository, jettonWallet } from './interfaces.js';
import { JettonTransferBlock, PTON_MASTERS } from './jettons.js';
import { EXCESSES, Matcher, OpMatcher, OrMatcher, TypeMatcher, findCall, getLabeled, labeled } from './matcher.js';
import { type DexTransfer, JettonSwapBlock, type PeerSwap } from './swaps.js';

/**
 * TONCO: pool deployment (router create_pool → pool init) and swaps (swap → pay_to → transfer out; a multi-hop
 * swap sends the intermediate tokens from the router to itself, as a jetton or through pTON, into the next swap).
 */
const TON = 'TON';
const tonIfPton = (jetton: string | null): string => (jetton === null || PTON_MASTERS.has(jetton) ? TON : jetton);
const out = (a: string | null | undefined): string | null => (a === undefined || a === null || a === TON ? null : a);
const byLt = (a: Block, b: Block): number => (a.minLt < b.minLt ? -1 : a.minLt > b.minLt ? 1 : 0);

class ToncoSwapMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    const inPton = new OpMatcher(JETTON_NOTIFY, { parent: labeled('in_transfer', new OpMatcher(PTON_TON_TRANSFER)) });
    const inTransfer = new OrMatcher([labeled('in_transfer', new TypeMatcher('jetton_transfer')), inPton]);
    const peerSwap = labeled('peer_swap', new OpMatcher(TONCO_POOL_SWAP));
    const hopTrigger = labeled('intermediate_hop_trigger', new OpMatcher(JETTON_NOTIFY, { child: peerSwap }));
    const outOptions = new OrMatcher([
      labeled('intermediate_transfer', new TypeMatcher('jetton_transfer', { child: new OpMatcher(PTON_TON_TRANSFER, { child: hopTrigger }) })),
      labeled('intermediate_transfer', new TypeMatcher('jetton_transfer', { child: peerSwap })),
      labeled('out_transfer', new OpMatcher(JETTON_TRANSFER, { optional: true, child: new OpMatcher(PTON_TON_TRANSFER) })),
      labeled('out_transfer', new TypeMatcher('jetton_transfer', { optional: true })),
    ]);
    const payout = labeled('payout', new OpMatcher(TONCO_ROUTER_PAY_TO, { child: outOptions }));
    peerSwap.child = payout;
    super({ parent: inTransfer, child: payout });
  }

  override testSelf(b: Block): boolean {
    return isCall(b, TONCO_POOL_SWAP);
  }

  private assetOfWallet(w: string | null): string | undefined {
    const info = jettonWallet(this.repo, w);
    return info === null ? undefined : tonIfPton(info.jetton);
  }

  override build(block: Block, others: Block[]): Block[] | null {
    const sorted = [...others].sort(byLt);
    let inT: Block | null = null;
    const payouts: Block[] = [];
    const swaps: Block[] = [];
    const outs: Block[] = [];
    const inters: Block[] = [];
    const triggers: Block[] = [];
    for (const b of sorted) {
      if (!(b instanceof LabelBlock)) continue;
      if (b.label === 'in_transfer') inT = b.block;
      else if (b.label === 'peer_swap') swaps.push(b.block);
      else if (b.label === 'payout') payouts.push(b.block);
      else if (b.label === 'out_transfer') outs.push(b.block);
      else if (b.label === 'intermediate_transfer') inters.push(b.block);
      else if (b.label === 'intermediate_hop_trigger') triggers.push(b.block);
    }
    swaps.unshift(block);
    const allSwaps = [...swaps].sort(byLt);
    const allPayouts = [...payouts].sort(byLt);
    if (inT === null || allSwaps.length !== allPayouts.length) return [];
    let ok = true;
    const steps: { lt: bigint; payTo: ToncoPayTo }[] = [];
    const walletAsset = new Map<string, string>();
    allSwaps.forEach((swapBlock, i) => {
      try {
        const swap = loadToncoPoolSwap(swapBlock.body());
        const payTo = loadToncoPayTo(allPayouts[i]!.body());
        if (payTo.exitCode !== 0 && payTo.exitCode !== 200) ok = false;
        steps.push({ lt: swapBlock.minLt, payTo });
        const w = swap.sourceWallet ?? '';
        if (!walletAsset.has(w)) {
          const a = this.assetOfWallet(swap.sourceWallet);
          if (a !== undefined) walletAsset.set(w, a);
        }
      } catch {
        ok = false;
      }
    });
    steps.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
    let sender: string | null;
    let incoming: DexTransfer;
    let inPayload: Slice | null = null;
    if (inT instanceof JettonTransferBlock) {
      const d = inT.data;
      sender = d.sender;
      incoming = { asset: tonIfPton(d.asset), amount: d.amount, source: d.sender, sourceJettonWallet: d.senderWallet, destination: d.receiver, destinationJettonWallet: d.receiverWallet };
    } else {
      const m = inT.message;
      let amount = m.value === null ? 0n : BigInt(m.value);
      if (inT.node.opcode === PTON_TON_TRANSFER) {
        const p = loadPTonTransfer(inT.body());
        amount = p.tonAmount;
        inPayload = p.forwardPayload;
      }
      sender = m.source;
      incoming = { asset: TON, amount, source: m.source, sourceJettonWallet: null, destination: block.message.source, destinationJettonWallet: m.destination };
    }
    const outT = outs[outs.length - 1];
    if (!outT) return [];
    const extra: Block[] = [];
    const pton = findCall(outT.next, PTON_TON_TRANSFER);
    if (pton) extra.push(pton);
    if (!(outT instanceof JettonTransferBlock)) return [];
    const od = outT.data;
    const outAsset = tonIfPton(od.asset);
    if (od.receiverWallet) walletAsset.set(od.receiverWallet, outAsset);
    if (od.senderWallet) walletAsset.set(od.senderWallet, outAsset);
    const outgoing: DexTransfer = { asset: outAsset, amount: od.amount, source: od.sender, sourceJettonWallet: od.senderWallet, destination: od.receiver, destinationJettonWallet: od.receiverWallet };
    for (const t of inters) {
      if (!(t instanceof JettonTransferBlock)) continue;
      const p = findCall(t.next, PTON_TON_TRANSFER);
      if (p) extra.push(p);
    }
    const peers: PeerSwap[] = [];
    if (steps.length > 1) {
      const best = (p: ToncoPayTo): [bigint, string] | null => {
        const assets: [bigint, string][] = [];
        if (p.amount0 !== null && p.jetton0 !== null) assets.push([p.amount0, p.jetton0]);
        if (p.amount1 !== null && p.jetton1 !== null) assets.push([p.amount1, p.jetton1]);
        assets.sort((a, b) => (b[0] > a[0] ? 1 : b[0] < a[0] ? -1 : 0));
        return assets[0] ?? null;
      };
      const first = best(steps[0]!.payTo);
      if (first) {
        const firstOut = walletAsset.get(first[1]);
        if (firstOut !== undefined) {
          peers.push({ assetIn: incoming.asset, amountIn: incoming.amount, assetOut: firstOut, amountOut: first[0] });
          for (const step of steps.slice(1)) {
            if (step.payTo.exitCode !== 0 && step.payTo.exitCode !== 200) continue;
            const nxt = best(step.payTo);
            if (!nxt) continue;
            const prev = peers[peers.length - 1]!;
            peers.push({ assetIn: prev.assetOut, amountIn: prev.amountOut, assetOut: walletAsset.get(nxt[1]) ?? TON, amountOut: nxt[0] });
          }
        }
      }
    }
    let destinationAsset = outAsset;
    let minOut: bigint | null = od.amount;
    if (!ok && steps.length > 0 && inPayload !== null) {
      try {
        const targets = toncoSwapTargets(inPayload);
        const last = targets[targets.length - 1];
        if (last && last[0]) {
          const target = walletAsset.get(last[0]) ?? this.assetOfWallet(last[0]);
          if (target !== undefined) {
            destinationAsset = target;
            minOut = last[1];
          }
        }
      } catch {
        // No readable target in the payload.
      }
    }
    const toRow = (t: DexTransfer): DexTransfer => ({ ...t, asset: out(t.asset) });
    const nb = new JettonSwapBlock({
      dex: 'tonco',
      sourceAsset: out(incoming.asset),
      destinationAsset: out(destinationAsset),
      sender,
      incoming: toRow(incoming),
      outgoing: toRow(outgoing),
      peerSwaps: peers.map((p) => ({ ...p, assetIn: out(p.assetIn), assetOut: out(p.assetOut) })),
      minOutAmount: minOut,
    });
    const include = [block, ...others, ...extra];
    for (const b of [...swaps, ...payouts, ...outs, ...inters, ...triggers, inT]) if (!include.includes(b)) include.push(b);
    nb.mergeBlocks(include);
    nb.failed = !ok;
    return [nb];
  }
}

/** TONCO: pool deployment (router create_pool → pool init). */
class ToncoDeployPoolMatcher extends Matcher {
  constructor() {
    super({ child: labeled('init_pool', new OpMatcher(TONCO_POOL_INIT, { child: labeled('excesses', new OpMatcher(EXCESSES, { optional: true })) })) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, TONCO_ROUTER_CREATE_POOL);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const c = loadToncoCreatePool(block.body());
    const init = getLabeled('init_pool', others);
    if (!init) return [];
    const active = loadToncoPoolInitActive(init.body());
    const excesses = getLabeled('excesses', others);
    const nb = new Block('tonco_deploy_pool', [], {
      deployer: block.message.source,
      router: block.message.destination,
      pool: init.message.destination,
      ...c,
      poolActive: active,
    });
    nb.mergeBlocks(excesses ? [block, init, excesses] : [block, init]);
    return [nb];
  }
}

export const toncoFamily: Family = {
  matchers: (repo) => [
    [220, new ToncoSwapMatcher(repo)],
    [630, new ToncoDeployPoolMatcher()],
  ],
  fillers: [
    [
      'tonco_deploy_pool',
      (b, row) => {
        const d = b.data;
        row.success = true;
        row.source = d.deployer;
        row.destination = d.router;
        row.destination_secondary = d.pool;
        row.tonco_deploy_pool_data = {
          jetton0_router_wallet: d.wallet0,
          jetton1_router_wallet: d.wallet1,
          jetton0_minter: d.minter0,
          jetton1_minter: d.minter1,
          tick_spacing: d.tickSpacing,
          initial_price_x96: d.initialPriceX96,
          protocol_fee: d.protocolFee,
          lp_fee_base: d.lpFeeBase,
          lp_fee_current: d.lpFeeCurrent,
          pool_active: d.poolActive,
        };
      },
    ],
  ],
};
