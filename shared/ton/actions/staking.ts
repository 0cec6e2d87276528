import { JETTON_BURN, JETTON_BURN_NOTIFICATION, loadJettonBurn } from '../bodies/JettonBurn.js';
import { JETTON_INTERNAL_TRANSFER, loadJettonInternalTransfer } from '../bodies/JettonInternalTransfer.js';
import { JETTON_NOTIFY } from '../bodies/JettonNotify.js';
import {
  NOMINATOR_PROCESS_WITHDRAWS,
  TS_DEPOSIT,
  TS_DISTRIBUTED_ASSET,
  TS_INIT_NFT,
  TS_MINT,
  TS_NFT_BURN,
  TS_NFT_BURN_NOTIFICATION,
  TS_POOL_WITHDRAWAL,
  TS_START_DISTRIBUTION,
  TS_WITHDRAW_REQUEST,
  loadTsNftBurnNotification,
} from '../bodies/Tonstakers.js';
import { Block } from './block.js';
import { CallContractBlock, TonTransferBlock, isCall } from './basic.js';
import type { Family } from './classify.js';
import type { InterfaceRepository } from './interfaces.js';
import { Matcher, OpMatcher, OrMatcher, findCall, getLabeled, labeled } from './matcher.js';
import { NftMintBlock } from './nft.js';

/** Staking: Tonstakers deposits and withdrawals (immediate, requested via NFT, paid out on NFT burn), nominator pools. */

const value = (b: Block): bigint => BigInt(b.message.value ?? 0);

class TsDepositMatcher extends Matcher {
  constructor() {
    super({
      child: new OpMatcher(TS_MINT, { optional: true, child: labeled('transfer', new OpMatcher(JETTON_INTERNAL_TRANSFER, { child: new OpMatcher(JETTON_NOTIFY, { optional: true }) })) }),
    });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, TS_DEPOSIT);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const transfer = getLabeled('transfer', others);
    if (!transfer) throw new Error('Tonstakers deposit without mint');
    const minted = loadJettonInternalTransfer(transfer.body()).amount;
    const failed = block.failed;
    const nb = new Block('tonstakers_deposit', [], {
      userWallet: failed ? null : transfer.message.destination,
      tokensMinted: failed ? null : minted,
      source: block.message.source,
      pool: block.message.destination,
      value: value(block) - 1_000_000_000n,
      asset: transfer.message.source,
    });
    nb.failed = failed;
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

class TsWithdrawMatcher extends Matcher {
  constructor() {
    super({
      child: new OpMatcher(JETTON_BURN_NOTIFICATION, {
        child: labeled(
          'request',
          new OpMatcher(TS_WITHDRAW_REQUEST, {
            child: new OrMatcher([labeled('immediate_withdrawal', new OpMatcher(TS_POOL_WITHDRAWAL)), labeled('delayed_withdrawal', new OpMatcher(TS_MINT))]),
          }),
        ),
      }),
    });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, JETTON_BURN);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const burn = loadJettonBurn(block.body());
    const immediate = getLabeled('immediate_withdrawal', others);
    const delayed = getLabeled('delayed_withdrawal', others);
    const request = getLabeled('request', others)!;
    let failed = block.failed;
    const asset = request.message.source;
    let nb: Block;
    if (immediate) {
      nb = new Block('tonstakers_withdraw', [], {
        holder: block.message.source,
        burntNft: null,
        pool: request.message.destination,
        tokensBurnt: burn.amount,
        amount: value(immediate) - value(immediate.previous!),
        asset,
      });
    } else {
      let mint: Block | null = delayed!.next.find((b) => b instanceof NftMintBlock) ?? null;
      if (mint === null) mint = findCall(delayed!.next, TS_INIT_NFT);
      const minted = mint !== null ? mint.nodes[0]!.message.destination : null;
      if (mint === null) failed = true;
      nb = new Block('tonstakers_withdraw_request', [], {
        source: block.message.source,
        tsWallet: block.message.destination,
        pool: request.message.destination,
        tokensBurnt: burn.amount,
        mintedNft: minted,
        asset,
      });
    }
    nb.failed = failed;
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

class TsDelayedWithdrawalMatcher extends Matcher {
  constructor() {
    super({ parent: new OpMatcher(TS_NFT_BURN_NOTIFICATION, { parent: new OpMatcher(TS_NFT_BURN) }) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, TS_DISTRIBUTED_ASSET);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const notification = block.previous!;
    const n = loadTsNftBurnNotification(notification.body());
    const nb = new Block('tonstakers_withdraw', [], {
      holder: n.owner,
      burntNft: notification.message.source,
      pool: findPool(notification),
      amount: value(block),
      tokensBurnt: n.amount,
      asset: null,
    });
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

function findPool(start: Block): string | null {
  const walk = new Set([TS_NFT_BURN_NOTIFICATION, TS_NFT_BURN, TS_DISTRIBUTED_ASSET]);
  let cur: Block | null = start;
  for (let guard = 0; guard < 64; guard++) {
    cur = cur.previous;
    if (cur === null) return null;
    if (isCall(cur, TS_START_DISTRIBUTION)) return cur.message.source;
    if (cur.type === 'tonstakers_withdraw') return cur.data.pool;
    if (cur instanceof CallContractBlock && cur.op !== null && walk.has(cur.op)) continue;
    return null;
  }
  return null;
}

/** Nominator pool deposit (`d` comment) and withdrawal request (`w`); bounces go with them. */
class NominatorCommentMatcher extends Matcher {
  constructor(
    private readonly repo: InterfaceRepository,
    private readonly comment: 'd' | 'w',
  ) {
    super({ includeBounces: true, preBuildAutoAppend: true });
  }
  override testSelf(b: Block): boolean {
    return b instanceof TonTransferBlock && b.data.comment === this.comment;
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const m = block.message;
    if (!m.destination || !this.repo(m.destination)?.nominatorPool) return [];
    if (this.comment === 'd') {
      const nb = new Block('nominator_pool_deposit', [], { source: m.source, pool: m.destination, value: value(block) });
      nb.failed = block.failed;
      nb.mergeBlocks([block, ...others]);
      return [nb];
    }
    const transfers = block.next.filter((b): b is TonTransferBlock => b instanceof TonTransferBlock);
    const extra: Block[] = [];
    let payout: bigint | null = null;
    if (transfers.length === 1) {
      extra.push(transfers[0]!);
      if ((transfers[0]!.data.value ?? 0n) > value(block)) payout = transfers[0]!.data.value;
    } else if (transfers.length === 2) {
      const first = transfers[0]!.node.lt <= transfers[1]!.node.lt ? transfers[0]! : transfers[1]!;
      extra.push(...transfers);
      payout = first.data.value;
    }
    const nb = new Block('nominator_pool_withdraw_request', [], { source: m.source, pool: m.destination, payout });
    nb.failed = block.failed;
    nb.mergeBlocks([block, ...others, ...extra]);
    return [nb];
  }
}

class NominatorWithdrawMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ includeBounces: true, preBuildAutoAppend: true });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, NOMINATOR_PROCESS_WITHDRAWS);
  }
  override build(block: Block): Block[] | null {
    const pool = block.message.destination;
    if (!pool || !this.repo(pool)?.nominatorPool) return [];
    const out: Block[] = [];
    for (const t of block.next) {
      if (!(t instanceof TonTransferBlock)) continue;
      const nb = new Block('nominator_pool_withdraw_request', [], { source: t.nodes[0]!.message.destination, pool, payout: t.data.value });
      nb.mergeBlocks([t]);
      out.push(nb);
    }
    return out;
  }
}

export const stakingFamily: Family = {
  matchers: (repo) => [
    [20, new TsDelayedWithdrawalMatcher()],
    [50, new TsDepositMatcher()],
    [60, new TsWithdrawMatcher()],
    [120, new NominatorCommentMatcher(repo, 'd')],
    [130, new NominatorCommentMatcher(repo, 'w')],
    [140, new NominatorWithdrawMatcher(repo)],
  ],
  fillers: [
    [
      'tonstakers_deposit',
      (b, row) => {
        const d = b.data;
        row.type = 'stake_deposit';
        row.source = d.source;
        row.destination = d.pool;
        row.amount = d.value;
        row.asset = d.asset;
        row.staking_data = { provider: 'liquid_staking', tokens_minted: d.tokensMinted ?? null };
      },
    ],
    [
      'tonstakers_withdraw_request',
      (b, row) => {
        const d = b.data;
        row.type = 'stake_withdrawal_request';
        row.source = d.source;
        row.source_secondary = d.tsWallet;
        row.destination = d.pool;
        row.amount = d.tokensBurnt;
        row.asset = d.asset;
        row.staking_data = { provider: 'liquid_staking', ts_nft: d.mintedNft };
      },
    ],
    [
      'tonstakers_withdraw',
      (b, row) => {
        const d = b.data;
        row.type = 'stake_withdrawal';
        row.source = d.holder;
        row.destination = d.pool;
        row.amount = d.amount;
        row.staking_data = { provider: 'liquid_staking', ts_nft: d.burntNft, tokens_burnt: d.tokensBurnt ?? null };
        row.asset = d.asset;
      },
    ],
    [
      'nominator_pool_deposit',
      (b, row) => {
        row.type = 'stake_deposit';
        row.source = b.data.source;
        row.destination = b.data.pool;
        row.amount = b.data.value;
        row.staking_data = { provider: 'nominator' };
      },
    ],
    [
      'nominator_pool_withdraw_request',
      (b, row) => {
        if (b.data.payout === null) row.type = 'stake_withdrawal_request';
        else {
          row.type = 'stake_withdrawal';
          row.amount = b.data.payout;
        }
        row.staking_data = { provider: 'nominator' };
        row.source = b.data.source;
        row.destination = b.data.pool;
      },
    ],
  ],
};
