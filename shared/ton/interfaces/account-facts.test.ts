import { Address, Cell, Dictionary, type TupleItem, beginCell } from '@ton/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type GetMethodRunner, createGetMethodRunner, rawOf, tupleAddr, tupleInt } from '../../../test/helpers/get-method.js';
import { describeFixtures, readFixture } from '../../../test/helpers/fixtures.js';
import { DNS_ITEM_CODE_HASH } from '../actions/auctions.js';
import { accountFacts, factsNeedData } from './account-facts.js';
import { interfacesOfCode } from './repository.js';

/*
 * What accountFacts reads from a jetton wallet's, NFT item's or multisig order's data, against what the contract itself answers: the
 * real code (fixtures/contracts, MANIFEST.md) run on the real TVM with the same data, its get_wallet_data /
 * get_nft_data (TEP-74, TEP-62) giving the owner, master, collection and index the classifier must see.
 */

const NONE = { inOps: new Set<number>(), outOps: new Set<number>() };
const SELF = '0:' + 'AB'.repeat(32);
const OWNER = Address.parseRaw('0:' + '11'.repeat(32));
const MASTER = Address.parseRaw('0:' + '22'.repeat(32));
const COLLECTION = Address.parseRaw('0:' + '33'.repeat(32));
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
const codeHash = (code: Cell): string => code.hash().toString('base64');

describeFixtures('account facts against the contracts’ own get-methods (real TVM)', () => {
  it('a reference (tonweb) jetton wallet: owner, master and balance as get_wallet_data answers', async () => {
    const code = Cell.fromBoc(readFixture('contracts/jetton_wallet_tonweb_standard.code.boc'))[0]!;
    const data = beginCell().storeCoins(123_456_789n).storeAddress(OWNER).storeAddress(MASTER).storeRef(code).endCell();
    const [balance, owner, master] = await getMethod(code, data, 'get_wallet_data');
    const facts = accountFacts(SELF, { codeHash: codeHash(code), dataBoc: data.toBoc().toString('base64') }, NONE);
    expect(facts?.jettonWallet).toEqual({ address: SELF, owner: addr(owner!), jetton: addr(master!), balance: int(balance!) });
    expect(facts?.jettonWallet?.owner).toBe(raw(OWNER));
  });

  it('a governed (stablecoin) jetton wallet, whose data starts with a status: owner, master and balance as get_wallet_data answers', async () => {
    const code = Cell.fromBoc(readFixture('contracts/stablecoin_jetton_wallet.code.boc'))[0]!;
    const data = beginCell().storeUint(0, 4).storeCoins(987_654_321n).storeAddress(OWNER).storeAddress(MASTER).endCell();
    const [balance, owner, master] = await getMethod(code, data, 'get_wallet_data');
    const facts = accountFacts(SELF, { codeHash: codeHash(code), dataBoc: data.toBoc().toString('base64') }, NONE);
    expect(facts?.jettonWallet).toEqual({ address: SELF, owner: addr(owner!), jetton: addr(master!), balance: int(balance!) });
    expect(facts?.jettonWallet?.jetton).toBe(raw(MASTER));
  });

  it('a reference (tonweb) NFT item: index, collection and owner as get_nft_data answers', async () => {
    const code = Cell.fromBoc(readFixture('contracts/nft_item_tonweb_standard.code.boc'))[0]!;
    const data = beginCell().storeUint(42, 64).storeAddress(COLLECTION).storeAddress(OWNER).storeRef(beginCell().storeStringTail('42.json').endCell()).endCell();
    const [init, index, collection, owner] = await getMethod(code, data, 'get_nft_data');
    const facts = accountFacts(SELF, { codeHash: codeHash(code), dataBoc: data.toBoc().toString('base64') }, NONE);
    expect(facts?.nftItem).toEqual({ address: SELF, index: int(index!), collection: addr(collection!), owner: addr(owner!), init: int(init!) !== 0n });
  });

  it('a multisig v2 order (known by its messages, its code being a library reference): multisig and signers as get_order_data answers', async () => {
    const code = Cell.fromBoc(readFixture('contracts/multisig_v2_order.code.boc'))[0]!;
    const signers = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
    [OWNER, MASTER, COLLECTION].forEach((a, i) => signers.set(i, a));
    const data = beginCell()
      .storeAddress(MASTER)
      .storeUint(7n, 256)
      .storeUint(2, 8)
      .storeBit(0)
      .storeRef(beginCell().storeDictDirect(signers).endCell())
      .storeUint(1n, 256)
      .storeUint(1, 8)
      .storeUint(1_800_000_000, 48)
      .storeRef(beginCell().endCell())
      .endCell();
    const [multisig, , , , signersCell] = await getMethod(code, data, 'get_order_data');
    if (signersCell?.type !== 'cell') throw new Error('get_order_data: no signers cell');
    const answered = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), signersCell.cell.beginParse());
    const expected = { address: SELF, multisig: addr(multisig!), signers: answered.keys().sort((a, b) => a - b).map((k) => raw(answered.get(k)!)) };
    const byCode = accountFacts(SELF, { codeHash: codeHash(code), dataBoc: data.toBoc().toString('base64') }, NONE);
    expect(byCode?.multisigOrder).toEqual(expected);
    expect(expected.signers).toEqual([raw(OWNER), raw(MASTER), raw(COLLECTION)]);
    // The same order deployed with library-reference code: known from an `init` it took.
    const byInit = accountFacts(SELF, { codeHash: null, dataBoc: data.toBoc().toString('base64') }, { inOps: new Set([0x9c73fba2]), outOps: new Set() });
    expect(byInit?.multisigOrder).toEqual(expected);
  });

  it('a TON DNS item (index:uint256): index, collection and owner as get_nft_data answers, marked as a DNS item', async () => {
    const code = Cell.fromBoc(readFixture('contracts/dns_item_ton4j.code.boc'))[0]!;
    const index = BigInt('0x' + 'c3'.repeat(32));
    const content = beginCell().storeUint(0, 8).storeDict(null).endCell();
    const domain = beginCell().storeStringTail('alice').endCell();
    // dns-contract nft-item.fc store_data: index:uint256 collection owner ^content ^domain auction:(Maybe ^Cell) last_fill_up_time:uint64
    const data = beginCell().storeUint(index, 256).storeAddress(COLLECTION).storeAddress(OWNER).storeRef(content).storeRef(domain).storeMaybeRef(null).storeUint(1_759_000_000, 64).endCell();
    const [init, idx, collection, owner] = await getMethod(code, data, 'get_nft_data');
    const facts = accountFacts(SELF, { codeHash: codeHash(code), dataBoc: data.toBoc().toString('base64') }, NONE);
    expect(facts?.nftItem).toEqual({ address: SELF, index: int(idx!), collection: addr(collection!), owner: addr(owner!), init: int(init!) !== 0n, dns: true });
    expect(facts?.nftItem?.index).toBe(index);
    // The mainnet item's code, by the hash TON Center names, is read the same way.
    expect(interfacesOfCode(DNS_ITEM_CODE_HASH)).toEqual([{ name: 'dns_item', kind: 'dns_item' }]);
  });

  it('needs the data only of accounts whose code or messages show a jetton wallet or an NFT item', () => {
    const wallet = Cell.fromBoc(readFixture('contracts/jetton_wallet_tonweb_standard.code.boc'))[0]!;
    expect(factsNeedData(codeHash(wallet), NONE)).toBe(true);
    expect(factsNeedData(null, NONE)).toBe(false);
    expect(factsNeedData(null, { inOps: new Set([0x0f8a7ea5]), outOps: new Set() })).toBe(true); // TEP-74 transfer
    expect(factsNeedData(null, { inOps: new Set(), outOps: new Set([0x05138d91]) })).toBe(true); // TEP-62 ownership_assigned
    expect(factsNeedData(null, { inOps: new Set(), outOps: new Set([0x75097f5d]) })).toBe(true); // multisig v2 execute
    expect(factsNeedData(null, { inOps: new Set([0x12345678]), outOps: new Set() })).toBe(false);
  });
});
