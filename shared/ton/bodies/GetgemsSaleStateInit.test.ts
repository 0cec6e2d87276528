import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Address, beginCell, type Cell, storeStateInit } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { describeFixtures, fixturesDir } from '../../../test/helpers/fixtures.js';
import { parseCorpusTrace } from '../actions/corpus.js';
import { loadGetgemsSaleListing, saleListingVersion } from './GetgemsSaleStateInit.js';

/*
 * The listing of a getgems sale read from its deploying state init, in the layout of the sale's version. Data cells
 * are written from getgems-io/nft-contracts' storage (`save_data` / `load_fees` of nft-fixprice-sale.fc for v1,
 * nft-fixprice-sale-v3r3.fc for v3r3); the version of a code hash is TON Center's `SALE_VERSION_MAPPING` (base64 hashes
 * of messages/getgems.py), an unknown hash being read as v4r1 there.
 */

const MARKETPLACE = '0:584EE61B2DFF0837116D0FCB5078D93964BCBE9C05FD6A141B1BFCA5D6A43E18';
const NFT = '0:5B305583F6F4C1ADCA54FD9EE6ADB8F065819F4A1D5D054B2E4B3677D90F5095';
const FEE = '0:1111111111111111111111111111111111111111111111111111111111111111';
const ROYALTY = '0:2222222222222222222222222222222222222222222222222222222222222222';
const A = (s: string) => Address.parseRaw(s);

const stateInit = (data: Cell): string => beginCell().store(storeStateInit({ code: beginCell().endCell(), data })).endCell().toBoc().toString('base64');

describe('loadGetgemsSaleListing', () => {
  it('v1 (nft-fixprice-sale.fc): no flag or creation time, the fee before its address', () => {
    const fees = beginCell().storeCoins(50_000_000n).storeAddress(A(FEE)).storeAddress(A(ROYALTY)).storeCoins(70_000_000n).endCell();
    // Before the NFT arrives the owner is addr_none (the contract's is_initialized test).
    const data = beginCell().storeAddress(A(MARKETPLACE)).storeAddress(A(NFT)).storeUint(0, 2).storeCoins(1_350_000_000n).storeRef(fees).endCell();
    expect(loadGetgemsSaleListing(stateInit(data), 'v1')).toEqual({
      marketplace: MARKETPLACE,
      fullPrice: 1_350_000_000n,
      marketplaceFeeAddress: FEE,
      marketplaceFee: 50_000_000n,
      royaltyAddress: ROYALTY,
      royaltyAmount: 70_000_000n,
    });
    // Read as v2…v3r3 the same cell misses its fields (the flag and time shift everything): it does not read.
    expect(() => loadGetgemsSaleListing(stateInit(data), 'v3r3')).toThrow();
  });

  it('v3r3: the flag and creation time first, the fee address before the fee', () => {
    const fees = beginCell().storeAddress(A(FEE)).storeCoins(50_000_000n).storeAddress(A(ROYALTY)).storeCoins(70_000_000n).endCell();
    const data = beginCell()
      .storeUint(0, 1)
      .storeUint(1_700_000_000, 32)
      .storeAddress(A(MARKETPLACE))
      .storeAddress(A(NFT))
      .storeUint(0, 2)
      .storeCoins(1_350_000_000n)
      .storeRef(fees)
      .storeUint(0, 32)
      .storeUint(0n, 64)
      .endCell();
    expect(loadGetgemsSaleListing(stateInit(data), 'v3r3')).toMatchObject({ marketplace: MARKETPLACE, fullPrice: 1_350_000_000n, marketplaceFee: 50_000_000n, royaltyAmount: 70_000_000n });
  });
});

describe('saleListingVersion (TON Center SALE_VERSION_MAPPING)', () => {
  it.each([
    ['2pufziLofEllctIDZSWVebzO+RpyA1fMvowFLvyb4I8=', 'v1'],
    ['gnj0xSM95vvtyWmvUZNEp6m//FRIVtuphqlcC8+Fcck=', 'v2'],
    ['MgUN+sRPZIZrzIbyzZ4TBf6dyts5WcACI3z7CQLUQyM=', 'v3'],
    ['3rU7bFdlwebNI4v0e8XoO6WWvcwEsLhM1Qqx5HSgjzE=', 'v3r2'],
    ['JCIfpXHlQuBVx3vt/b9SfHr0YM/cfzRMRQeHtM+h600=', 'v3r3'],
    ['a5WmQYucnSNZBF0edVm41UmuDlBvJMqrWPowyPsf64Y=', 'v4r1'],
    // An unknown code: the latest version.
    ['i1/8nr/TkGTY1fVuRlnIJrt1k5I/XKSHKL5NYK9vUfk=', 'v4r1'],
  ])('%s → %s', (hash, version) => {
    expect(saleListingVersion(hash)).toBe(version);
    expect(saleListingVersion(Buffer.from(hash, 'base64').toString('hex').toUpperCase())).toBe(version);
  });
});

describeFixtures('corpus interfaces: a sale record with its code hash', () => {
  it("gives the sale the layout of its code (a record without one leaves it to the matcher's v4r1)", () => {
    const doc = JSON.parse(readFileSync(path.join(fixturesDir, 'action-corpus', 'traces', 'mG5NGg-37hpz1Vgs5KvDo0HKgtQKCnMbmGEpdApY5Ls=.json'), 'utf8'));
    const sale = '0:CE0F98F6992B7CABE64489E9A9F0CDDDA848F1D9223E5C1B4EF0A1FDE5605C4F';
    expect(parseCorpusTrace(doc).repo(sale)?.nftSale?.version).toBeUndefined();
    const entry = Object.entries(doc.interfaces as Record<string, any>).find(([, v]) => v?.NftSale)!;
    entry[1].NftSale.code_hash = 'JCIfpXHlQuBVx3vt/b9SfHr0YM/cfzRMRQeHtM+h600=';
    expect(parseCorpusTrace(doc).repo(sale)?.nftSale?.version).toBe('v3r3');
  });
});
