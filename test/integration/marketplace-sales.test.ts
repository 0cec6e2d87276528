import { Address, Cell, beginCell, contractAddress, internal, storeMessageRelaxed } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StoredAction, actionDetails } from '../../shared/ton/actions/api.js';
import { type DCell, parseBocRoot } from '../../shared/sources/devnet/cell.js';
import { TON } from '../../shared/sources/devnet/genesis.js';
import type { GenesisAccount } from '../../shared/sources/devnet/chain.js';
import type { StdAddr } from '../../shared/sources/devnet/tlb.js';
import type { Wallet } from '../../shared/sources/devnet/wallets.js';
import { type ChainScenario, type IndexedScenario, type SentExternal, chainScenario, rawAddress } from '../helpers/chain-traces.js';
import { haveFixtures, readFixture } from '../helpers/fixtures.js';

/*
 * Getgems fixed-price sales on the real contracts (fixtures/contracts/getgems_nft_fix_price_sale_*.code.boc) of a
 * devnet chain, through the embedded pipeline's action stage: an NFT owner lists a genesis item for sale, changes
 * the price and cancels (v3r3); in another chain the owner lists it (v4r1) and another wallet buys it. Every
 * expected value is what the test put in the sale's data or sent (prices, fees, addresses, the v4r1 contract's
 * payout rule `price × percent / 100,000` from nft-fixprice-sale-v4r1.fc `buy_logic`), never the classifier's output.
 *
 * The listing hop (getgems' deployer: on the NFT's ownership_assigned it deploys the sale with its state init and
 * passes the NFT on to it, getgems-io/nft-contracts sources/deployer/deployer.fc) is played by a relay whose
 * code sends the two messages held in its data, prepared by the test: SETCP0; c4 PUSHCTR CTOS; twice LDREF SWAP
 * 1 PUSHINT SENDRAWMSG; DROP.
 */

const RELAY_CODE = beginCell().storeBuffer(Buffer.from('FF00ED44D0D40171FB00D40171FB0030', 'hex')).endCell();
const NFT_TRANSFER = 0x5fcc3d14;
const SALE_CANCEL = 0x3;
const SALE_UPDATE = 0x6c6c2080;
const V4_DEPLOY_BLANK = 0x664c0905;

const toCore = (a: StdAddr): Address => new Address(a.workchain, Buffer.from(a.hash));
const toStd = (a: Address): StdAddr => ({ workchain: a.workChain, hash: new Uint8Array(a.hash) });
const dcell = (c: Cell): DCell => parseBocRoot(c.toBoc());
const rawOf = (a: Address): string => rawAddress(toStd(a));

interface Listing {
  version: 'v3r3' | 'v4r1';
  price: bigint;
  /** v3r3: amounts (nanotons); v4r1: percent × 100,000. */
  fee: bigint;
  royalty: bigint;
}

interface Parties {
  seller: Wallet;
  buyer: Wallet;
  marketplace: Wallet;
  feeTo: Wallet;
  royaltyTo: Wallet;
  nft: StdAddr;
  collection: StdAddr;
}

/** The sale's data as its deployer writes it: the NFT's owner already set (v3r3 `save_data`, v4r1 `save_data`). */
function saleData(l: Listing, p: Parties, createdAt: number): Cell {
  const mp = toCore(p.marketplace.address);
  const fee = toCore(p.feeTo.address);
  const royalty = toCore(p.royaltyTo.address);
  if (l.version === 'v3r3') {
    const fees = beginCell().storeAddress(fee).storeCoins(l.fee).storeAddress(royalty).storeCoins(l.royalty).endCell();
    return beginCell()
      .storeUint(0, 1)
      .storeUint(createdAt, 32)
      .storeAddress(mp)
      .storeAddress(toCore(p.nft))
      .storeAddress(toCore(p.seller.address))
      .storeCoins(l.price)
      .storeRef(fees)
      .storeUint(0, 32)
      .storeUint(0, 64)
      .endCell();
  }
  const st = beginCell().storeAddress(fee).storeAddress(royalty).storeUint(l.fee, 17).storeUint(l.royalty, 17).storeAddress(toCore(p.nft)).storeUint(createdAt, 32).endCell();
  return beginCell().storeUint(0, 1).storeAddress(mp).storeAddress(toCore(p.seller.address)).storeCoins(l.price).storeUint(0, 32).storeUint(0, 64).storeRef(st).storeDict(null).storeBit(0).endCell();
}

const SALE_CODE = { v3r3: 'getgems_nft_fix_price_sale_v3_r3.code.boc', v4r1: 'getgems_nft_fix_price_sale_v4_r1.code.boc' } as const;

/** TEP-62 transfer body. */
function nftTransfer(queryId: bigint, newOwner: Address, response: Address, forwardAmount: bigint): Cell {
  return beginCell().storeUint(NFT_TRANSFER, 32).storeUint(queryId, 64).storeAddress(newOwner).storeAddress(response).storeBit(0).storeCoins(forwardAmount).storeBit(0).endCell();
}

interface Market {
  s: ChainScenario;
  p: Parties;
  sale: Address;
  relay: Address;
}

/** A chain whose genesis has the listing relay holding the sale's deployment and the NFT's move to it. */
async function market(seed: string, l: Listing): Promise<Market> {
  let sale: Address | null = null;
  let relay: Address | null = null;
  let parties: Parties | null = null;
  const s = await chainScenario({
    seed,
    extraAccounts: (actors, now) => {
      const w = actors.wallets;
      // Genesis item i belongs to wallets[i % wallets]: item 0 to wallets[0].
      const p: Parties = { seller: w[0]!, buyer: w[3]!, marketplace: w[5]!, feeTo: w[6]!, royaltyTo: w[7]!, nft: actors.nft.itemAddress(0), collection: actors.nft.collection };
      const init = { code: Cell.fromBoc(readFixture(`contracts/${SALE_CODE[l.version]}`))[0]!, data: saleData(l, p, now) };
      const saleAddr = contractAddress(0, init);
      const deployBody = beginCell().storeUint(l.version === 'v3r3' ? 1 : V4_DEPLOY_BLANK, 32).storeUint(0, 64).endCell();
      const deploy = internal({ to: saleAddr, value: TON / 20n, bounce: false, init, body: deployBody });
      const move = internal({ to: toCore(p.nft), value: TON / 20n, bounce: true, body: nftTransfer(0n, saleAddr, toCore(p.seller.address), 0n) });
      const relayData = beginCell().storeRef(beginCell().store(storeMessageRelaxed(deploy))).storeRef(beginCell().store(storeMessageRelaxed(move))).endCell();
      const relayAddr = contractAddress(0, { code: RELAY_CODE, data: relayData });
      sale = saleAddr;
      relay = relayAddr;
      parties = p;
      const account: GenesisAccount = { workchain: 0, hash: new Uint8Array(relayAddr.hash), code: dcell(RELAY_CODE), data: dcell(relayData), balance: TON };
      return [account];
    },
  });
  return { s, p: parties!, sale: sale!, relay: relay! };
}

/** The seller sends the NFT to the listing relay (forwarding enough for ownership_assigned). */
function list(m: Market): Promise<SentExternal> {
  return m.s.send(m.p.seller, [{ to: m.p.nft, value: TON / 5n, bounce: true, body: dcell(nftTransfer(11n, m.relay, toCore(m.p.seller.address), TON / 20n)) }]);
}

type Row = Record<string, any>;
const topLevel = (rows: Row[]): Row[] => rows.filter((r) => r.parent_action_id === null);
const one = (rows: Row[], type: string): Row => {
  const found = rows.filter((r) => r.type === type);
  expect(found, `${type} among ${rows.map((r) => r.type).join(', ')}`).toHaveLength(1);
  return found[0]!;
};

function expectPutOnSale(rows: Row[], m: Market, l: Listing): void {
  const a = one(rows, 'nft_put_on_sale');
  expect(a.success).toBe(true);
  expect(a.source).toBe(rawAddress(m.p.seller.address));
  expect(a.source_secondary).toBe(rawOf(m.relay));
  expect(a.destination).toBe(rawOf(m.sale));
  expect(a.asset).toBe(rawAddress(m.p.collection));
  expect(a.asset_secondary).toBe(rawAddress(m.p.nft));
  expect(a.nft_transfer_data).toEqual({ marketplace_address: rawAddress(m.p.marketplace.address) });
  const amounts = l.version === 'v3r3';
  expect(a.nft_listing_data).toEqual({
    nft_item_index: '0',
    full_price: String(l.price),
    // TON Center reads no amounts from a v4r1 sale's state init (its fees are percentages).
    marketplace_fee: amounts ? String(l.fee) : null,
    royalty_amount: amounts ? String(l.royalty) : null,
    marketplace_fee_address: rawAddress(m.p.feeTo.address),
    marketplace: 'getgems',
    royalty_address: rawAddress(m.p.royaltyTo.address),
    mp_fee_factor: null,
    mp_fee_base: null,
    royalty_fee_base: null,
    max_bid: null,
    min_bid: null,
  });
  // API v3 details as ton-index-go's ParseRawAction spreads the row (`marketplace` aside: TON Center names it from
  // its own marketplace table).
  expect(actionDetails(a as unknown as StoredAction)).toMatchObject({
    nft_collection: rawAddress(m.p.collection),
    nft_item: rawAddress(m.p.nft),
    nft_item_index: '0',
    owner: rawAddress(m.p.seller.address),
    listing_address: rawOf(m.relay),
    sale_address: rawOf(m.sale),
    // ParseRawAction takes it from destination_secondary, which the row leaves null.
    marketplace_address: null,
    full_price: String(l.price),
    marketplace_fee: amounts ? String(l.fee) : null,
    royalty_amount: amounts ? String(l.royalty) : null,
    marketplace_fee_address: rawAddress(m.p.feeTo.address),
    royalty_address: rawAddress(m.p.royaltyTo.address),
  });
  // The rest of the trace: the sale's deployment.
  const others = topLevel(rows).filter((r) => r !== a);
  expect(others.map((r) => [r.type, r.destination])).toEqual([['contract_deploy', rawOf(m.sale)]]);
}

describe.skipIf(!haveFixtures)('getgems fixed-price sales on the real contracts (devnet, action stage)', () => {
  describe('v3r3: listed, price changed, cancelled', () => {
    const l: Listing = { version: 'v3r3', price: 10n * TON, fee: TON / 2n, royalty: TON };
    const updated = { price: 8n * TON, fee: TON / 5n, royalty: TON / 2n };
    let m: Market;
    let ix: IndexedScenario;
    let listed: SentExternal;
    let update: SentExternal;
    let cancel: SentExternal;

    beforeAll(async () => {
      m = await market('sales-v3r3', l);
      listed = await list(m);
      const saleStd = toStd(m.sale);
      const updateBody = beginCell().storeUint(SALE_UPDATE, 32).storeUint(21n, 64).storeCoins(updated.price).storeCoins(updated.fee).storeCoins(updated.royalty).endCell();
      update = await m.s.send(m.p.seller, [{ to: saleStd, value: TON / 10n, bounce: true, body: dcell(updateBody) }]);
      cancel = await m.s.send(m.p.seller, [{ to: saleStd, value: TON / 5n, bounce: true, body: dcell(beginCell().storeUint(SALE_CANCEL, 32).storeUint(22n, 64).endCell()) }]);
      ix = await m.s.index();
    }, 900_000);

    afterAll(async () => {
      await ix?.close();
      m?.s.close();
    });

    it('the listing is one nft_put_on_sale with the price and fees it was deployed with, though indexed after the price change', () => {
      expectPutOnSale(ix.actionsOf(listed) as Row[], m, l);
    });

    it('the owner’s price change is one nft_update_sale with the new price and fees sent', () => {
      const rows = topLevel(ix.actionsOf(update) as Row[]);
      expect(rows.map((r) => r.type)).toEqual(['nft_update_sale']);
      const a = rows[0]!;
      expect(a.success).toBe(true);
      expect(a.source).toBe(rawAddress(m.p.seller.address));
      expect(a.destination).toBe(rawOf(m.sale));
      expect(a.asset_secondary).toBe(rawAddress(m.p.nft));
      expect(a.nft_listing_data).toEqual({ full_price: String(updated.price), royalty_amount: String(updated.royalty), marketplace_fee: String(updated.fee) });
      expect(a.nft_transfer_data).toEqual({ marketplace_address: rawAddress(m.p.marketplace.address) });
      expect(a.accounts).toContain(rawAddress(m.p.nft));
      expect(actionDetails(a as unknown as StoredAction)).toMatchObject({
        source: rawAddress(m.p.seller.address),
        sale_contract: rawOf(m.sale),
        nft_address: rawAddress(m.p.nft),
        marketplace_address: rawAddress(m.p.marketplace.address),
        full_price: String(updated.price),
        marketplace_fee: String(updated.fee),
        royalty_amount: String(updated.royalty),
      });
    });

    it('the cancel is one nft_cancel_sale for the owner, and the NFT’s way back its own nft_transfer', () => {
      const rows = topLevel(ix.actionsOf(cancel) as Row[]);
      expect(rows.map((r) => r.type).sort()).toEqual(['nft_cancel_sale', 'nft_transfer']);
      const a = one(rows, 'nft_cancel_sale');
      expect(a.success).toBe(true);
      expect(a.source).toBe(rawAddress(m.p.seller.address));
      expect(a.destination).toBe(rawOf(m.sale));
      expect(a.asset_secondary).toBe(rawAddress(m.p.nft));
      expect(a.asset).toBe(rawAddress(m.p.collection));
      expect(a.nft_transfer_data).toEqual({ marketplace_address: rawAddress(m.p.marketplace.address) });
      expect(a.accounts).toContain(rawAddress(m.p.nft));
      expect(actionDetails(a as unknown as StoredAction)).toMatchObject({
        owner: rawAddress(m.p.seller.address),
        nft_item: rawAddress(m.p.nft),
        nft_collection: rawAddress(m.p.collection),
        sale_address: rawOf(m.sale),
        marketplace_address: rawAddress(m.p.marketplace.address),
      });
      const back = one(rows, 'nft_transfer');
      expect([back.source, back.destination, back.asset_secondary]).toEqual([rawOf(m.sale), rawAddress(m.p.seller.address), rawAddress(m.p.nft)]);
      expect(back.nft_transfer_data.is_purchase).toBe(false);
    });

    it('the action stage’s lookup has the sale as the contract keeps it: the owner, the NFT, the changed price', async () => {
      const { repo } = await ix.input(cancel);
      const sale = repo(rawOf(m.sale))?.nftSale;
      expect(sale).toMatchObject({
        version: 'v3r3',
        marketplace: rawAddress(m.p.marketplace.address),
        nft: rawAddress(m.p.nft),
        owner: rawAddress(m.p.seller.address),
        fullPrice: updated.price,
        marketplaceFee: updated.fee,
        royaltyAmount: updated.royalty,
        isComplete: true,
      });
    });
  });

  describe('v4r1: listed, then bought', () => {
    // Fee 5 %, royalty 10 %, as percent × 100,000.
    const l: Listing = { version: 'v4r1', price: 20n * TON, fee: 5_000n, royalty: 10_000n };
    let m: Market;
    let ix: IndexedScenario;
    let listed: SentExternal;
    let buy: SentExternal;

    beforeAll(async () => {
      m = await market('sales-v4r1', l);
      listed = await list(m);
      buy = await m.s.send(m.p.buyer, [{ to: toStd(m.sale), value: l.price + TON / 2n, bounce: true }]);
      ix = await m.s.index();
    }, 900_000);

    afterAll(async () => {
      await ix?.close();
      m?.s.close();
    });

    it('the listing is one nft_put_on_sale', () => {
      expectPutOnSale(ix.actionsOf(listed) as Row[], m, l);
    });

    it('the purchase is one nft_purchase from the sale to the buyer at the listed price, paying the seller', () => {
      const rows = topLevel(ix.actionsOf(buy) as Row[]);
      const feeAmount = (l.price * l.fee) / 100_000n;
      const royaltyAmount = (l.price * l.royalty) / 100_000n;
      const a = one(rows, 'nft_purchase');
      expect(a.success).toBe(true);
      expect(a.source).toBe(rawOf(m.sale));
      expect(a.destination).toBe(rawAddress(m.p.buyer.address));
      expect(a.asset_secondary).toBe(rawAddress(m.p.nft));
      expect(a.asset).toBe(rawAddress(m.p.collection));
      expect(a.nft_transfer_data).toMatchObject({
        is_purchase: true,
        price: String(l.price),
        nft_item_index: '0',
        marketplace: 'getgems',
        marketplace_address: rawAddress(m.p.marketplace.address),
        real_prev_owner: rawAddress(m.p.seller.address),
        payout_amount: String(l.price - feeAmount - royaltyAmount),
        response_destination: rawAddress(m.p.buyer.address),
      });
      // The fee and the royalty the sale pays out stay TON transfers.
      const rest = rows.filter((r) => r !== a).map((r) => [r.type, r.source, r.destination, String(r.value)]);
      expect(rest).toEqual(
        expect.arrayContaining([
          ['ton_transfer', rawOf(m.sale), rawAddress(m.p.feeTo.address), String(feeAmount)],
          ['ton_transfer', rawOf(m.sale), rawAddress(m.p.royaltyTo.address), String(royaltyAmount)],
        ]),
      );
      expect(rest).toHaveLength(2);
    });
  });
});
