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
  TONCO_POOL_BURN,
  TONCO_POOL_START_BURN,
  TONCO_POSITION_BURN,
  loadToncoPoolBurnIndex,
  loadToncoPositionBurnOwner,
  loadToncoStartBurn,
  TONCO_ACCOUNT_ADD_LIQUIDITY,
  TONCO_POOL_FUND_ACCOUNT,
  TONCO_POOL_MINT_AND_REFUND,
  loadToncoAddLiquidity,
  loadToncoFundPayloadOtherWallet,
  loadToncoPositionInit,
} from '../bodies/ToncoPool.js';
import { loadJettonNotify } from '../bodies/JettonNotify.js';
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

/** A deposit into a TONCO position: the user's transfer funds the account contract, which adds the liquidity. */
class ToncoDepositLiquidityMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    const tonInput = labeled('ton_input', new OpMatcher(JETTON_NOTIFY, { parent: labeled('ton_input_addition', new OpMatcher(PTON_TON_TRANSFER)) }));
    const jettonInput = labeled('jetton_input', new TypeMatcher('jetton_transfer'));
    const output = (): Matcher => new TypeMatcher('jetton_transfer', { optional: true, child: new OpMatcher(PTON_TON_TRANSFER, { optional: true }) });
    const refund = labeled('refund_router_call', new OpMatcher(TONCO_ROUTER_PAY_TO, { optional: true, children: [labeled('excess_transfer_0', output()), labeled('excess_transfer_1', output())] }));
    const mintAndRefund = new OpMatcher(TONCO_POOL_MINT_AND_REFUND, {
      optional: true,
      children: [refund, labeled('nft_mint', new TypeMatcher('nft_mint')), new OpMatcher(EXCESSES, { optional: true })],
    });
    super({ parent: new OpMatcher(TONCO_POOL_FUND_ACCOUNT, { parent: new OrMatcher([tonInput, jettonInput]) }), child: mintAndRefund });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, TONCO_ACCOUNT_ADD_LIQUIDITY);
  }
  private assetOf(wallet: string | null): string | null | undefined {
    const w = jettonWallet(this.repo, wallet);
    if (w === null) return undefined;
    return PTON_MASTERS.has(w.jetton) ? null : w.jetton;
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const extra: Block[] = [];
    const add = loadToncoAddLiquidity(block.body());
    const firstDeposited = add.newAmount0 > 0n;
    let lpTokens: bigint | null = null;
    let nftIndex: bigint | null = null;
    let nftAddress: string | null = null;
    const init = getLabeled('nft_mint', others);
    if (init) {
      const p = loadToncoPositionInit(init.body());
      lpTokens = p.liquidity;
      nftIndex = p.nftIndex;
      nftAddress = init.message.destination;
    }
    const input = getLabeled('ton_input', others) ?? getLabeled('jetton_input', others);
    if (!input) return [];
    const notify = input.type === 'jetton_transfer' ? findCall(input.children, JETTON_NOTIFY) : isCall(input, JETTON_NOTIFY) ? input : null;
    const addition = getLabeled('ton_input_addition', others);
    if (addition) extra.push(addition);
    if (!notify) return [];
    let sent: bigint;
    let sender: string | null;
    let other: string | null;
    try {
      const n = loadJettonNotify(notify.body());
      sent = n.amount;
      sender = n.sender;
      if (!n.forwardPayload || n.forwardPayload.remainingBits < 32 || n.forwardPayload.preloadUint(32) !== TONCO_POOL_FUND_ACCOUNT) return [];
      other = loadToncoFundPayloadOtherWallet(n.forwardPayload);
    } catch {
      return [];
    }
    const senderWallet = input instanceof JettonTransferBlock ? input.data.senderWallet : null;
    const firstA = this.assetOf(notify.message.source);
    const first = firstA === undefined ? null : firstA;
    const second = this.assetOf(other) ?? null;
    const d: Record<string, unknown> = firstDeposited
      ? { amount1: sent, asset1: first, amount2: null, asset2: second, wallet1: senderWallet, wallet2: null }
      : { amount1: null, asset1: second, amount2: sent, asset2: first, wallet1: null, wallet2: senderWallet };
    const excesses: [string | null, bigint][] = [];
    for (const label of ['excess_transfer_0', 'excess_transfer_1']) {
      const e = getLabeled(label, others);
      if (!(e instanceof JettonTransferBlock)) continue;
      const pton = findCall(e.next, PTON_TON_TRANSFER);
      excesses.push(pton ? [null, loadPTonTransfer(pton.body()).tonAmount] : [e.data.asset, e.data.amount]);
    }
    const nb = new Block('tonco_deposit_liquidity', [], {
      ...d,
      sender,
      pool: block.message.source,
      account: block.message.destination,
      position1: add.newEnough0,
      position2: add.newEnough1,
      lpTokens,
      tickLower: add.tickLower,
      tickUpper: add.tickUpper,
      nftIndex,
      nftAddress,
      excesses,
    });
    nb.mergeBlocks([block, ...others, ...extra]);
    return [nb];
  }
}

/** The router's own wTTON wallet: a payout from it is TON. */
const ROUTER_WTTON_WALLET = '0:871DA9215B14902166F0EA2A16DB56278D528108377F8158C5F4CCFDFDD22E17';

interface Payout {
  amount: bigint | null;
  asset: string | null;
  dexWallet: string | null;
  dexJettonWallet: string | null;
  wallet: string | null;
}

/** Liquidity removed from a TONCO position: start_burn → position NFT burn → pool burn → router payouts. */
class ToncoWithdrawLiquidityMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    const output = (): Matcher => new TypeMatcher('jetton_transfer', { optional: true, child: new OpMatcher(PTON_TON_TRANSFER, { optional: true }) });
    const payouts = new OpMatcher(TONCO_ROUTER_PAY_TO, { children: [labeled('payout_1', output()), labeled('payout_2', output())] });
    super({ child: new OpMatcher(TONCO_POSITION_BURN, { child: new OpMatcher(TONCO_POOL_BURN, { child: payouts }) }) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, TONCO_POOL_START_BURN);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const extra: Block[] = [];
    const start = loadToncoStartBurn(block.body());
    let burnedIndex = start.burnedIndex;
    const pool = block.message.destination;
    const positionBurn = findCall(block.next, TONCO_POSITION_BURN);
    if (!positionBurn) return [];
    const sender = loadToncoPositionBurnOwner(positionBurn.body());
    const nftAddress = positionBurn.message.destination;
    const poolBurn = findCall(positionBurn.next, TONCO_POOL_BURN);
    if (!poolBurn) return [];
    try {
      const idx = loadToncoPoolBurnIndex(poolBurn.body());
      if (idx) burnedIndex = idx;
    } catch {
      // Keep the start_burn index.
    }
    const payTo = findCall(poolBurn.next, TONCO_ROUTER_PAY_TO);
    if (!payTo) return [];
    const m = loadToncoPayTo(payTo.body());
    const router = [
      { amount: m.amount0 ?? 0n, wallet: m.jetton0, receiver: m.receiver0 },
      { amount: m.amount1 ?? 0n, wallet: m.jetton1, receiver: m.receiver1 },
    ];
    for (const r of router) {
      if (r.wallet === null) throw new Error('pay_to without a jetton wallet');
      if (r.wallet === ROUTER_WTTON_WALLET) r.wallet = null;
    }
    let processed: Payout[] = [];
    const actual = [getLabeled('payout_1', others), getLabeled('payout_2', others)];
    actual.forEach((p, i) => {
      if (p instanceof JettonTransferBlock) {
        const pton = findCall(p.next, PTON_TON_TRANSFER);
        let amount: bigint;
        let asset: string | null;
        if (pton) {
          amount = loadPTonTransfer(pton.body()).tonAmount;
          asset = null;
          extra.push(pton);
        } else {
          amount = p.data.amount;
          asset = p.data.asset;
        }
        processed.push({ amount, asset, dexWallet: p.data.sender, dexJettonWallet: p.data.senderWallet, wallet: p.data.receiverWallet });
      } else {
        const r = router[i]!;
        let asset: string | null = null;
        const w = jettonWallet(this.repo, r.wallet);
        if (w !== null && !PTON_MASTERS.has(w.jetton)) asset = w.jetton;
        processed.push({ amount: r.amount, asset, dexWallet: payTo.message.source, dexJettonWallet: r.wallet, wallet: r.receiver });
      }
    });
    if (processed[0]!.dexJettonWallet !== router[0]!.wallet) processed = processed.reverse();
    const nb = new Block('tonco_withdraw_liquidity', [], {
      sender,
      pool,
      burnedIndex,
      nftAddress,
      liquidity: start.liquidity,
      tickLower: start.tickLower,
      tickUpper: start.tickUpper,
      p1: processed[0] ?? null,
      p2: processed[1] ?? null,
    });
    const include = [block, ...others, ...extra];
    for (const c of [positionBurn, poolBurn, payTo]) if (!include.includes(c)) include.push(c);
    nb.mergeBlocks([...new Set(include)]);
    nb.failed = m.exitCode !== 0 && m.exitCode !== 201;
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
    [620, new ToncoDepositLiquidityMatcher(repo)],
    [630, new ToncoDeployPoolMatcher()],
    [640, new ToncoWithdrawLiquidityMatcher(repo)],
  ],
  fillers: [
    [
      'tonco_deposit_liquidity',
      (b, row) => {
        const d = b.data;
        row.type = 'dex_deposit_liquidity';
        row.source = d.sender;
        row.source_secondary = d.wallet1 ?? d.wallet2 ?? null;
        row.destination = d.pool;
        row.destination_secondary = d.account;
        const actual: [bigint, string | null][] = [];
        for (const [amt, asset] of [[d.amount1, d.asset1], [d.amount2, d.asset2]] as [bigint | null, string | null][]) if (amt !== null) actual.push([amt, asset]);
        row.dex_deposit_liquidity_data = {
          dex: 'tonco',
          amount1: actual[0]?.[0] ?? null,
          amount2: actual[1]?.[0] ?? null,
          asset1: actual[0]?.[1] ?? null,
          asset2: actual[1]?.[1] ?? null,
          user_jetton_wallet_1: d.wallet1,
          user_jetton_wallet_2: d.wallet2,
          lp_tokens_minted: d.lpTokens,
          tick_lower: d.tickLower,
          tick_upper: d.tickUpper,
          nft_index: d.nftIndex,
          nft_address: d.nftAddress,
          target_amount_1: d.position1,
          target_amount_2: d.position2,
          target_asset_1: d.asset1,
          target_asset_2: d.asset2,
          vault_excesses: (d.excesses as [string | null, bigint][]).map(([asset, amount]) => ({ asset, amount })),
        };
      },
    ],
    [
      'tonco_withdraw_liquidity',
      (b, row) => {
        const d = b.data;
        row.type = 'dex_withdraw_liquidity';
        row.source = d.sender;
        row.source_secondary = null;
        row.destination = d.pool;
        row.asset = null;
        row.dex_withdraw_liquidity_data = {
          dex: 'tonco',
          amount1: d.p1?.amount ?? null,
          amount2: d.p2?.amount ?? null,
          asset1_out: d.p1?.asset ?? null,
          asset2_out: d.p2?.asset ?? null,
          user_jetton_wallet_1: d.p1?.wallet ?? null,
          user_jetton_wallet_2: d.p2?.wallet ?? null,
          dex_jetton_wallet_1: d.p1?.dexJettonWallet ?? null,
          dex_wallet_1: d.p1?.dexWallet ?? null,
          dex_wallet_2: d.p2?.dexWallet ?? null,
          dex_jetton_wallet_2: d.p2?.dexJettonWallet ?? null,
          lp_tokens_burnt: d.liquidity,
          burned_nft_index: d.burnedIndex,
          burned_nft_address: d.nftAddress,
          tick_lower: d.tickLower,
          tick_upper: d.tickUpper,
        };
      },
    ],
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
