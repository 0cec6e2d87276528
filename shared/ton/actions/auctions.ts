import {
  AUCTION_CANCEL_OP,
  AUCTION_FINISH_OPS,
  TELEITEM_CANCEL_AUCTION,
  TELEITEM_OK,
  TELEITEM_START_AUCTION,
  loadTeleitemStartAuction,
} from '../bodies/Auction.js';
import { Block } from './block.js';
import { CallContractBlock, TonTransferBlock, isCall } from './basic.js';
import type { Family } from './classify.js';
import { type InterfaceRepository, type NftItemInfo, nftItem } from './interfaces.js';
import { Matcher, OpMatcher, PredicateMatcher, TypeMatcher, getLabeled, labeled } from './matcher.js';
import type { ActionRow } from './row.js';

/**
 * Auctions (TON Center `blocks/auction.py`): getgems auctions (put on auction through a marketplace deployer, bids,
 * outbids, cancel, finish) and Telegram (Fragment) item auctions (start, cancel, bids and outbids on the item itself).
 * TON DNS domain auctions are bids and outbids here too; their purchase and balance release are in dns.ts.
 *
 * What is known of an account comes from the interface repository: `nftAuction` (a getgems auction's NFT, owner,
 * marketplace and configuration, shared/ton/interfaces/auction-facts.ts) and `nftItem` (index, collection, and
 * whether it is a Telegram or a DNS item).
 */

/** The mainnet TON DNS item's code hash (base64) by which TON Center recognises DNS items. */
export const DNS_ITEM_CODE_HASH = 'i1/8nr/TkGTY1fVuRlnIJrt1k5I/XKSHKL5NYK9vUfk=';
/** TON Center's `.ton` root collection: its items are DNS items whatever their code. */
export const DNS_COLLECTION = '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF';
/** What a Telegram item's outbid bidder is sent back with (telemint `op::outbid_notification`). */
const OUTBID_NOTIFICATION = 0x557cea20;
const OUTBID_COMMENT = 'Your bid has been outbid by another user';

export function isTeleitem(item: NftItemInfo): boolean {
  return item.contentUri?.includes('https://nft.fragment.com') ?? false;
}

export function isDnsItem(item: NftItemInfo): boolean {
  return item.dns === true || item.collection === DNS_COLLECTION;
}

const comment = (b: Block): string | null => (b instanceof TonTransferBlock ? b.data.comment : null);

/** A bid: TON sent to a getgems auction, or to a Telegram item (to a DNS item only when it outbids someone). */
class AuctionBidMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ includeExcess: false });
  }
  override testSelf(b: Block): boolean {
    return b instanceof TonTransferBlock;
  }
  override build(block: Block): Block[] | null {
    const msg = block.message;
    const known = this.repo(msg.destination ?? '');
    if (known === undefined) return [];
    if (block.deployments.length > 0) return [];
    const c = comment(block);
    if (c === 'cancel' || c === 'finish' || c === 'stop') return [];
    const amount = msg.value === null ? null : BigInt(msg.value);
    let data: Record<string, unknown>;
    if (known.nftAuction) {
      const nft = known.nftAuction.nft;
      const item = nftItem(this.repo, nft);
      data = { amount, bidder: msg.source, auction: msg.destination, nft, index: item?.index ?? null, collection: item?.collection ?? null, auctionType: 'getgems' };
    } else if (known.nftItem && (isTeleitem(known.nftItem) || isDnsItem(known.nftItem))) {
      const item = known.nftItem;
      if (isDnsItem(item) && !block.next.some((b) => isCall(b, OUTBID_NOTIFICATION))) return [];
      data = { amount, bidder: msg.source, auction: msg.destination, nft: msg.destination, index: item.index, collection: item.collection, auctionType: 'fragment' };
    } else return [];
    const bid = new Block('auction_bid', [], data);
    bid.failed = block.failed;
    bid.mergeBlocks([block]);
    return [bid];
  }
}

/** The refund of the bid a new bid beat: the auction's comment transfer (getgems) or outbid notification (Fragment). */
class AuctionOutbidMatcher extends Matcher {
  constructor() {
    super({ includeExcess: false });
  }
  override testSelf(b: Block): boolean {
    return b.type === 'auction_bid';
  }
  override build(block: Block): Block[] | null {
    const d = block.data;
    let refund: Block | null = null;
    for (const b of block.next) {
      const fromAuction = b.message.source === d.auction;
      let hit: boolean;
      if (d.auctionType === 'getgems') {
        if (!(b instanceof TonTransferBlock) || !fromAuction) continue;
        // TON Center tests the comment with `in`: a comment-less refund from the auction fails the whole match.
        if (b.data.comment === null) throw new Error('refund without comment');
        hit = b.data.comment.includes(OUTBID_COMMENT);
      } else hit = fromAuction && isCall(b, OUTBID_NOTIFICATION);
      if (!hit) continue;
      // Only one refund: anything else may be another pattern.
      if (refund !== null) return [];
      refund = b;
    }
    if (refund === null) return [];
    const getgems = d.auctionType === 'getgems';
    const nb = new Block('auction_outbid', [], {
      auction: d.auction,
      nft: d.nft,
      collection: d.collection,
      bidder: refund.message.destination,
      newBidder: d.bidder,
      amount: refund.message.value === null ? null : BigInt(refund.message.value),
      comment: getgems ? comment(refund) : null,
      auctionType: d.auctionType,
    });
    nb.mergeBlocks([refund]);
    return [nb];
  }
}

/**
 * An item put on a getgems auction through a marketplace deployer: the owner's transfer to the deployer, which
 * deploys the auction and transfers the item on to it. TON Center reads the configuration from the auction's
 * initial data (by its code's layout); the fields it reports are constant over an auction's life, so they are
 * read here from its state. It has no reader for the v2 layout: such an auction stays its transfers.
 */
class NftPutOnAuctionMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({
      children: [
        labeled('auction_init', new PredicateMatcher((b) => (b.type === 'ton_transfer' || b.type === 'call_contract') && b.deployments.length > 0)),
        labeled('transfer_to_auction', new TypeMatcher('nft_transfer')),
      ],
      includeExcess: false,
    });
  }
  override testSelf(b: Block): boolean {
    return b.type === 'nft_transfer';
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const toAuction = getLabeled('transfer_to_auction', others)!;
    const init = getLabeled('auction_init', others)!;
    const address = init.message.destination;
    if (toAuction.data.nft.address !== block.data.nft.address) return [];
    if (toAuction.data.newOwner !== address) return [];
    const known = this.repo(address ?? '');
    // A sale is put on sale (TON Center's same matcher, marketplace.ts).
    if (known?.nftSale) return [];
    const a = known?.nftAuction;
    if (!a) return [];
    if (toAuction.data.nft.address !== a.nft || block.data.prevOwner !== a.owner) throw new Error('auction of another item or owner');
    if (a.version === 'v2') throw new Error('no reader of the v2 auction layout');
    const nb = new Block('nft_put_on_auction', [], {
      nft: toAuction.data.nft.address,
      index: toAuction.data.nft.index,
      collection: toAuction.data.nft.collection,
      owner: a.owner,
      listing: block.data.newOwner,
      auction: address,
      marketplaceAddress: a.marketplace,
      marketplace: 'getgems',
      mpFeeAddress: a.marketplaceFeeAddress ?? null,
      mpFeeFactor: a.mpFeeFactor ?? null,
      mpFeeBase: a.mpFeeBase ?? null,
      royaltyAddress: a.royaltyAddress ?? null,
      royaltyFeeBase: a.royaltyFeeBase ?? null,
      maxBid: a.maxBid ?? null,
      minBid: a.minBid ?? null,
    });
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

/** A Telegram item's owner starting an auction on it (`teleitem_start_auction`, answered by `teleitem_ok`). */
class TeleitemStartAuctionMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ child: labeled('teleitem_ok', new OpMatcher(TELEITEM_OK, { optional: true })), includeExcess: false });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, TELEITEM_START_AUCTION);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const item = nftItem(this.repo, block.message.destination);
    if (item === null || !isTeleitem(item)) return [];
    const m = loadTeleitemStartAuction(block.body());
    const nb = new Block('teleitem_start_auction', [], {
      nft: block.message.destination,
      index: item.index,
      collection: item.collection,
      owner: block.message.source,
      listing: null,
      auction: block.message.destination,
      marketplaceAddress: null,
      marketplace: 'fragment',
      mpFeeAddress: m.beneficiary,
      mpFeeFactor: 0n,
      mpFeeBase: 0n,
      royaltyAddress: null,
      royaltyFeeBase: 0n,
      maxBid: m.maxBid,
      minBid: m.initialMinBid,
    });
    nb.mergeBlocks([block, ...others]);
    nb.failed = block.node.tx.aborted;
    return [nb];
  }
}

class TeleitemCancelAuctionMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ child: labeled('teleitem_ok', new OpMatcher(TELEITEM_OK, { optional: true })), includeExcess: false });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, TELEITEM_CANCEL_AUCTION);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const item = nftItem(this.repo, block.message.destination);
    if (item === null || !isTeleitem(item)) return [];
    const nb = new Block('teleitem_cancel_auction', [], {
      nft: block.message.destination,
      collection: item.collection,
      owner: block.message.source,
      tradeContract: block.message.destination,
      marketplaceAddress: null,
    });
    nb.mergeBlocks([block, ...others]);
    nb.failed = block.node.tx.aborted;
    return [nb];
  }
}

function isFinishCommand(b: Block): boolean {
  if (b instanceof TonTransferBlock) return b.data.comment === 'finish' || b.data.comment === 'stop';
  return b instanceof CallContractBlock && b.op !== null && AUCTION_FINISH_OPS.includes(b.op);
}

/** `finish` / `stop` sent to a getgems auction that sold the item (the purchase stays its own action). */
class NftFinishAuctionMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ child: labeled('nft_purchase', new TypeMatcher('nft_purchase')) });
  }
  override testSelf(b: Block): boolean {
    return isFinishCommand(b);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const purchase = getLabeled('nft_purchase', others)!;
    const address = block.message.destination;
    const a = this.repo(address ?? '')?.nftAuction;
    if (!a || purchase.data.nftAddress !== a.nft) return [];
    const nb = new Block('nft_finish_auction', [], {
      nft: purchase.data.nftAddress,
      collection: purchase.data.collection,
      owner: purchase.data.newOwner,
      tradeContract: address,
      marketplaceAddress: null,
    });
    nb.mergeBlocks([block]);
    return [nb];
  }
}

/** `cancel` (or `finish` / `stop` without a sale) sent to a getgems auction that gave the item back. */
class NftCancelAuctionMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ child: labeled('nft_transfer', new TypeMatcher('nft_transfer')) });
  }
  override testSelf(b: Block): boolean {
    if (b instanceof TonTransferBlock) return b.data.comment === 'cancel' || isFinishCommand(b);
    return isFinishCommand(b) || isCall(b, AUCTION_CANCEL_OP);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const back = getLabeled('nft_transfer', others)!;
    const address = block.message.destination;
    const a = this.repo(address ?? '')?.nftAuction;
    if (!a || back.data.nft.address !== a.nft) return [];
    const nb = new Block(isFinishCommand(block) ? 'nft_finish_auction' : 'nft_cancel_auction', [], {
      nft: back.data.nft.address,
      collection: back.data.nft.collection,
      owner: back.data.newOwner,
      tradeContract: address,
      marketplaceAddress: a.marketplace,
    });
    nb.mergeBlocks([block]);
    return [nb];
  }
}

function fillPutOnAuction(b: Block, row: ActionRow): void {
  const d = b.data;
  row.source = d.owner;
  row.source_secondary = d.listing;
  row.destination = d.auction;
  row.asset = d.collection;
  row.asset_secondary = d.nft;
  row.nft_transfer_data = { marketplace_address: d.marketplaceAddress };
  row.nft_listing_data = {
    nft_item_index: d.index,
    mp_fee_factor: d.mpFeeFactor,
    mp_fee_base: d.mpFeeBase,
    royalty_fee_base: d.royaltyFeeBase,
    max_bid: d.maxBid,
    min_bid: d.minBid,
    marketplace_fee_address: d.mpFeeAddress,
    marketplace: d.marketplace,
    royalty_address: d.royaltyAddress,
    full_price: null,
    marketplace_fee: null,
    royalty_amount: null,
  };
}

function fillCancelTrade(b: Block, row: ActionRow): void {
  const d = b.data;
  row.source = d.owner;
  row.destination = d.tradeContract;
  row.asset_secondary = d.nft;
  row.asset = d.collection;
  row.nft_transfer_data = { marketplace_address: d.marketplaceAddress };
  row.__accounts = [d.nft];
}

export const auctionFamily: Family = {
  matchers: (repo) => [
    // TON Center's NftPutOnSaleBlockMatcher (290) puts items on sale or on auction; the auction half follows it.
    [295, new NftPutOnAuctionMatcher(repo)],
    [300, new TeleitemStartAuctionMatcher(repo)],
    [310, new TeleitemCancelAuctionMatcher(repo)],
    [380, new AuctionBidMatcher(repo)],
    [390, new AuctionOutbidMatcher()],
    [410, new NftFinishAuctionMatcher(repo)],
    [420, new NftCancelAuctionMatcher(repo)],
  ],
  fillers: [
    ['nft_put_on_auction', fillPutOnAuction],
    ['teleitem_start_auction', fillPutOnAuction],
    ['nft_cancel_auction', fillCancelTrade],
    ['nft_finish_auction', fillCancelTrade],
    ['teleitem_cancel_auction', fillCancelTrade],
    [
      'auction_bid',
      (b, row) => {
        const d = b.data;
        row.source = d.bidder;
        row.destination = d.auction;
        row.asset_secondary = d.nft;
        row.asset = d.collection;
        row.nft_transfer_data = { nft_item_index: d.index, marketplace: d.auctionType };
        row.__accounts = [d.nft];
        row.value = d.amount;
      },
    ],
    [
      'auction_outbid',
      (b, row) => {
        const d = b.data;
        row.source = d.auction;
        row.destination = d.bidder;
        row.source_secondary = d.newBidder;
        row.asset_secondary = d.nft;
        row.asset = d.collection;
        row.nft_transfer_data = { marketplace: d.auctionType };
        row.amount = d.amount;
        row.ton_transfer_data = { comment: d.comment };
        row.__accounts = [d.nft];
      },
    ],
  ],
};
