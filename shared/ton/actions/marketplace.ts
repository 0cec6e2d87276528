import { type GetgemsSaleListing, loadGetgemsSaleListing } from '../bodies/GetgemsSaleStateInit.js';
import { NFT_SALE_CANCEL, NFT_SALE_UPDATE, loadNftSaleUpdate } from '../bodies/NftSaleUpdate.js';
import { Block } from './block.js';
import { isCall } from './basic.js';
import type { Family } from './classify.js';
import type { InterfaceRepository, NftSaleInfo } from './interfaces.js';
import { Matcher, PredicateMatcher, TypeMatcher, getLabeled, labeled } from './matcher.js';
import type { ActionRow } from './row.js';

/**
 * Getgems fixed-price sales (TON Center `blocks/auction.py`: the sale half of `NftPutOnSaleBlockMatcher`,
 * `NftCancelSaleMatcher`, `UpdateSaleMatcher`; the purchase itself is nft.ts's `nft_purchase`). Each needs the sale
 * contract's facts (`nftSale`: shared/ton/interfaces/getgems-sale.ts) from the interface lookup.
 *
 * Listing: the owner sends the NFT to a listing contract (the marketplace's deployer), which deploys the sale and
 * passes the NFT on to it. The listing's price and fees are read from the deploying message's state init, as TON
 * Center does; when the trace does not carry it, from the sale's state (the same cell until the owner changes the
 * price).
 */

/** The sale at `address`, when the lookup knows one. */
function saleAt(repo: InterfaceRepository, address: string | null): NftSaleInfo | null {
  return address ? (repo(address)?.nftSale ?? null) : null;
}

/**
 * The listing of a sale: from the deploying message's state init in the layout of the sale's version (TON Center
 * takes the version from the sale's code hash, the latest, v4r1, when it has none); else from the sale's state as
 * that reader would give it (no amounts for v4r1, whose fees are percentages). A state init that does not read is no
 * listing (TON Center asserts it).
 */
function listingOf(stateInit: string | null, sale: NftSaleInfo): GetgemsSaleListing {
  if (stateInit !== null) return loadGetgemsSaleListing(stateInit, sale.version ?? 'v4r1');
  const amounts = sale.version !== 'v4r1';
  return {
    marketplace: sale.marketplace,
    fullPrice: sale.fullPrice,
    marketplaceFeeAddress: sale.marketplaceFeeAddress ?? null,
    marketplaceFee: amounts ? (sale.marketplaceFee ?? null) : null,
    royaltyAddress: sale.royaltyAddress ?? null,
    royaltyAmount: amounts ? (sale.royaltyAmount ?? null) : null,
  };
}

export class NftPutOnSaleBlock extends Block {}

class NftPutOnSaleMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({
      children: [
        labeled('sale_init', new PredicateMatcher((b) => (b.type === 'ton_transfer' || b.type === 'call_contract') && b.deployments.length > 0)),
        labeled('transfer_to_sale', new TypeMatcher('nft_transfer')),
      ],
      includeExcess: false,
    });
  }
  override testSelf(b: Block): boolean {
    return b.type === 'nft_transfer';
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const toSale = getLabeled('transfer_to_sale', others)!;
    const init = getLabeled('sale_init', others)!;
    const saleAddress = init.message.destination;
    if (toSale.data.nft.address !== block.data.nft.address) return [];
    if (toSale.data.newOwner !== saleAddress) return [];
    const sale = saleAt(this.repo, saleAddress);
    // Not a sale: an auction's listing (auctions.ts), or nothing known.
    if (sale === null) return [];
    // TON Center asserts both; a failed assertion is no match.
    if (sale.nft !== toSale.data.nft.address) throw new Error('sale of another NFT');
    if (sale.owner !== block.data.prevOwner) throw new Error('sale of another owner');
    const listing = listingOf(init.message.init_state ?? null, sale);
    const nb = new NftPutOnSaleBlock('nft_put_on_sale', [], {
      nftAddress: toSale.data.nft.address,
      nftIndex: toSale.data.nft.index,
      nftCollection: toSale.data.nft.collection,
      owner: sale.owner,
      listingAddress: block.data.newOwner,
      saleAddress,
      ...listing,
    });
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

/** `cancel` (op 3) to a sale, answered by the NFT going back: the NFT's transfer stays an action of its own. */
class NftCancelSaleMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ child: labeled('nft_transfer', new TypeMatcher('nft_transfer')) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, NFT_SALE_CANCEL);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const back = getLabeled('nft_transfer', others)!;
    const contract = block.message.destination;
    const sale = saleAt(this.repo, contract);
    if (sale === null || back.data.nft.address !== sale.nft) return [];
    const nb = new Block('nft_cancel_sale', [], {
      nftAddress: back.data.nft.address,
      nftCollection: back.data.nft.collection,
      owner: back.data.newOwner,
      tradeContract: contract,
      marketplaceAddress: sale.marketplace,
    });
    nb.mergeBlocks([block]);
    return [nb];
  }
}

/** The owner's price change of a sale. */
class NftUpdateSaleMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super();
  }
  override testSelf(b: Block): boolean {
    return isCall(b, NFT_SALE_UPDATE);
  }
  override build(block: Block): Block[] | null {
    const contract = block.message.destination;
    const update = loadNftSaleUpdate(block.body());
    const sale = saleAt(this.repo, contract);
    if (sale === null) return [];
    const nb = new Block('nft_update_sale', [], {
      sender: block.message.source,
      saleContract: contract,
      nftAddress: sale.nft,
      marketplaceAddress: sale.marketplace,
      fullPrice: update.fullPrice,
      marketplaceFee: update.marketplaceFee,
      royaltyAmount: update.royaltyAmount,
    });
    nb.mergeBlocks([block]);
    nb.failed = block.node.tx.aborted;
    return [nb];
  }
}

function fillPutOnSale(b: Block, row: ActionRow): void {
  const d = b.data;
  row.source = d.owner;
  row.source_secondary = d.listingAddress;
  row.destination = d.saleAddress;
  row.nft_transfer_data = { marketplace_address: d.marketplace };
  row.asset = d.nftCollection;
  row.asset_secondary = d.nftAddress;
  row.nft_listing_data = {
    nft_item_index: d.nftIndex,
    full_price: d.fullPrice,
    marketplace_fee: d.marketplaceFee,
    royalty_amount: d.royaltyAmount,
    marketplace_fee_address: d.marketplaceFeeAddress,
    marketplace: 'getgems',
    royalty_address: d.royaltyAddress,
    // The auction fields of the shared composite.
    mp_fee_factor: null,
    mp_fee_base: null,
    royalty_fee_base: null,
    max_bid: null,
    min_bid: null,
  };
}

function fillCancelSale(b: Block, row: ActionRow): void {
  const d = b.data;
  row.source = d.owner;
  row.destination = d.tradeContract;
  row.asset_secondary = d.nftAddress;
  row.asset = d.nftCollection;
  row.nft_transfer_data = { marketplace_address: d.marketplaceAddress };
  row.__accounts = [d.nftAddress];
}

function fillUpdateSale(b: Block, row: ActionRow): void {
  const d = b.data;
  row.source = d.sender;
  row.destination = d.saleContract;
  row.asset_secondary = d.nftAddress;
  row.nft_listing_data = { full_price: d.fullPrice, royalty_amount: d.royaltyAmount, marketplace_fee: d.marketplaceFee };
  row.nft_transfer_data = { marketplace_address: d.marketplaceAddress };
  row.__accounts = [d.nftAddress];
}

/** Getgems fixed-price sales, at their places in TON Center's matcher order. */
export const marketplaceFamily: Family = {
  matchers: (repo) => [
    [250, new NftUpdateSaleMatcher(repo)],
    [290, new NftPutOnSaleMatcher(repo)],
    [400, new NftCancelSaleMatcher(repo)],
  ],
  fillers: [
    ['nft_put_on_sale', fillPutOnSale],
    ['nft_cancel_sale', fillCancelSale],
    ['nft_update_sale', fillUpdateSale],
  ],
};
