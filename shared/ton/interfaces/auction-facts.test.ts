import { Address, type Builder, Cell, type TupleItem, beginCell } from '@ton/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type GetMethodRunner, createGetMethodRunner, rawOf, tupleAddr, tupleInt } from '../../../test/helpers/get-method.js';
import { describeFixtures, readFixture } from '../../../test/helpers/fixtures.js';
import { accountFacts, factsNeedData } from './account-facts.js';
import { type AuctionLayout, readNftAuction } from './auction-facts.js';

/*
 * What readNftAuction reads from a getgems auction's data, against what the auction itself answers: each of the four
 * fixture codes (getgems-io/nft-contracts, MANIFEST.md) run on the real TVM with data built in its layout, its own
 * get-method (get_sale_data, whose tuple lists the NFT, owner, marketplace, last bid, fees and bid limits as stored;
 * v4r1 has only get_auction_data_v4 in the same order) giving the values the classifier must see.
 */

const SELF = '0:' + 'AB'.repeat(32);
const A = (b: string): Address => Address.parseRaw('0:' + b.repeat(32));
const OWNER = A('11');
const MARKETPLACE = A('22');
const NFT = A('33');
const MP_FEE = A('44');
const ROYALTY = A('55');
const BIDDER = A('66');
const raw = rawOf;

let gm: GetMethodRunner;
beforeAll(async () => {
  gm = await createGetMethodRunner();
});
afterAll(async () => {
  await gm?.close();
});

async function getMethod(code: Cell, data: Cell, name: string): Promise<TupleItem[]> {
  const out = await gm.run(code, data, name, SELF);
  expect(out.exitCode, `${name} exit code`).toBe(0);
  return out.stack;
}

const int = tupleInt;
const addr = tupleAddr;

interface Setup {
  lastBid: bigint;
  lastMember: Address | null;
  minBid: bigint;
  maxBid: bigint;
  fees: [bigint, bigint, bigint, bigint];
}

/** The auction's data in `layout` (field order: auction-facts.ts, from the contracts' `init_data` / `pack_data`). */
function auctionData(layout: AuctionLayout, s: Setup): Cell {
  const [mpF, mpB, rF, rB] = s.fees.map(Number) as [number, number, number, number];
  const head = (b: Builder): Builder =>
    b.storeAddress(s.lastMember).storeCoins(s.lastBid).storeUint(1_759_990_000, 32).storeUint(1_760_100_000, 32).storeAddress(OWNER);
  if (layout === 'v2' || layout === 'v3r2') {
    const fees = beginCell().storeAddress(MP_FEE).storeUint(mpF, 32).storeUint(mpB, 32).storeAddress(ROYALTY).storeUint(rF, 32).storeUint(rB, 32).endCell();
    const constants = beginCell()
      .storeInt(5_577_000, 32)
      .storeAddress(MARKETPLACE)
      .storeCoins(s.minBid)
      .storeCoins(s.maxBid)
      .storeCoins(10n ** 8n)
      .storeUint(300, 32)
      .storeAddress(NFT)
      .storeUint(1_759_900_000, 32)
      .endCell();
    return head(beginCell().storeInt(0, 1).storeInt(-1, 1).storeInt(0, 1)).storeRef(fees).storeRef(constants).endCell();
  }
  const constants = beginCell()
    .storeAddress(MARKETPLACE)
    .storeCoins(s.minBid)
    .storeCoins(s.maxBid)
    .storeUint(5, 7)
    .storeUint(300, 17)
    .storeAddress(NFT)
    .storeUint(1_759_900_000, 32)
    .endCell();
  const b = head(beginCell().storeInt(0, 1).storeInt(0, 1)).storeUint(77, 64);
  if (layout === 'v3r3') {
    const fees = beginCell().storeAddress(MP_FEE).storeAddress(ROYALTY).endCell();
    return b.storeUint(mpF, 32).storeUint(mpB, 32).storeUint(rF, 32).storeUint(rB, 32).storeRef(fees).storeRef(constants).endCell();
  }
  const fees = beginCell().storeAddress(MP_FEE).storeAddress(ROYALTY).storeUint(mpF, 32).storeUint(mpB, 32).storeUint(rF, 32).storeUint(rB, 32).endCell();
  return b.storeRef(fees).storeRef(constants).storeMaybeRef(null).endCell();
}

const CASES: [AuctionLayout, string, string][] = [
  ['v2', 'getgems_nft_auction_v2', 'get_sale_data'],
  ['v3r2', 'getgems_nft_auction_v3_r2', 'get_sale_data'],
  ['v3r3', 'getgems_nft_auction_v3_r3', 'get_sale_data'],
  ['v4r1', 'getgems_nft_auction_v4_r1', 'get_auction_data_v4'],
];

const SETUPS: [string, Setup][] = [
  ['before any bid', { lastBid: 0n, lastMember: null, minBid: 2n * 10n ** 9n, maxBid: 100n * 10n ** 9n, fees: [5n, 100n, 7n, 100n] }],
  ['with a last bid', { lastBid: 3_250_000_000n, lastMember: BIDDER, minBid: 10n ** 9n, maxBid: 0n, fees: [1n, 40n, 3n, 50n] }],
];

describeFixtures('getgems auction facts against the auctions’ own get-methods (real TVM)', () => {
  for (const [layout, fixture, method] of CASES) {
    for (const [label, setup] of SETUPS) {
      it(`${layout} ${label}: NFT, owner, marketplace, last bid, fees and bid limits as ${method} answers`, async () => {
        const code = Cell.fromBoc(readFixture(`contracts/${fixture}.code.boc`))[0]!;
        const data = auctionData(layout, setup);
        const t = await getMethod(code, data, method);
        const codeHash = code.hash().toString('base64');
        const facts = readNftAuction(SELF, codeHash, data.toBoc().toString('base64'));
        // get_auction_data_v4 answers the next minimal bid once there is a bid; the stored one only before.
        const minBid = method === 'get_sale_data' || setup.lastBid === 0n ? int(t[16]) : facts?.minBid;
        expect(facts).toEqual({
          address: SELF,
          marketplace: addr(t[3]),
          nft: addr(t[4]),
          owner: addr(t[5]),
          fullPrice: int(t[6]),
          marketplaceFeeAddress: addr(t[9]),
          mpFeeFactor: int(t[10]),
          mpFeeBase: int(t[11]),
          royaltyAddress: addr(t[12]),
          royaltyFeeFactor: int(t[13]),
          royaltyFeeBase: int(t[14]),
          maxBid: int(t[15]),
          minBid,
          version: layout,
        });
        // The values the scenario stored, so that a get-method answering nothing useful cannot pass the test.
        expect([facts?.nft, facts?.owner, facts?.marketplace, facts?.fullPrice]).toEqual([raw(NFT), raw(OWNER), raw(MARKETPLACE), setup.lastBid]);
        expect(facts?.minBid).toBe(setup.minBid);
        // The action stage reads the same through accountFacts, and fetches the data of an auction for it.
        const state = { codeHash, dataBoc: data.toBoc().toString('base64') };
        const none = { inOps: new Set<number>(), outOps: new Set<number>() };
        expect(factsNeedData(codeHash, none)).toBe(true);
        expect(accountFacts(SELF, state, none)?.nftAuction).toEqual(facts);
      });
    }
  }

  it('reads nothing from the root bits alone, nor for a code that is not a known auction', () => {
    const v3r3 = Cell.fromBoc(readFixture('contracts/getgems_nft_auction_v3_r3.code.boc'))[0]!.hash().toString('base64');
    const data = auctionData('v3r3', SETUPS[1]![1]);
    expect(readNftAuction(SELF, v3r3, data.toBoc().toString('base64'))).not.toBeNull();
    const rootOnly = beginCell().storeBits(data.bits).endCell();
    expect(readNftAuction(SELF, v3r3, rootOnly.toBoc().toString('base64'))).toBeNull();
    expect(readNftAuction(SELF, null, data.toBoc().toString('base64'))).toBeNull();
  });
});
