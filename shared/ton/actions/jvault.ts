import {
  JVAULT_CLAIM,
  JVAULT_RECEIVE_JETTONS,
  JVAULT_REQUEST_UPDATE_REFERRER,
  JVAULT_REQUEST_UPDATE_REWARDS,
  JVAULT_SEND_CLAIMED_REWARDS,
  JVAULT_SET_DATA,
  JVAULT_STAKE_CANCELLED,
  JVAULT_UNSTAKE_JETTONS,
  JVAULT_UNSTAKE_REQUEST,
  JVAULT_UPDATE_REFERRER,
  JVAULT_UPDATE_REWARDS,
  loadJVaultClaim,
  loadJVaultUnstakeAmount,
} from '../bodies/JVault.js';
import { bodySlice, loadAddr } from '../bodies/cell.js';
import { Block } from './block.js';
import { isCall } from './basic.js';
import type { Family } from './classify.js';
import { type InterfaceRepository, jettonWallet } from './interfaces.js';
import { JettonTransferBlock } from './jettons.js';
import { Matcher, OpMatcher, OrMatcher, RecursiveMatcher, TypeMatcher, getLabeled, labeled } from './matcher.js';

/** JVault staking: stake (a jetton transfer to the pool), unstake, unstake request, reward claim. */

/** Pool, staked jetton and JVault (stake) jetton of a stake wallet, from the recorded account data. */
function jvaultAssets(repo: InterfaceRepository, stakeWallet: string | null): [string | null, string | null, string | null] {
  try {
    if (!stakeWallet) return [null, null, null];
    const extra = repo(stakeWallet)?.extra?.data_boc;
    if (!extra) return [null, null, null];
    const s = bodySlice(String(extra.data_boc));
    const pool = loadAddr(s);
    const minter = loadAddr(s);
    const poolExtra = pool ? repo(pool)?.extra?.data_boc : undefined;
    if (!poolExtra) return [pool, null, minter];
    const lock = jettonWallet(repo, String(poolExtra.lock_wallet_address));
    if (lock === null) return [null, null, null];
    return [pool, lock.jetton, minter];
  } catch {
    return [null, null, null];
  }
}


function referralChain(): Matcher {
  const sub = new RecursiveMatcher(new OpMatcher(JVAULT_REQUEST_UPDATE_REFERRER), new OpMatcher(JVAULT_UPDATE_REFERRER), true);
  return new RecursiveMatcher(sub, null, true);
}

const updateRewards = (): Matcher => labeled('update_rewards_on_stake_wallet', new OpMatcher(JVAULT_UPDATE_REWARDS));

class JVaultStakeMatcher extends Matcher {
  constructor() {
    const requestUpdate = labeled('request_update_rewards_from_pool', new OpMatcher(JVAULT_REQUEST_UPDATE_REWARDS, { children: [referralChain(), updateRewards()] }));
    const cancellation = labeled('cancellation', new OpMatcher(JVAULT_STAKE_CANCELLED, { child: new TypeMatcher('jetton_transfer', { optional: true }) }));
    const received = labeled('receive_stake_jettons_on_stake_wallet', new OpMatcher(JVAULT_RECEIVE_JETTONS, { child: new OrMatcher([requestUpdate, cancellation]) }));
    super({ children: [received, new OpMatcher(JVAULT_SET_DATA, { optional: true })] });
  }
  override testSelf(b: Block): boolean {
    return b instanceof JettonTransferBlock;
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const t = block as JettonTransferBlock;
    const p = bodySlice(t.msg.forwardPayload!);
    p.loadUint(32);
    const period = p.loadUint(32);
    const receive = getLabeled('receive_stake_jettons_on_stake_wallet', others);
    if (!receive) return [];
    let failed = receive.failed;
    const cancellation = getLabeled('cancellation', others);
    const request = getLabeled('request_update_rewards_from_pool', others);
    if (cancellation) failed = true;
    else if (request) failed = failed || request.failed;
    else return [];
    const nb = new Block('jvault_stake', [], {
      sender: t.data.sender,
      stakeWallet: receive.message.destination,
      senderWallet: t.data.senderWallet,
      asset: t.data.asset,
      pool: receive.message.source,
      amount: t.msg.amount,
      period,
    });
    nb.failed = failed;
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

class JVaultUnstakeMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({
      child: labeled(
        'request_update_rewards_from_pool',
        new OpMatcher(JVAULT_REQUEST_UPDATE_REWARDS, {
          optional: true,
          children: [
            referralChain(),
            labeled('unstake_fee', new TypeMatcher('ton_transfer', { optional: true })),
            labeled('withdraw_unstaked_jettons', new TypeMatcher('jetton_transfer')),
            updateRewards(),
          ],
        }),
      ),
    });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, JVAULT_UNSTAKE_JETTONS);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const amount = loadJVaultUnstakeAmount(block.body());
    const stakeWallet = block.message.destination;
    const transfer = getLabeled('withdraw_unstaked_jettons', others);
    const [pool, asset, jvaultAsset] = jvaultAssets(this.repo, stakeWallet);
    if (pool === null || asset === null) return [];
    const request = getLabeled('request_update_rewards_from_pool', others);
    let data: Record<string, unknown>;
    if (!request || !(transfer instanceof JettonTransferBlock)) {
      data = { sender: block.message.source, stakeWallet, pool, amount, asset, jvaultAsset, exitCode: block.node.tx.compute_exit_code };
    } else {
      if (asset !== transfer.data.asset) throw new Error('JVault unstake asset mismatch');
      data = { sender: block.message.source, stakeWallet, pool: request.message.destination, amount, asset: transfer.data.asset, jvaultAsset, exitCode: null };
    }
    const nb = new Block('jvault_unstake', [], data);
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

class JVaultClaimMatcher extends Matcher {
  constructor() {
    super({
      child: labeled(
        'send_claimed_rewards',
        new OpMatcher(JVAULT_SEND_CLAIMED_REWARDS, { children: [labeled('withdraw_claimed_jettons', new TypeMatcher('jetton_transfer')), updateRewards()] }),
      ),
    });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, JVAULT_CLAIM);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const info = loadJVaultClaim(block.body());
    const withdrawal = getLabeled('withdraw_claimed_jettons', others);
    const send = getLabeled('send_claimed_rewards', others);
    if (!(withdrawal instanceof JettonTransferBlock) || !send) return [];
    const nb = new Block('jvault_claim', [], {
      sender: block.message.source,
      stakeWallet: block.message.destination,
      pool: send.message.destination,
      claimedJettons: info.jettons,
      claimedAmounts: [withdrawal.msg.amount],
    });
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

class JVaultUnstakeRequestMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({
      child: labeled('request_update_rewards_from_pool', new OpMatcher(JVAULT_REQUEST_UPDATE_REWARDS, { optional: true, children: [referralChain(), updateRewards()] })),
    });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, JVAULT_UNSTAKE_REQUEST);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const amount = loadJVaultUnstakeAmount(block.body());
    const stakeWallet = block.message.destination;
    const request = getLabeled('request_update_rewards_from_pool', others);
    if (!request) {
      const [pool, asset, jvaultAsset] = jvaultAssets(this.repo, stakeWallet);
      if (pool === null || asset === null) return [];
      const nb = new Block('jvault_unstake_request', [], { sender: block.message.source, stakeWallet, pool, amount, asset, jvaultAsset, exitCode: block.node.tx.compute_exit_code });
      nb.failed = true;
      nb.mergeBlocks([block, ...others]);
      return [nb];
    }
    const [, asset, jvaultAsset] = jvaultAssets(this.repo, stakeWallet);
    const nb = new Block('jvault_unstake_request', [], { sender: block.message.source, stakeWallet, pool: request.message.destination, amount, asset, jvaultAsset, exitCode: null });
    nb.failed = block.failed || request.failed;
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

const fillUnstake = (b: Block, row: import('./row.js').ActionRow): void => {
  const d = b.data;
  row.source = d.sender;
  row.source_secondary = d.stakeWallet;
  row.destination = d.pool;
  row.amount = d.amount;
  row.opcode = d.exitCode ?? null;
  row.asset = d.asset ?? null;
  row.asset2 = d.jvaultAsset ?? null;
};

export const jvaultFamily: Family = {
  matchers: (repo) => [
    [480, new JVaultStakeMatcher()],
    [490, new JVaultUnstakeMatcher(repo)],
    [500, new JVaultClaimMatcher()],
    [510, new JVaultUnstakeRequestMatcher(repo)],
  ],
  fillers: [
    [
      'jvault_stake',
      (b, row) => {
        const d = b.data;
        row.source = d.sender;
        row.source_secondary = d.senderWallet;
        row.asset = d.asset;
        row.destination = d.pool;
        row.amount = d.amount;
        row.jvault_stake_data = { period: BigInt(d.period), stake_wallet: d.stakeWallet };
      },
    ],
    ['jvault_unstake', fillUnstake],
    ['jvault_unstake_request', fillUnstake],
    [
      'jvault_claim',
      (b, row) => {
        const d = b.data;
        row.source = d.sender;
        row.source_secondary = d.stakeWallet;
        row.destination = d.pool;
        row.jvault_claim_data = { claimed_jettons: d.claimedJettons, claimed_amounts: d.claimedAmounts };
      },
    ],
  ],
};
