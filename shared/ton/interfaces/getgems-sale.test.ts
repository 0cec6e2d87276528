import { Address, Cell, type TupleItem, beginCell, storeStateInit } from '@ton/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type GetMethodRunner, createGetMethodRunner, rawOf, tupleAddr, tupleInt } from '../../../test/helpers/get-method.js';
import { describeFixtures, readFixture } from '../../../test/helpers/fixtures.js';
import { accountFacts, factsNeedData } from './account-facts.js';
import { KNOWN_CODES } from './code-hashes.js';
import { getgemsSaleFacts, getgemsSaleVersion } from './getgems-sale.js';
import { loadGetgemsSaleListing } from '../bodies/GetgemsSaleStateInit.js';

/*
 * The getgems fixed-price sale reader against the contracts themselves: each version's real code
 * (fixtures/contracts/getgems_nft_fix_price_sale_*.code.boc, MANIFEST.md) with data built in the layout its source
 * stores (getgems-io/nft-contracts sources/nft-fixprice-sale-*.fc `save_data`), run on the real TVM; what the
 * reader gives must be what the contract's own get-method answers (`get_sale_data`, v4r1 `get_fix_price_data_v4`),
 * the methods TON Center’s detector runs; and the listing read from a deploying StateInit of the same data.
 */

const NONE = { inOps: new Set<number>(), outOps: new Set<number>() };
const SELF = '0:' + 'AB'.repeat(32);
const MARKETPLACE = Address.parseRaw('0:' + '11'.repeat(32));
const NFT = Address.parseRaw('0:' + '22'.repeat(32));
const OWNER = Address.parseRaw('0:' + '33'.repeat(32));
const FEE = Address.parseRaw('0:' + '44'.repeat(32));
const ROYALTY = Address.parseRaw('0:' + '55'.repeat(32));
const raw = rawOf;

let gm: GetMethodRunner;
beforeAll(async () => {
  gm = await createGetMethodRunner();
});
afterAll(async () => {
  await gm?.close();
});

const getMethod = (code: Cell, data: Cell, name: string): Promise<{ exitCode: number; stack: TupleItem[] }> => gm.run(code, data, name, SELF);

const int = tupleInt;
const addr = tupleAddr;

const code = (file: string): Cell => Cell.fromBoc(readFixture(`contracts/${file}`))[0]!;

interface Sale {
  complete: boolean;
  createdAt: number;
  owner: Address | null;
  price: bigint;
  fee: bigint;
  royalty: bigint;
}

/** v2…v3r3 `save_data`: the v2 fields, then the version's tail. */
function dataV2V3(version: 'v2' | 'v3' | 'v3r2' | 'v3r3', s: Sale): Cell {
  const fees = beginCell().storeAddress(FEE).storeCoins(s.fee).storeAddress(ROYALTY).storeCoins(s.royalty).endCell();
  const b = beginCell().storeUint(s.complete ? 1 : 0, 1).storeUint(s.createdAt, 32).storeAddress(MARKETPLACE).storeAddress(NFT).storeAddress(s.owner).storeCoins(s.price).storeRef(fees);
  if (version === 'v3' || version === 'v3r2') b.storeUint(0, 1);
  if (version === 'v3r3') b.storeUint(0, 32).storeUint(0, 64);
  return b.endCell();
}

/** v4r1 `save_data` (fee and royalty as percent × 100,000, 17 bits each). */
function dataV4(s: Sale): Cell {
  const st = beginCell().storeAddress(FEE).storeAddress(ROYALTY).storeUint(s.fee, 17).storeUint(s.royalty, 17).storeAddress(NFT).storeUint(s.createdAt, 32).endCell();
  return beginCell().storeUint(s.complete ? 1 : 0, 1).storeAddress(MARKETPLACE).storeAddress(s.owner).storeCoins(s.price).storeUint(0, 32).storeUint(0, 64).storeRef(st).storeDict(null).endCell();
}

const FILES = {
  v2: 'getgems_nft_fix_price_sale_v2.code.boc',
  v3: 'getgems_nft_fix_price_sale_v3.code.boc',
  v3r2: 'getgems_nft_fix_price_sale_v3_r2.code.boc',
  v3r3: 'getgems_nft_fix_price_sale_v3_r3.code.boc',
} as const;

const SALES: Sale[] = [
  { complete: false, createdAt: 1_700_000_123, owner: OWNER, price: 12_500_000_000n, fee: 625_000_000n, royalty: 1_250_000_000n },
  { complete: true, createdAt: 1_650_000_000, owner: OWNER, price: 1_000_000_000n, fee: 50_000_000n, royalty: 0n },
  // Before the NFT arrives the owner is addr_none.
  { complete: false, createdAt: 1_700_000_000, owner: null, price: 3_000_000_000n, fee: 150_000_000n, royalty: 300_000_000n },
];

describeFixtures('getgems fixed-price sale facts against the contracts’ own get-methods (real TVM)', () => {
  for (const [version, file] of Object.entries(FILES) as [keyof typeof FILES, string][]) {
    it(`${version}: every field get_sale_data answers`, async () => {
      const c = code(file);
      expect(getgemsSaleVersion(c.hash().toString('hex'))).toBe(version);
      for (const sale of SALES) {
        const data = dataV2V3(version, sale);
        const { exitCode, stack } = await getMethod(c, data, 'get_sale_data');
        expect(exitCode).toBe(0);
        expect(int(stack[0])).toBe(0x46495850n); // "FIXP"
        const facts = accountFacts(SELF, { codeHash: c.hash().toString('base64'), dataBoc: data.toBoc().toString('base64') }, NONE)?.nftSale;
        expect(facts).toEqual({
          address: SELF,
          version,
          isComplete: int(stack[1]) !== 0n,
          createdAt: Number(int(stack[2])),
          marketplace: addr(stack[3]),
          nft: addr(stack[4]),
          owner: addr(stack[5]),
          fullPrice: int(stack[6]),
          marketplaceFeeAddress: addr(stack[7]),
          marketplaceFee: int(stack[8]),
          royaltyAddress: addr(stack[9]),
          royaltyAmount: int(stack[10]),
        });
        // The values the data was built with (so the comparison above is not between two identical mistakes).
        expect([facts?.owner, facts?.fullPrice, facts?.royaltyAmount]).toEqual([sale.owner ? raw(sale.owner) : null, sale.price, sale.royalty]);
        // The listing the classifier reads from a deploying message's StateInit of the same data.
        const init = beginCell().store(storeStateInit({ code: c, data })).endCell().toBoc().toString('base64');
        expect(loadGetgemsSaleListing(init, version)).toEqual({
          marketplace: addr(stack[3]),
          fullPrice: int(stack[6]),
          marketplaceFeeAddress: addr(stack[7]),
          marketplaceFee: int(stack[8]),
          royaltyAddress: addr(stack[9]),
          royaltyAmount: int(stack[10]),
        });
      }
    });
  }

  it('v4r1: every field get_fix_price_data_v4 answers, fee and royalty as its percentages', async () => {
    const c = code('getgems_nft_fix_price_sale_v4_r1.code.boc');
    expect(getgemsSaleVersion(c.hash().toString('base64'))).toBe('v4r1');
    for (const sale of [
      { ...SALES[0]!, fee: 5_000n, royalty: 10_000n },
      { ...SALES[2]!, fee: 2_500n, royalty: 0n },
    ]) {
      const data = dataV4(sale);
      const { exitCode, stack } = await getMethod(c, data, 'get_fix_price_data_v4');
      expect(exitCode).toBe(0);
      const facts = getgemsSaleFacts(SELF, c.hash().toString('hex'), data.toBoc().toString('base64'));
      expect(facts).toEqual({
        address: SELF,
        version: 'v4r1',
        isComplete: int(stack[0]) !== 0n,
        createdAt: Number(int(stack[1])),
        marketplace: addr(stack[2]),
        nft: addr(stack[3]),
        owner: addr(stack[4]),
        fullPrice: int(stack[5]),
        marketplaceFeeAddress: addr(stack[6]),
        marketplaceFee: int(stack[7]),
        royaltyAddress: addr(stack[8]),
        royaltyAmount: int(stack[9]),
      });
      expect([facts?.nft, facts?.marketplaceFee]).toEqual([raw(NFT), sale.fee]);
      // As TON Center's state-init reader: no amounts from a v4r1 listing (its fees are percentages).
      const init = beginCell().store(storeStateInit({ code: c, data })).endCell().toBoc().toString('base64');
      expect(loadGetgemsSaleListing(init, 'v4r1')).toEqual({
        marketplace: addr(stack[2]),
        fullPrice: int(stack[5]),
        marketplaceFeeAddress: addr(stack[6]),
        marketplaceFee: null,
        royaltyAddress: addr(stack[8]),
        royaltyAmount: null,
      });
    }
  });

  it('v3r3: no sale where get_sale_data fails (the seller would get nothing: exit code 409)', async () => {
    const c = code(FILES.v3r3);
    const data = dataV2V3('v3r3', { ...SALES[0]!, price: 1_000n, fee: 600n, royalty: 400n });
    expect((await getMethod(c, data, 'get_sale_data')).exitCode).toBe(409);
    expect(getgemsSaleFacts(SELF, c.hash().toString('hex'), data.toBoc().toString('base64'))).toBeNull();
  });

  it('data in another version’s layout is no sale (the get-method cannot load it either)', async () => {
    const c = code(FILES.v3);
    const data = dataV2V3('v2', SALES[0]!); // without v3's can_deploy_by_external bit
    expect((await getMethod(c, data, 'get_sale_data')).exitCode).not.toBe(0);
    expect(getgemsSaleFacts(SELF, c.hash().toString('hex'), data.toBoc().toString('base64'))).toBeNull();
  });

  it('the root bits alone (fees never seen whole): the root fields, no fees; a v4r1 sale (NFT in the reference) nothing', () => {
    const c = code(FILES.v3r2);
    const bits = (cell: Cell): string => {
      const s = cell.beginParse();
      return beginCell().storeBits(s.loadBits(s.remainingBits)).endCell().toBoc().toString('base64');
    };
    const facts = getgemsSaleFacts(SELF, c.hash().toString('hex'), bits(dataV2V3('v3r2', SALES[0]!)));
    expect(facts).toEqual({ address: SELF, version: 'v3r2', isComplete: false, createdAt: SALES[0]!.createdAt, marketplace: raw(MARKETPLACE), nft: raw(NFT), owner: raw(OWNER), fullPrice: SALES[0]!.price });
    const v4 = code('getgems_nft_fix_price_sale_v4_r1.code.boc');
    expect(getgemsSaleFacts(SELF, v4.hash().toString('hex'), bits(dataV4({ ...SALES[0]!, fee: 5_000n, royalty: 10_000n })))).toBeNull();
  });

  it('the action stage reads the data of every getgems sale code (and every such code is a known nft_sale)', () => {
    for (const file of [...Object.values(FILES), 'getgems_nft_fix_price_sale_v4_r1.code.boc']) {
      const hash = code(file).hash().toString('hex');
      expect(factsNeedData(hash, NONE)).toBe(true);
      expect(KNOWN_CODES.find((k) => k.codeHash === hash)?.kind).toBe('nft_sale');
    }
    // tonweb's sale (no "FIXP" get_sale_data) is not one TON Center's detector reads.
    expect(getgemsSaleVersion(code('nft_sale_tonweb.code.boc').hash().toString('hex'))).toBeNull();
  });
});
