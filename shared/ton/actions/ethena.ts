import { JETTON_INTERNAL_TRANSFER, loadJettonInternalTransfer } from '../bodies/JettonInternalTransfer.js';
import { JETTON_MINT } from '../bodies/JettonMint.js';
import { JETTON_NOTIFY } from '../bodies/JettonNotify.js';
import { JETTON_TRANSFER } from '../bodies/JettonTransfer.js';
import { Block } from './block.js';
import { isCall } from './basic.js';
import type { Family } from './classify.js';
import { type InterfaceRepository, jettonWallet } from './interfaces.js';
import { JettonTransferBlock } from './jettons.js';
import { Matcher, OpMatcher, TypeMatcher, getLabeled, labeled, sequence } from './matcher.js';

/**
 * Ethena staking on TON: USDe staked for tsUSDe (a USDe transfer answered by a tsUSDe mint), and the unstaking
 * request (tsUSDe sent back, USDe minted to a timelocked wallet `#b2583ed5`).
 */
const USDE = '0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC';
const TSUSDE = '0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D';
const TIMELOCKED_TRANSFER = 0xb2583ed5;

class EthenaWithdrawalRequestMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({
      child: sequence([
        labeled('internal_transfer', new OpMatcher(JETTON_INTERNAL_TRANSFER)),
        new OpMatcher(JETTON_NOTIFY),
        labeled('mint', new OpMatcher(JETTON_MINT)),
        labeled('ts_usde_transfer', new OpMatcher(TIMELOCKED_TRANSFER)),
      ]),
    });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, JETTON_TRANSFER);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const internal = getLabeled('internal_transfer', others)!;
    const ts = getLabeled('ts_usde_transfer', others)!;
    const mint = getLabeled('mint', others)!;
    const source = block.message.source;
    const sourceWallet = jettonWallet(this.repo, block.message.destination);
    const receiverWallet = jettonWallet(this.repo, ts.message.destination);
    if (sourceWallet === null || receiverWallet === null) throw new Error('unknown wallets');
    if (sourceWallet.owner !== source || receiverWallet.owner !== source || sourceWallet.jetton !== internal.message.destination || receiverWallet.jetton !== ts.message.source) return [];
    const nb = new Block('ethena_withdrawal_request', [], {
      amount: loadJettonInternalTransfer(internal.body()).amount,
      tsAmount: loadJettonInternalTransfer(ts.body()).amount,
      source,
      sourceWallet: block.message.destination,
      asset: sourceWallet.jetton,
      pool: mint.message.source,
    });
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

class EthenaDepositMatcher extends Matcher {
  constructor() {
    super({ child: new TypeMatcher('jetton_mint') });
  }
  override testSelf(b: Block): boolean {
    return b instanceof JettonTransferBlock;
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const t = block as JettonTransferBlock;
    const mint = others.find((o) => o.type === 'jetton_mint');
    if (!mint) return [];
    if (t.data.asset !== USDE || mint.data.asset !== TSUSDE) return [];
    const nb = new Block('ethena_deposit', [], {
      source: t.data.sender,
      userWallet: t.data.senderWallet,
      pool: t.data.receiver,
      value: t.data.amount,
      tokensMinted: mint.data.amount,
      asset: mint.data.asset,
      sourceAsset: t.data.asset,
    });
    nb.mergeBlocks([t, mint]);
    return [nb];
  }
}

export const ethenaFamily: Family = {
  matchers: (repo) => [
    [430, new EthenaWithdrawalRequestMatcher(repo)],
    [450, new EthenaDepositMatcher()],
  ],
  fillers: [
    [
      'ethena_withdrawal_request',
      (b, row) => {
        const d = b.data;
        row.type = 'stake_withdrawal_request';
        row.source = d.source;
        row.source_secondary = d.sourceWallet;
        row.destination = d.pool;
        row.asset = d.asset;
        row.amount = d.amount;
        row.staking_data = { provider: 'ethena', tokens_minted: d.tsAmount };
      },
    ],
    [
      'ethena_deposit',
      (b, row) => {
        const d = b.data;
        row.type = 'stake_deposit';
        row.source = d.source;
        row.source_secondary = d.userWallet;
        row.destination = d.pool;
        row.amount = d.value;
        row.asset = d.asset;
        row.asset2 = d.sourceAsset;
        row.staking_data = { provider: 'ethena', tokens_minted: d.tokensMinted ?? null };
      },
    ],
  ],
};
