import { AUCTION_FILL_UP } from '../bodies/Auction.js';
import { NFT_OWNERSHIP_ASSIGNED, loadNftOwnershipAssigned } from '../bodies/NftOwnershipAssigned.js';
import { NFT_GET_STATIC_DATA, NFT_REPORT_STATIC_DATA, loadNftReportStaticData } from '../bodies/NftStaticData.js';
import { NFT_TRANSFER, loadNftTransfer } from '../bodies/NftTransfer.js';
import { Block } from './block.js';
import { CallContractBlock, TonTransferBlock, isCall } from './basic.js';
import type { Family } from './classify.js';
import { type InterfaceRepository, nftItem } from './interfaces.js';
import { EXCESSES, Matcher, OpMatcher, OrMatcher, findCalls, getLabeled, labeled } from './matcher.js';
import type { ActionRow } from './row.js';

/**
 * NFTs (TEP-62): mints (a deployment of a known NFT item), transfers (transfer → ownership_assigned / excesses),
 * Getgems sales and auctions seen as purchases, Fragment (Telegram) auction purchases seen from
 * ownership_assigned with a bid, and static-data discovery.
 */
const TELEMINT_DEPLOY = 0x299a3e15;

interface NftRef {
  address: string;
  index: bigint | null;
  collection: string | null;
}

function nftData(repo: InterfaceRepository, address: string): NftRef | null {
  const item = nftItem(repo, address);
  if (item === null) return null;
  return { address, index: item.index, collection: item.collection };
}

export class NftMintBlock extends Block {}

class NftMintMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super();
  }
  override testSelf(b: Block): boolean {
    return b.deployments.length === 1;
  }
  override build(block: Block): Block[] | null {
    const address = block.deployments[0]!;
    const item = nftItem(this.repo, address);
    if (item === null) return [];
    const nb = new NftMintBlock('nft_mint', [], {
      source: block.message.source,
      address,
      index: item.index,
      opcode: block.node.opcode,
      collection: item.collection,
    });
    nb.mergeBlocks([block]);
    return [nb];
  }
}

/** Sale/auction contract that sent the NFT, when the transfer was a marketplace purchase. */
function purchaseData(repo: InterfaceRepository, block: Block, owner: string | null): Record<string, any> | null {
  const prev = block.previous!;
  const node = prev.nodes[0];
  if (!node) return null;
  const account = node.tx.account;
  if (prev instanceof TonTransferBlock && owner !== null && node.message.source?.toUpperCase() === owner.toUpperCase()) {
    const sale = repo(account)?.nftSale;
    if (sale) return { marketplaceAddress: sale.marketplace, nftAddress: sale.nft, price: sale.fullPrice, realPrevOwner: sale.owner };
  }
  const auction = repo(account)?.nftAuction;
  if (auction) return { marketplaceAddress: auction.marketplace, nftAddress: auction.nft, price: auction.fullPrice, realPrevOwner: auction.owner };
  return null;
}

export class NftTransferMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ child: new OrMatcher([new OpMatcher(NFT_OWNERSHIP_ASSIGNED, { optional: true }), new OpMatcher(EXCESSES, { optional: true })], true) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, NFT_TRANSFER);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const msg = loadNftTransfer(block.body());
    const assigned = findCalls(others, NFT_OWNERSHIP_ASSIGNED);
    const data: Record<string, any> = {
      isPurchase: false,
      prevOwner: assigned.length > 0 ? loadNftOwnershipAssigned(assigned[0]!.body()).prevOwner : block.message.source,
      queryId: msg.queryId,
      forwardAmount: msg.forwardAmount,
      responseDestination: msg.responseDestination,
      customPayload: msg.customPayload,
      forwardPayload: msg.forwardPayload,
      newOwner: msg.newOwner,
      nft: nftData(this.repo, block.node.tx.account),
    };
    if (data.nft === null) return [];
    const include: Block[] = [block];
    if (block.previous !== null) {
      const p = purchaseData(this.repo, block, msg.newOwner);
      if (p !== null && p.nftAddress === data.nft.address && p.realPrevOwner !== data.newOwner) {
        data.isPurchase = true;
        data.marketplace = 'getgems';
        data.marketplaceAddress = p.marketplaceAddress;
        data.price = p.price;
        data.realPrevOwner = p.realPrevOwner;
        const prev = block.previous;
        if (prev instanceof TonTransferBlock) {
          if (prev.data.comment !== 'finish' && prev.data.comment !== 'stop') include.push(prev);
        } else if (prev instanceof CallContractBlock && prev.message.source === null) include.push(prev);
      }
    }
    const nb = new Block('nft_transfer', []);
    nb.mergeBlocks([...include, ...others]);
    nb.data = data;
    nb.failed = block.failed;
    return [nb];
  }
}

/** A Fragment item changing hands at the end of its auction: seen from ownership_assigned with a bid. */
class TelegramNftPurchaseMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super();
  }
  override testSelf(b: Block): boolean {
    return isCall(b, NFT_OWNERSHIP_ASSIGNED);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const msg = loadNftOwnershipAssigned(block.body());
    const data: Record<string, any> = {
      isPurchase: false,
      newOwner: block.message.destination,
      prevOwner: msg.prevOwner,
      queryId: msg.queryId,
      forwardAmount: null,
      responseDestination: null,
      customPayload: null,
      forwardPayload: msg.payload,
      nft: nftData(this.repo, block.message.source ?? ''),
    };
    if (data.nft === null) return [];
    const include: Block[] = [block];
    if (msg.bid !== null) {
      data.isPurchase = true;
      data.price = msg.bid.amount;
      data.marketplace = 'fragment';
      data.realPrevOwner = null;
      const prev = block.previous;
      if ((prev instanceof CallContractBlock && prev.op === TELEMINT_DEPLOY) || prev instanceof NftMintBlock) data.isPurchase = false;
      if (prev instanceof TonTransferBlock || (prev instanceof CallContractBlock && prev.message.source === null)) {
        const payouts = findCalls(prev.next, AUCTION_FILL_UP).sort((a, b) => (a.node.lt < b.node.lt ? -1 : a.node.lt > b.node.lt ? 1 : 0));
        if (payouts.length > 1) {
          data.royaltyAmount = payouts[0]!.data.value;
          data.payoutAmount = payouts[1]!.data.value;
          data.royaltyAddress = payouts[0]!.message.destination;
          data.payoutAddress = payouts[1]!.message.destination;
        } else if (payouts.length === 1) {
          data.payoutAddress = payouts[0]!.message.destination;
          data.payoutAmount = payouts[0]!.data.value;
        }
        include.push(...payouts, prev);
      }
    }
    const nb = new Block('nft_transfer', []);
    nb.mergeBlocks([...include, ...others]);
    nb.data = data;
    return [nb];
  }
}

/** The purchase around a Getgems sale: the transfer plus the TON paid to the seller. */
class GetgemsNftPurchaseMatcher extends Matcher {
  override testSelf(b: Block): boolean {
    return b.type === 'nft_transfer' && b.data.isPurchase === true && b.data.marketplace === 'getgems';
  }
  override build(block: Block): Block[] | null {
    const d = block.data;
    if (d.realPrevOwner === null || d.realPrevOwner === undefined) return [];
    const include: Block[] = [block];
    let candidates = block.next;
    let needProxy = false;
    const prev = block.previous;
    if (prev instanceof TonTransferBlock && (prev.data.comment === 'finish' || prev.data.comment === 'stop')) {
      candidates = prev.next;
      needProxy = true;
    }
    const payout = candidates.find((n) => n.type === 'ton_transfer' && n.message.destination === d.realPrevOwner) as TonTransferBlock | undefined;
    if (!payout) return [];
    include.push(payout);
    const data = {
      nftAddress: d.nft.address,
      collection: d.nft.collection,
      index: d.nft.index,
      prevOwner: d.prevOwner,
      newOwner: d.newOwner,
      queryId: d.queryId,
      forwardAmount: d.forwardAmount,
      responseDestination: d.responseDestination,
      customPayload: d.customPayload,
      forwardPayload: d.forwardPayload,
      payoutAmount: payout.data.value,
      payoutCommentEncrypted: payout.data.encrypted,
      payoutCommentEncoded: payout.data.comment !== null && payout.data.encrypted,
      payoutComment: payout.data.comment,
      price: d.price,
      realPrevOwner: d.realPrevOwner,
      marketplace: d.marketplace,
      marketplaceAddress: d.marketplaceAddress,
    };
    if (needProxy) {
      const proxy = new Block('empty', []);
      prev!.insertBetween([block, payout], proxy);
      include.push(proxy);
    }
    const nb = new Block('nft_purchase', [], data);
    nb.mergeBlocks(include);
    return [nb];
  }
}

class NftDiscoveryMatcher extends Matcher {
  constructor() {
    super({ child: labeled('report', new OpMatcher(NFT_REPORT_STATIC_DATA)) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, NFT_GET_STATIC_DATA);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const report = getLabeled('report', others);
    if (!report) return [];
    const r = loadNftReportStaticData(report.body());
    const nb = new Block('nft_discovery', [], { sender: block.message.source, nft: block.message.destination, collection: r.collection, index: r.index, queryId: r.queryId });
    nb.mergeBlocks([block, report]);
    return [nb];
  }
}

function fillNftTransfer(b: Block, row: ActionRow): void {
  const d = b.data;
  if (d.prevOwner !== null && d.prevOwner !== undefined) row.source = d.prevOwner;
  row.destination = d.newOwner;
  row.asset_secondary = d.nft.address;
  row.asset = d.nft.collection;
  row.nft_transfer_data = {
    query_id: d.queryId,
    is_purchase: d.isPurchase,
    price: d.isPurchase && d.price !== undefined ? d.price : null,
    nft_item_index: d.nft.index,
    forward_amount: d.forwardAmount ?? null,
    custom_payload: d.customPayload,
    forward_payload: d.forwardPayload,
    response_destination: d.responseDestination ?? null,
    marketplace: d.marketplace ?? null,
    marketplace_address: d.marketplaceAddress ?? null,
    real_prev_owner: d.realPrevOwner ?? null,
    payout_amount: d.payoutAmount ?? null,
    payout_comment_encrypted: d.payoutCommentEncrypted ?? null,
    payout_comment_encoded: d.payoutCommentEncoded ?? null,
    payout_comment: d.payoutComment ?? null,
    royalty_amount: d.royaltyAmount ?? null,
  };
  row.nft_listing_data = { marketplace_fee_address: d.payoutAddress ?? null, royalty_address: d.royaltyAddress ?? null };
}

export function fillNftPurchase(b: Block, row: ActionRow): void {
  const d = b.data;
  if (d.prevOwner !== null) row.source = d.prevOwner;
  row.destination = d.newOwner;
  row.asset_secondary = d.nftAddress;
  row.asset = d.collection;
  row.nft_transfer_data = {
    query_id: d.queryId,
    is_purchase: true,
    price: d.price ?? null,
    nft_item_index: d.index,
    forward_amount: d.forwardAmount ?? null,
    custom_payload: d.customPayload ?? null,
    forward_payload: d.forwardPayload ?? null,
    response_destination: d.responseDestination ?? null,
    marketplace: d.marketplace ?? null,
    marketplace_address: d.marketplaceAddress ?? null,
    real_prev_owner: d.realPrevOwner ?? null,
    payout_amount: d.payoutAmount ?? null,
    payout_comment_encrypted: d.payoutCommentEncrypted ?? null,
    payout_comment_encoded: d.payoutCommentEncoded ?? null,
    payout_comment: d.payoutComment ?? null,
  };
}

export const nftFamily: Family = {
  matchers: (repo) => [
    [10, new NftMintMatcher(repo)],
    [260, new NftTransferMatcher(repo)],
    [270, new TelegramNftPurchaseMatcher(repo)],
    [280, new GetgemsNftPurchaseMatcher()],
    [320, new NftDiscoveryMatcher()],
  ],
  fillers: [
    ['nft_transfer', fillNftTransfer],
    ['nft_purchase', fillNftPurchase],
    [
      'nft_mint',
      (b, row) => {
        row.source = b.data.source;
        row.destination = b.data.address;
        row.asset_secondary = b.data.address;
        row.opcode = b.data.opcode;
        row.asset = b.data.collection;
        row.nft_mint_data = { nft_item_index: b.data.index };
      },
    ],
    [
      'nft_discovery',
      (b, row) => {
        row.source = b.data.sender;
        row.asset = b.data.collection;
        row.asset_secondary = b.data.nft;
        row.nft_transfer_data = { nft_item_index: b.data.index };
      },
    ],
  ],
};
