import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DCell, DBuilder, parseBocRoot } from '../../shared/sources/devnet/cell.js';
import { TON } from '../../shared/sources/devnet/genesis.js';
import type { StdAddr } from '../../shared/sources/devnet/tlb.js';
import { nftTransferBody } from '../../shared/sources/devnet/traffic.js';
import { actionDetails } from '../../shared/ton/actions/api.js';
import { createHash } from 'node:crypto';
import { commentBody, contractAddress, contractCode } from '../../shared/sources/devnet/wallets.js';
import { describeFixtures, readFixture } from '../helpers/fixtures.js';
import { type ChainScenario, type IndexedScenario, type SentExternal, chainScenario, rawAddress } from '../helpers/chain-traces.js';

/*
 * Getgems auctions on the real contract (fixtures contracts/getgems_nft_auction_v3_r3, getgems-io/nft-contracts
 * nft-auction-v3r3.func) on a devnet chain, indexed by the embedded pipeline: two auctions of the genesis
 * collection's items, deployed at genesis with data in the contract's layout (auction-facts.ts) and no owner yet,
 * so that the item's arrival (ownership_assigned) activates them. Auction A: the owner hands the item over, two
 * wallets bid (the second outbids the first), the winner sends `finish` after the end time. Auction B: the owner
 * hands the item over and sends `cancel`. Every expected value is what the scenario did: who sent what, the
 * auction's configuration in its data, and the amounts the contract's source computes (the refund of an outbid bid
 * is the bid less the contract's 0.005577 TON, `return_last_bid`).
 */

const GENESIS = 1_760_000_000;
const END_A = GENESIS + 120;
const FEES = { mpFactor: 5, mpBase: 100, royaltyFactor: 10, royaltyBase: 100 };
const MIN_BID = 1n * TON;

let s: ChainScenario;
let ix: IndexedScenario;
const sent: Record<string, SentExternal> = {};
let auctionA: StdAddr;
let auctionB: StdAddr;
let auctionC: StdAddr;
let auctionCInit: DCell;
let deployer: StdAddr;
let dnsReleased: StdAddr;
let dnsWon: StdAddr;
const RELEASED = 'tonflowreleased';
const WON = 'tonflowpurchase';
const domainIndex = (domain: string): bigint => BigInt('0x' + createHash('sha256').update(domain).digest('hex'));
const DNS_END = GENESIS + 30;
const DNS_BID = 5n * TON;
const DNS_QUERY = 0x5eedn;

/**
 * A .ton DNS item of the genesis DNS collection, at its address (init data `index:uint256 collection`,
 * nft-collection.fc) with its data in nft-item.fc's `store_data` layout: `index:uint256 collection owner ^content
 * ^domain auction:(Maybe ^[max_bid_address max_bid_amount:Coins auction_end_time:uint64]) last_fill_up_time:uint64`.
 */
function dnsItem(collection: StdAddr, domain: string, owner: StdAddr | null, auction: { bidder: StdAddr; amount: bigint; end: number } | null, lastFillUp: number) {
  const init = new DBuilder();
  init.storeUint(domainIndex(domain), 256);
  init.storeAddress(collection);
  const code = contractCode('dnsItem');
  const address = contractAddress(0, code, init.endCell());
  const content = new DBuilder();
  content.storeUint(0, 8); // on-chain content
  content.storeBit(0); // no records
  const name = new DBuilder();
  name.storeBytes(Buffer.from(domain));
  let auctionCell: DCell | null = null;
  if (auction) {
    const a = new DBuilder();
    a.storeAddress(auction.bidder);
    a.storeCoins(auction.amount);
    a.storeUint(auction.end, 64);
    auctionCell = a.endCell();
  }
  const d = new DBuilder();
  d.storeUint(domainIndex(domain), 256);
  d.storeAddress(collection);
  d.storeAddress(owner);
  d.storeRef(content.endCell());
  d.storeRef(name.endCell());
  d.storeMaybeRef(auctionCell);
  d.storeUint(lastFillUp, 64);
  return { address, code, data: d.endCell() };
}

function auctionData(nft: StdAddr, marketplace: StdAddr, mpFee: StdAddr, royalty: StdAddr, endTime: number, owner: StdAddr | null = null): DCell {
  const fees = new DBuilder();
  fees.storeAddress(mpFee);
  fees.storeAddress(royalty);
  const constants = new DBuilder();
  constants.storeAddress(marketplace);
  constants.storeCoins(MIN_BID);
  constants.storeCoins(0n); // max_bid: none
  constants.storeUint(5, 7); // min_step, percent
  constants.storeUint(10, 17); // step_time
  constants.storeAddress(nft);
  constants.storeUint(GENESIS, 32); // created_at
  const b = new DBuilder();
  b.storeInt(0, 1); // end?
  b.storeInt(0, 1); // is_canceled?
  b.storeAddress(null); // last_member
  b.storeCoins(0n); // last_bid
  b.storeUint(0, 32); // last_bid_at
  b.storeUint(endTime, 32);
  b.storeAddress(owner); // nft_owner: none, set by the item's ownership_assigned; or the seller, as getgems deploys
  b.storeUint(0, 64); // last_query_id
  b.storeUint(FEES.mpFactor, 32);
  b.storeUint(FEES.mpBase, 32);
  b.storeUint(FEES.royaltyFactor, 32);
  b.storeUint(FEES.royaltyBase, 32);
  b.storeRef(fees.endCell());
  b.storeRef(constants.endCell());
  return b.endCell();
}

type Actions = IndexedScenario['actions'] extends Map<string, infer A> ? A : never;

/** The one top-level action of `type` (child rows, under non-v1 parents, have a parent_action_id). */
/*
 * A marketplace deployer, the part of getgems' (packages/contracts/sources/deployer/deployer.fc) the classifier
 * sees, written here in TVM code: on `ownership_assigned query_id prev_owner` with a payload `0` bit and two
 * references (an auction's state init and its deploy body), it deploys the auction (0.134 TON, mode 1) and transfers
 * the item on to it (`transfer query_id new_owner:auction response:prev_owner`, no forward amount, mode 64).
 */
function deployerCode(): DCell {
  const b = new DBuilder();
  const op = (...bytes: number[]): void => bytes.forEach((x) => b.storeUint(x, 8));
  const pushInt32 = (v: number): void => {
    op(0x82); // PUSHINT with a 5-bit length l and 8l+19 bits (signed): l = 2 gives 35 bits
    b.storeUint(2, 5);
    b.storeInt(v, 35);
  };
  op(0x30); // DROP the selector: body in_msg_full msg_value balance
  op(0x01, 0xd0, 0xd3, 0x03, 0xfa, 0x40, 0x30, 0x31); // SWAP CTOS LDU 4 LDMSGADDR DROP NIP: sender body
  op(0x01, 0xd3, 0x1f, 0x31, 0xd3, 0x3f, 0xfa, 0x40); // SWAP LDU 32 NIP LDU 64 LDMSGADDR: body prev qid sender
  op(0xd3, 0x00, 0x31, 0xd4, 0xd4, 0x30); // LDU 1 NIP LDREF LDREF DROP: dbody si prev qid sender
  op(0x21, 0xf9, 0x00, 0x20); // PUSH s1 HASHCU DUP: h h dbody si prev qid sender
  op(0xc8); // NEWC
  pushInt32((0x18 << 11) | 1024); // int_msg_info$0, ihr_disabled, bounce, no source; addr_std$10, no anycast, workchain 0
  op(0x01, 0xcb, 0x10, 0xcb, 0xff); // SWAP STU 17 STU 256: the state init's hash
  op(0x83, 0x1a, 0xfa, 0x02); // PUSHPOW2 27 STGRAMS: b h dbody si prev qid sender
  op(0x77, 0x01, 0xcb, 0x6b); // PUSHINT 7 SWAP STU 108: no currencies, fees, lt, at; init and body as references
  op(0x13, 0xcc, 0xcc, 0xc9, 0x71, 0xfb, 0x00); // XCHG s1,s3 STREF STREF ENDC PUSHINT 1 SENDRAWMSG: h prev qid sender
  op(0xc8, 0x80, 0x18, 0x01, 0xcb, 0x05); // NEWC PUSHINT 0x18 SWAP STU 6
  op(0x14, 0xce); // XCHG s1,s4 STSLICE: b prev qid h (destination: the item that sent ownership_assigned)
  op(0x70, 0x01, 0xcb, 0x6e); // PUSHINT 0 SWAP STU 111: value 0, no currencies, fees, lt, at, init; body inline
  pushInt32(0x5fcc3d14);
  op(0x01, 0xcb, 0x1f); // SWAP STU 32: op::transfer
  op(0x12, 0xcb, 0x3f); // XCHG s1,s2 STU 64: query_id; b prev h
  op(0x81, 0x04, 0x00, 0x01, 0xcb, 0x0a); // PUSHINT 1024 SWAP STU 11: addr_std$10, no anycast, workchain 0
  op(0x12, 0xcb, 0xff); // XCHG s1,s2 STU 256: the auction's address; b prev
  op(0xce); // STSLICE: response_destination = prev_owner
  op(0x70, 0x01, 0xcb, 0x05); // PUSHINT 0 SWAP STU 6: no custom payload, forward amount 0, no forward payload
  op(0xc9, 0x80, 0x40, 0xfb, 0x00); // ENDC PUSHINT 64 SENDRAWMSG
  return b.endCell();
}

const find = (actions: Actions, type: string) => {
  const found = actions.filter((a) => a.type === type && a['parent_action_id'] === null);
  expect(found.map((a) => a.type), `one ${type} among ${actions.map((a) => a.type).join(', ')}`).toEqual([type]);
  return found[0]!;
};

describeFixtures('getgems auctions on the real contract (devnet)', () => {
  beforeAll(async () => {
    const code = parseBocRoot(readFixture('contracts/getgems_nft_auction_v3_r3.code.boc'));
    s = await chainScenario({
      seed: 'auction-actions',
      extraAccounts: (actors) => {
        const w = actors.wallets;
        const dataA = auctionData(actors.nft.itemAddress(0), w[6]!.address, w[7]!.address, w[8]!.address, END_A);
        const dataB = auctionData(actors.nft.itemAddress(1), w[6]!.address, w[7]!.address, w[8]!.address, GENESIS + 86_400);
        auctionA = contractAddress(0, code, dataA);
        auctionB = contractAddress(0, code, dataB);
        // Auction C is not at genesis: the deployer deploys it from the state init the seller sends along.
        const dataC = auctionData(actors.nft.itemAddress(2), w[6]!.address, w[7]!.address, w[8]!.address, GENESIS + 86_400, w[2]!.address);
        const si = new DBuilder();
        si.storeUint(0b00110, 5); // no split_depth, no special, code, data, no library
        si.storeRef(code);
        si.storeRef(dataC);
        auctionCInit = si.endCell();
        auctionC = contractAddress(0, code, dataC);
        const dCode = deployerCode();
        const dData = new DBuilder();
        dData.storeUint(0, 1);
        deployer = contractAddress(0, dCode, dData.endCell());
        // A domain not filled up for two years (its balance release is open to anyone), and one whose auction
        // ends at DNS_END with wallets[11]'s bid.
        const released = dnsItem(actors.dns.collection, RELEASED, w[9]!.address, null, GENESIS - 2 * 366 * 86_400);
        const won = dnsItem(actors.dns.collection, WON, null, { bidder: w[11]!.address, amount: DNS_BID, end: DNS_END }, GENESIS - 86_400);
        dnsReleased = released.address;
        dnsWon = won.address;
        return [
          { workchain: 0, hash: auctionA.hash, code, data: dataA, balance: TON },
          { workchain: 0, hash: auctionB.hash, code, data: dataB, balance: TON },
          { workchain: 0, hash: deployer.hash, code: deployerCode(), data: (() => { const d = new DBuilder(); d.storeUint(0, 1); return d.endCell(); })(), balance: 5n * TON },
          { workchain: 0, hash: released.address.hash, code: released.code, data: released.data, balance: 3n * TON },
          { workchain: 0, hash: won.address.hash, code: won.code, data: won.data, balance: DNS_BID + 2n * TON },
        ];
      },
    });
    const w = s.actors.wallets;
    const n = s.actors.nft;
    // Genesis: item i belongs to wallets[i].
    // dns-contract nft-item.fc: `dns_balance_release#4ed14b65 query_id`, at least the domain's minimal price (1 TON
    // for 11 characters and more, dns-utils.fc get_min_price); `change_dns_record#4eb1f0f9 query_id key:uint256`
    // without a value deletes the record.
    const release = new DBuilder();
    release.storeUint(0x4ed14b65, 32);
    release.storeUint(DNS_QUERY, 64);
    sent.dnsRelease = await s.send(w[10]!, [{ to: dnsReleased, value: 2n * TON, bounce: true, body: release.endCell() }]);
    // The release opened an auction with wallets[10]'s 2 TON as its bid: wallets[5] outbids it (at least 5% more,
    // nft-item.fc), and the item returns the 2 TON with op::outbid_notification.
    sent.dnsBid = await s.send(w[5]!, [{ to: dnsReleased, value: 3n * TON, bounce: true }]);
    while (s.now <= DNS_END) await s.tick(5);
    const del = new DBuilder();
    del.storeUint(0x4eb1f0f9, 32);
    del.storeUint(DNS_QUERY + 1n, 64);
    del.storeUint(domainIndex('wallet'), 256);
    sent.dnsTake = await s.send(w[11]!, [{ to: dnsWon, value: TON / 5n, bounce: true, body: del.endCell() }]);
    // Item 2's owner lists it through the deployer: the auction's state init and deploy body (the `deploy` text
    // command, v3r3 get_command_code) ride in the transfer's forward payload.
    const listing = new DBuilder();
    listing.storeUint(0x5fcc3d14, 32);
    listing.storeUint(3n, 64);
    listing.storeAddress(deployer);
    listing.storeAddress(w[2]!.address);
    listing.storeBit(0); // no custom payload
    listing.storeCoins(TON / 2n);
    listing.storeBit(0); // forward payload inline: its references follow
    listing.storeRef(auctionCInit);
    listing.storeRef(commentBody('deploy'));
    sent.putOnAuction = await s.send(w[2]!, [{ to: n.itemAddress(2), value: TON, bounce: true, body: listing.endCell() }]);
    sent.handOverA = await s.send(w[0]!, [{ to: n.itemAddress(0), value: TON / 5n, bounce: true, body: nftTransferBody(1n, auctionA, w[0]!.address, TON / 20n) }]);
    sent.bid1 = await s.send(w[3]!, [{ to: auctionA, value: 2n * TON, bounce: true }]);
    sent.bid2 = await s.send(w[4]!, [{ to: auctionA, value: 3n * TON, bounce: true }]);
    while (s.now <= END_A) await s.tick(10);
    sent.finish = await s.send(w[4]!, [{ to: auctionA, value: TON / 5n, bounce: true, body: commentBody('finish') }]);
    sent.handOverB = await s.send(w[1]!, [{ to: n.itemAddress(1), value: TON / 5n, bounce: true, body: nftTransferBody(2n, auctionB, w[1]!.address, TON / 20n) }]);
    sent.cancel = await s.send(w[1]!, [{ to: auctionB, value: TON / 5n, bounce: true, body: commentBody('cancel') }]);
    ix = await s.index();
  }, 900_000);

  afterAll(async () => {
    await ix?.close();
    s?.close();
  });

  const raw = (a: StdAddr): string => rawAddress(a);

  /** The value of the one message from `from` to `to` in the trace, as the chain carried it. */
  async function messageValue(e: SentExternal, from: StdAddr, to: StdAddr): Promise<bigint> {
    const { trace } = await ix.input(e);
    const msgs = trace.transactions.flatMap((t) => t.messages).filter((m) => m.direction === 'in' && m.source === raw(from) && m.destination === raw(to));
    expect(msgs.length).toBe(1);
    return BigInt(msgs[0]!.value!);
  }

  it('handing the item to the auction is the owner’s nft_transfer to the auction', () => {
    const a = find(ix.actionsOf(sent.handOverA!), 'nft_transfer');
    expect([a['source'], a['destination'], a['asset_secondary'], a['asset']]).toEqual([raw(s.actors.wallets[0]!.address), raw(auctionA), raw(s.actors.nft.itemAddress(0)), raw(s.actors.nft.collection)]);
    expect(a.success).toBe(true);
  });

  it('the first bid is an auction_bid of the bidder, the amount and the auctioned item', () => {
    const actions = ix.actionsOf(sent.bid1!);
    expect(actions.map((a) => a.type)).toEqual(['auction_bid']);
    const a = actions[0]!;
    expect(a['source']).toBe(raw(s.actors.wallets[3]!.address));
    expect(a['destination']).toBe(raw(auctionA));
    expect(String(a['value'])).toBe(String(2n * TON));
    expect(a['asset_secondary']).toBe(raw(s.actors.nft.itemAddress(0)));
    expect(a['asset']).toBe(raw(s.actors.nft.collection));
    expect(a['nft_transfer_data']).toEqual({ nft_item_index: '0', marketplace: 'getgems' });
    expect(a['accounts']).toEqual(expect.arrayContaining([raw(s.actors.wallets[3]!.address), raw(auctionA), raw(s.actors.nft.itemAddress(0))]));
    expect(a.success).toBe(true);
  });

  it('the second bid is an auction_bid and an auction_outbid refunding the first bidder', async () => {
    const actions = ix.actionsOf(sent.bid2!);
    expect(actions.filter((a) => a['parent_action_id'] === null).map((a) => a.type).sort()).toEqual(['auction_bid', 'auction_outbid']);
    const bid = find(actions, 'auction_bid');
    expect([bid['source'], bid['destination'], String(bid['value'])]).toEqual([raw(s.actors.wallets[4]!.address), raw(auctionA), String(3n * TON)]);
    const out = find(actions, 'auction_outbid');
    expect(out['source']).toBe(raw(auctionA));
    expect(out['destination']).toBe(raw(s.actors.wallets[3]!.address));
    expect(out['source_secondary']).toBe(raw(s.actors.wallets[4]!.address));
    expect(out['asset_secondary']).toBe(raw(s.actors.nft.itemAddress(0)));
    expect(out['asset']).toBe(raw(s.actors.nft.collection));
    // The refund the auction sent (return_last_bid: the bid less 0.005577 TON, forwarding fees taken from it, mode 2).
    const refund = await messageValue(sent.bid2!, auctionA, s.actors.wallets[3]!.address);
    expect(refund <= 2n * TON - 5_577_000n && refund > 2n * TON - 5_577_000n - TON / 100n).toBe(true);
    expect(String(out['amount'])).toBe(String(refund));
    expect(out['ton_transfer_data']).toEqual({ comment: 'Your bid has been outbid by another user.' });
    expect(out['nft_transfer_data']).toEqual({ marketplace: 'getgems' });
    // API v3: ton-index-go takes the comment from `ton_transfer_data.content`, which TON Center's Postgres row does
    // not have for an outbid (its `ton_transfer_details` type has no `comment`): omitted (omitempty).
    const details = actionDetails(out as never) as Record<string, unknown>;
    expect(details).not.toHaveProperty('comment');
    expect([details['auction_address'], details['bidder'], details['new_bidder'], details['amount']]).toEqual([raw(auctionA), raw(s.actors.wallets[3]!.address), raw(s.actors.wallets[4]!.address), String(refund)]);
    // auction_outbid is not a v1 type: the refund is also its child ton_transfer row (actions.md S.3).
    const child = actions.filter((a) => a['parent_action_id'] === out.action_id);
    expect(child.map((a) => [a.type, a['ancestor_type']])).toEqual([['ton_transfer', ['auction_outbid']]]);
  });

  it('`finish` after the end time: nft_finish_auction to the winner, and the purchase at the last bid', async () => {
    const w = s.actors.wallets;
    const actions = ix.actionsOf(sent.finish!);
    const fin = find(actions, 'nft_finish_auction');
    expect([fin['source'], fin['destination'], fin['asset_secondary'], fin['asset']]).toEqual([raw(w[4]!.address), raw(auctionA), raw(s.actors.nft.itemAddress(0)), raw(s.actors.nft.collection)]);
    expect(fin['nft_transfer_data']).toEqual({ marketplace_address: null });
    const p = find(actions, 'nft_purchase');
    expect(p['destination']).toBe(raw(w[4]!.address));
    expect(p['asset_secondary']).toBe(raw(s.actors.nft.itemAddress(0)));
    const d = p['nft_transfer_data'] as Record<string, unknown>;
    expect(String(d['price'])).toBe(String(3n * TON));
    expect(d['real_prev_owner']).toBe(raw(w[0]!.address));
    expect(d['marketplace']).toBe('getgems');
    expect(d['marketplace_address']).toBe(raw(w[6]!.address));
    // The seller's profit: the last bid less the marketplace's 5% and the royalty's 10% (end_auction), forwarding
    // fees taken from it (mode 2).
    const profit = 3n * TON - (3n * TON * 5n) / 100n - (3n * TON * 10n) / 100n;
    const paid = await messageValue(sent.finish!, auctionA, w[0]!.address);
    expect(paid <= profit && paid > profit - TON / 100n).toBe(true);
    expect(String(d['payout_amount'])).toBe(String(paid));
  });

  it('`cancel` before any bid: nft_cancel_auction of the owner, the item back to them', () => {
    const w = s.actors.wallets;
    const actions = ix.actionsOf(sent.cancel!);
    const c = find(actions, 'nft_cancel_auction');
    expect([c['source'], c['destination'], c['asset_secondary'], c['asset']]).toEqual([raw(w[1]!.address), raw(auctionB), raw(s.actors.nft.itemAddress(1)), raw(s.actors.nft.collection)]);
    expect(c['nft_transfer_data']).toEqual({ marketplace_address: raw(w[6]!.address) });
    const back = find(actions, 'nft_transfer');
    expect([back['source'], back['destination']]).toEqual([raw(auctionB), raw(w[1]!.address)]);
  });

  it('dns_balance_release: a dns_release of the sender, the domain, its index and the value sent', () => {
    const actions = ix.actionsOf(sent.dnsRelease!);
    const r = find(actions, 'dns_release');
    expect(r['source']).toBe(raw(s.actors.wallets[10]!.address));
    expect(r['destination']).toBe(raw(dnsReleased));
    expect(r['asset']).toBe(raw(s.actors.dns.collection));
    expect(String(r['value'])).toBe(String(2n * TON));
    expect(r['nft_transfer_data']).toEqual({ query_id: String(DNS_QUERY), nft_item_index: domainIndex(RELEASED).toString() });
    expect(r.success).toBe(true);
  });

  it('the first message after a domain auction ends: dns_purchase by the winning bidder at the bid paid to the collection', async () => {
    const actions = ix.actionsOf(sent.dnsTake!);
    const p = find(actions, 'dns_purchase');
    expect(p['destination']).toBe(raw(s.actors.wallets[11]!.address));
    expect(p['asset_secondary']).toBe(raw(dnsWon));
    expect(p['asset']).toBe(raw(s.actors.dns.collection));
    // op::fill_up carries the winning bid to the collection (mode 2: its forwarding fee taken from it).
    const paid = await messageValue(sent.dnsTake!, dnsWon, s.actors.dns.collection);
    expect(paid <= DNS_BID && paid > DNS_BID - TON / 100n).toBe(true);
    const d = p['nft_transfer_data'] as Record<string, unknown>;
    expect([d['price'], d['payout_amount'], d['query_id'], d['nft_item_index'], d['is_purchase']]).toEqual([String(paid), String(paid), String(DNS_QUERY + 1n), domainIndex(WON).toString(), true]);
    expect(p.success).toBe(true);
    // The message that took the domain is the new owner's: deleting a record of it.
    const del = find(actions, 'delete_dns');
    expect([del['source'], del['destination'], del.success]).toEqual([raw(s.actors.wallets[11]!.address), raw(dnsWon), true]);
  });

  it('listing through a marketplace deployer: nft_put_on_auction with the auction’s configuration', async () => {
    const w = s.actors.wallets;
    // What the action stage published: the auction's facts come from its data, which the cell store holds from
    // the deploying message's StateInit (shared/ton/decode-block.ts `deployedInits`).
    const actions = ix.actionsOf(sent.putOnAuction!);
    const p = find(actions, 'nft_put_on_auction');
    expect(p['source']).toBe(raw(w[2]!.address));
    expect(p['source_secondary']).toBe(raw(deployer));
    expect(p['destination']).toBe(raw(auctionC));
    expect(p['asset_secondary']).toBe(raw(s.actors.nft.itemAddress(2)));
    expect(p['asset']).toBe(raw(s.actors.nft.collection));
    expect(p['nft_transfer_data']).toEqual({ marketplace_address: raw(w[6]!.address) });
    expect(p['nft_listing_data']).toEqual({
      nft_item_index: '2',
      mp_fee_factor: String(FEES.mpFactor),
      mp_fee_base: String(FEES.mpBase),
      royalty_fee_base: String(FEES.royaltyBase),
      max_bid: '0',
      min_bid: String(MIN_BID),
      marketplace_fee_address: raw(w[7]!.address),
      marketplace: 'getgems',
      royalty_address: raw(w[8]!.address),
      full_price: null,
      marketplace_fee: null,
      royalty_amount: null,
    });
    expect(p.success).toBe(true);
    expect(actions.filter((a) => a['parent_action_id'] === null).map((a) => a.type).sort()).toEqual(['contract_deploy', 'nft_put_on_auction']);
  });


  it('a bid on a domain auction that outbids another: auction_bid and auction_outbid (TON Center names their auction type fragment)', async () => {
    const w = s.actors.wallets;
    const actions = ix.actionsOf(sent.dnsBid!);
    const bid = find(actions, 'auction_bid');
    expect([bid['source'], bid['destination'], String(bid['value']), bid['asset_secondary'], bid['asset']]).toEqual([
      raw(w[5]!.address),
      raw(dnsReleased),
      String(3n * TON),
      raw(dnsReleased),
      raw(s.actors.dns.collection),
    ]);
    expect(bid['nft_transfer_data']).toEqual({ nft_item_index: domainIndex(RELEASED).toString(), marketplace: 'fragment' });
    const out = find(actions, 'auction_outbid');
    expect([out['source'], out['destination'], out['source_secondary'], out['asset_secondary']]).toEqual([raw(dnsReleased), raw(w[10]!.address), raw(w[5]!.address), raw(dnsReleased)]);
    // The previous bid back, fees paid separately (mode 1).
    expect(await messageValue(sent.dnsBid!, dnsReleased, w[10]!.address)).toBe(2n * TON);
    expect(String(out['amount'])).toBe(String(2n * TON));
    expect(out['ton_transfer_data']).toEqual({ comment: null });
    expect(out['nft_transfer_data']).toEqual({ marketplace: 'fragment' });
  });
});
