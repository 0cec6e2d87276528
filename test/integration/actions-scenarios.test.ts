import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenesisAccount } from '../../shared/sources/devnet/chain.js';
import { type StoredAction, actionDetails } from '../../shared/ton/actions/api.js';
import { type DCell, DBuilder, EMPTY_CELL, parseBocRoot } from '../../shared/sources/devnet/cell.js';
import { TON } from '../../shared/sources/devnet/genesis.js';
import type { StdAddr } from '../../shared/sources/devnet/tlb.js';
import { type Wallet, contractAddress, contractCode, externalMessage, signHash, stateInit } from '../../shared/sources/devnet/wallets.js';
import { type ChainScenario, type IndexedScenario, type SentExternal, chainScenario, rawAddress } from '../helpers/chain-traces.js';
import { readFixture } from '../helpers/fixtures.js';

/*
 * Matchers with no case in the local action corpus, checked on traces of the real contracts on a devnet chain (real
 * TVM) through the embedded pipeline's trace and action stages (test/helpers/chain-traces.ts). Every expected value
 * is what the scenario drove: who sent which message to whom, the record and value it set, the amounts in the
 * subscription's data.
 *
 *  - DNS records (dns-contract func/nft-item.fc, `op::change_dns_record`): a .ton domain item of the genesis DNS
 *    collection, added to the genesis already owned by a wallet; the owner sets records of each kind (change_dns),
 *    removes one (delete_dns) and sends the zero key without a value, which only refreshes `last_fill_up_time`
 *    (renew_dns); another wallet's attempt is refused by the item (a failed change_dns).
 *  - NFT discovery (TEP-62 `get_static_data` → `report_static_data`) on a genesis NFT item and on the DNS item.
 *  - Subscriptions: the wallet v4r2 plugin flow (ton-blockchain/wallet-contract wallet-v4-code.fc, op 1 "deploy and
 *    install plugin", op 3 "remove plugin"; simple-subscription-plugin.fc, the code of
 *    ../shared/fixtures/contracts/subscription_v1_tonweb.code.boc): the first payment sent with the deployment,
 *    a later payment the plugin requests itself, and the removal.
 * Where a test also checks the API v3 `details`, the layout is ton-index-go's (index/parse/actions.go, models).
 */

const SUBSCRIPTION_CODE = parseBocRoot(readFixture('contracts/subscription_v1_tonweb.code.boc'));

const DNS_DOMAIN = 'tonflow-devnet';
const DNS_TEXT = 'tonflow devnet record';
const SUB_AMOUNT = 2n * TON;
const SUB_PERIOD = 40;
const SUB_DEPLOY_VALUE = 3n * TON;

const cell = (fill: (b: DBuilder) => void): DCell => {
  const b = new DBuilder();
  fill(b);
  return b.endCell();
};
/** TEP-81 category key: sha256 of the category name. */
const categoryKey = (name: string): Buffer => createHash('sha256').update(name).digest();
const queryBody = (op: number, queryId: bigint): DCell =>
  cell((b) => {
    b.storeUint(op, 32);
    b.storeUint(queryId, 64);
  });

/** `change_dns_record#4eb1f0f9 query_id:uint64 key:bits256 value:(Maybe ^DNSRecord)` as dns-contract reads it (value = a reference). */
function changeDnsRecord(queryId: bigint, key: Uint8Array, value: DCell | null): DCell {
  return cell((b) => {
    b.storeUint(0x4eb1f0f9, 32);
    b.storeUint(queryId, 64);
    b.storeBytes(key);
    if (value) b.storeRef(value);
  });
}

/**
 * The data of an initialised .ton domain item (dns-contract func/nft-item.fc `store_data`): `index:uint256
 * collection_address owner_address content:^Cell domain:^Cell auction:(Maybe ^Cell) last_fill_up_time:uint64`, the
 * content being on-chain (`uint8 0` + the record dictionary); no auction, so the owner holds it.
 */
function dnsItemData(index: bigint, collection: StdAddr, owner: StdAddr, domain: DCell, lastFillUp: number): DCell {
  return cell((b) => {
    b.storeUint(index, 256);
    b.storeAddress(collection);
    b.storeAddress(owner);
    b.storeRef(
      cell((c) => {
        c.storeUint(0, 8);
        c.storeBit(0);
      }),
    );
    b.storeRef(domain);
    b.storeBit(0);
    b.storeUint(lastFillUp, 64);
  });
}

/**
 * simple-subscription-plugin.fc storage: `wallet beneficiary amount:Grams period:uint32 start_time:uint32
 * timeout:uint32 last_payment_time:uint32 last_request_time:uint32 failed_attempts:uint8 subscription_id:uint32`.
 */
function subscriptionData(wallet: StdAddr, beneficiary: StdAddr, startTime: number): DCell {
  return cell((b) => {
    b.storeAddress(wallet);
    b.storeAddress(beneficiary);
    b.storeCoins(SUB_AMOUNT);
    b.storeUint(SUB_PERIOD, 32);
    b.storeUint(startTime, 32);
    b.storeUint(1, 32); // timeout
    b.storeUint(0, 32);
    b.storeUint(0, 32);
    b.storeUint(0, 8);
    b.storeUint(7, 32);
  });
}

/**
 * A signed wallet v4r2 external with a plugin op (wallet-v4-code.fc `recv_external`): `subwallet_id valid_until
 * msg_seqno op:uint8` and the op's fields.
 */
function v4PluginExternal(w: Wallet, seqno: number, now: number, fill: (b: DBuilder) => void): DCell {
  const s = new DBuilder();
  s.storeUint(w.subwalletId, 32);
  s.storeUint(now + 600, 32);
  s.storeUint(seqno, 32);
  fill(s);
  const signed = s.endCell();
  const b = new DBuilder();
  b.storeBytes(signHash(w.key, signed.hash()));
  b.storeCellContent(signed);
  return externalMessage(w.address, b.endCell());
}

let s: ChainScenario;
let ix: IndexedScenario;
let dnsOwner: Wallet;
let dnsItem: StdAddr;
let dnsIndex: bigint;
let genesisTime: number;
let discoverer: Wallet;
let subscriber: Wallet;
let beneficiary: Wallet;
let plugin: StdAddr;
const sent: Record<string, SentExternal> = {};
const adnl = Buffer.from('5a'.repeat(32), 'hex');

beforeAll(async () => {
  const domain = cell((b) => b.storeBytes(Buffer.from(DNS_DOMAIN, 'utf8')));
  // nft-collection.fc deploy_nft_item: item index = slice_hash(domain), init data `index:uint256 collection`.
  dnsIndex = BigInt(`0x${Buffer.from(domain.hash()).toString('hex')}`);
  s = await chainScenario({
    seed: 'actions-scenarios',
    extraAccounts: (actors, now): GenesisAccount[] => {
      genesisTime = now;
      const itemCode = contractCode('dnsItem');
      const initData = cell((b) => {
        b.storeUint(dnsIndex, 256);
        b.storeAddress(actors.dns.collection);
      });
      dnsItem = contractAddress(0, itemCode, initData);
      const owner = actors.wallets[6]!;
      return [{ workchain: 0, hash: dnsItem.hash, code: itemCode, data: dnsItemData(dnsIndex, actors.dns.collection, owner.address, domain, now), balance: 5n * TON }];
    },
  });
  const w = s.actors.wallets;
  dnsOwner = w[6]!;
  discoverer = w[8]!;
  subscriber = w[10]!;
  beneficiary = w[9]!;
  expect([dnsOwner.kind, discoverer.kind, subscriber.kind, beneficiary.kind]).toEqual(['v3r2', 'v5r1', 'v4r2', 'v3r2']);

  const toItem = (body: DCell) => [{ to: dnsItem, value: TON / 10n, bounce: true, body }];
  const smcValue = cell((b) => {
    b.storeUint(0x9fd3, 16); // dns_smc_address
    b.storeAddress(beneficiary.address);
    b.storeUint(0, 8); // flags: no cap_list
  });
  const adnlValue = cell((b) => {
    b.storeUint(0xad01, 16); // dns_adnl_address
    b.storeBytes(adnl);
    b.storeUint(0, 8); // flags: no proto_list
  });
  sent.changeSmc = await s.send(dnsOwner, toItem(changeDnsRecord(11n, categoryKey('wallet'), smcValue)));
  sent.changeAdnl = await s.send(dnsOwner, toItem(changeDnsRecord(12n, categoryKey('site'), adnlValue)));
  const resolverValue = cell((b) => {
    b.storeUint(0xba93, 16); // dns_next_resolver
    b.storeAddress(s.actors.dns.collection);
  });
  const textValue = cell((b) => {
    b.storeUint(0x1eda, 16); // dns_text: one chunk
    b.storeUint(1, 8);
    b.storeUint(Buffer.byteLength(DNS_TEXT), 8);
    b.storeBytes(Buffer.from(DNS_TEXT, 'utf8'));
  });
  sent.changeResolver = await s.send(dnsOwner, toItem(changeDnsRecord(15n, categoryKey('dns_next_resolver'), resolverValue)));
  sent.changeText = await s.send(dnsOwner, toItem(changeDnsRecord(16n, categoryKey('text'), textValue)));
  // Not the owner: the item refuses (exit code 411) and bounces the message.
  sent.changeRefused = await s.send(discoverer, toItem(changeDnsRecord(17n, categoryKey('wallet'), smcValue)));
  sent.delete = await s.send(dnsOwner, toItem(changeDnsRecord(13n, categoryKey('wallet'), null)));
  sent.renew = await s.send(dnsOwner, toItem(changeDnsRecord(14n, Buffer.alloc(32), null)));

  sent.discoverNft = await s.send(discoverer, [{ to: s.actors.nft.itemAddress(5), value: TON / 10n, bounce: true, body: queryBody(0x2fcb26a2, 21n) }]);
  sent.discoverDns = await s.send(discoverer, [{ to: dnsItem, value: TON / 10n, bounce: true, body: queryBody(0x2fcb26a2, 22n) }]);

  // The subscriber's wallet takes only plugin externals here, so its seqno is counted locally.
  const init = stateInit(SUBSCRIPTION_CODE, subscriptionData(subscriber.address, beneficiary.address, genesisTime));
  plugin = { workchain: 0, hash: init.hash() };
  sent.subscribeDeploy = await s.sendExternal(
    v4PluginExternal(subscriber, 0, s.now, (b) => {
      b.storeUint(1, 8); // deploy and install plugin
      b.storeInt(0, 8);
      b.storeCoins(SUB_DEPLOY_VALUE);
      b.storeRef(init);
      // tonweb SubscriptionContract.createBody: the payment op, as the wallet answers a request.
      b.storeRef(cell((c) => c.storeUint(0xf06c7567, 32)));
    }),
  );
  // The next payment is due in the next period; the plugin asks the wallet for it on any external message.
  await s.tick(SUB_PERIOD);
  sent.subscribeRequest = await s.sendExternal(externalMessage(plugin, EMPTY_CELL));
  sent.unsubscribe = await s.sendExternal(
    v4PluginExternal(subscriber, 1, s.now, (b) => {
      b.storeUint(3, 8); // remove plugin
      b.storeInt(plugin.workchain, 8);
      b.storeBytes(plugin.hash);
      b.storeCoins(TON / 20n);
      b.storeUint(31n, 64);
    }),
  );
  ix = await s.index();
}, 600_000);

afterAll(async () => {
  await ix?.close();
  s?.close();
});

/** The one action of `type` in the trace `sent` started. */
function only(sentExt: SentExternal | undefined, type: string): Record<string, unknown> {
  const actions = ix.actionsOf(sentExt!);
  const of = actions.filter((a) => a.type === type);
  expect(of, `${type} among ${actions.map((a) => a.type).join(', ')}`).toHaveLength(1);
  return of[0]!;
}

/** The action's API v3 `details`, as ton-index-go's ParseRawAction spreads the stored row (shared/ton/actions/api.ts). */
const details = (a: Record<string, unknown>) => actionDetails(a as unknown as StoredAction);

describe('DNS records on a .ton domain item', () => {
  it('a record set by the owner is change_dns with its key and the smart-contract address value', () => {
    const a = only(sent.changeSmc, 'change_dns');
    expect(a.success).toBe(true);
    expect(a['source']).toBe(rawAddress(dnsOwner.address));
    expect(a['destination']).toBe(rawAddress(dnsItem));
    expect(a['asset']).toBe(rawAddress(s.actors.dns.collection));
    expect(a['change_dns_record_data']).toEqual({
      key: categoryKey('wallet').toString('hex'),
      value_schema: 'DNSSmcAddress',
      value: rawAddress(beneficiary.address),
      flags: 0,
      address: null,
    });
    expect(details(a)).toEqual({
      key: categoryKey('wallet').toString('hex'),
      value: { sum_type: 'DNSSmcAddress', dns_smc_address: rawAddress(beneficiary.address), dns_adnl_address: null, dns_text: null, dns_next_resolver_address: null, dns_storage_address: null, flags: 0 },
      source: rawAddress(dnsOwner.address),
      asset: rawAddress(dnsItem),
      nft_collection: rawAddress(s.actors.dns.collection),
    });
  });

  it('an ADNL record is change_dns with the address in hex and its flags', () => {
    const a = only(sent.changeAdnl, 'change_dns');
    expect(a.success).toBe(true);
    expect(a['change_dns_record_data']).toEqual({ key: categoryKey('site').toString('hex'), value_schema: 'DNSAdnlAddress', value: adnl.toString('hex'), flags: 0, address: null });
  });

  it('a next-resolver record is change_dns with the resolver address', () => {
    const a = only(sent.changeResolver, 'change_dns');
    expect(a.success).toBe(true);
    expect(a['change_dns_record_data']).toEqual({
      key: categoryKey('dns_next_resolver').toString('hex'),
      value_schema: 'DNSNextResolver',
      value: rawAddress(s.actors.dns.collection),
      flags: null,
      address: null,
    });
  });

  it('a text record is change_dns with the text', () => {
    const a = only(sent.changeText, 'change_dns');
    expect(a.success).toBe(true);
    expect(a['change_dns_record_data']).toEqual({ key: categoryKey('text').toString('hex'), value_schema: 'DNSText', value: DNS_TEXT, flags: null, address: null });
    // ton-index-go's ParseRawAction puts a DNSText value under dns_storage_address.
    expect(details(a)?.['value']).toEqual({ sum_type: 'DNSText', dns_smc_address: null, dns_adnl_address: null, dns_text: null, dns_next_resolver_address: null, dns_storage_address: DNS_TEXT, flags: null });
  });

  it('a record sent by someone else than the owner is a failed change_dns from that sender', () => {
    const a = only(sent.changeRefused, 'change_dns');
    expect(a.success).toBe(false);
    expect(a['source']).toBe(rawAddress(discoverer.address));
    expect(a['destination']).toBe(rawAddress(dnsItem));
    expect(a['asset']).toBe(rawAddress(s.actors.dns.collection));
  });

  it('a record sent without a value is delete_dns with its key', () => {
    const a = only(sent.delete, 'delete_dns');
    expect(a.success).toBe(true);
    expect(a['source']).toBe(rawAddress(dnsOwner.address));
    expect(a['destination']).toBe(rawAddress(dnsItem));
    expect(a['asset']).toBe(rawAddress(s.actors.dns.collection));
    expect(a['change_dns_record_data']).toEqual({ key: categoryKey('wallet').toString('hex'), value_schema: null, flags: null, address: null });
    expect(details(a)).toEqual({ hash: categoryKey('wallet').toString('hex'), source: rawAddress(dnsOwner.address), asset: rawAddress(dnsItem), nft_collection: rawAddress(s.actors.dns.collection) });
  });

  it('the zero key without a value is renew_dns', () => {
    const a = only(sent.renew, 'renew_dns');
    expect(a.success).toBe(true);
    expect(a['source']).toBe(rawAddress(dnsOwner.address));
    expect(a['destination']).toBe(rawAddress(dnsItem));
    expect(a['asset']).toBe(rawAddress(s.actors.dns.collection));
    expect(details(a)).toEqual({ source: rawAddress(dnsOwner.address), asset: rawAddress(dnsItem), nft_collection: rawAddress(s.actors.dns.collection) });
  });
});

describe('NFT discovery', () => {
  it('get_static_data answered by report_static_data is nft_discovery of the item, its collection and index', () => {
    const a = only(sent.discoverNft, 'nft_discovery');
    expect(a.success).toBe(true);
    expect(a['source']).toBe(rawAddress(discoverer.address));
    expect(a['asset_secondary']).toBe(rawAddress(s.actors.nft.itemAddress(5)));
    expect(a['asset']).toBe(rawAddress(s.actors.nft.collection));
    expect(String((a['nft_transfer_data'] as Record<string, unknown>)['nft_item_index'])).toBe('5');
    expect(details(a)).toEqual({ source: rawAddress(discoverer.address), nft_item: rawAddress(s.actors.nft.itemAddress(5)), nft_collection: rawAddress(s.actors.nft.collection), nft_item_index: '5' });
  });

  it('on a DNS item, the index is the 256-bit hash of the domain', () => {
    const a = only(sent.discoverDns, 'nft_discovery');
    expect(a['asset_secondary']).toBe(rawAddress(dnsItem));
    expect(a['asset']).toBe(rawAddress(s.actors.dns.collection));
    expect(String((a['nft_transfer_data'] as Record<string, unknown>)['nft_item_index'])).toBe(dnsIndex.toString());
  });
});

describe('wallet v4 subscription plugin', () => {
  it('the first payment, sent with the plugin deployment, is subscribe for the value the wallet sent', () => {
    const a = only(sent.subscribeDeploy, 'subscribe');
    expect(a.success).toBe(true);
    expect(a['source']).toBe(rawAddress(subscriber.address));
    expect(a['destination']).toBe(rawAddress(beneficiary.address));
    expect(a['destination_secondary']).toBe(rawAddress(plugin));
    expect(String(a['amount'])).toBe(String(SUB_DEPLOY_VALUE));
  });

  it('a payment the plugin requests is subscribe for the amount requested', () => {
    const a = only(sent.subscribeRequest, 'subscribe');
    expect(a.success).toBe(true);
    expect(a['source']).toBe(rawAddress(subscriber.address));
    expect(a['destination']).toBe(rawAddress(beneficiary.address));
    expect(a['destination_secondary']).toBe(rawAddress(plugin));
    expect(String(a['amount'])).toBe(String(SUB_AMOUNT));
    expect(details(a)).toEqual({ subscriber: rawAddress(subscriber.address), beneficiary: rawAddress(beneficiary.address), subscription: rawAddress(plugin), amount: String(SUB_AMOUNT) });
  });

  it('the plugin removed by the wallet is unsubscribe, the plugin paying out to the beneficiary', () => {
    const a = only(sent.unsubscribe, 'unsubscribe');
    expect(a.success).toBe(true);
    expect(a['source']).toBe(rawAddress(subscriber.address));
    expect(a['destination']).toBe(rawAddress(beneficiary.address));
    expect(a['destination_secondary']).toBe(rawAddress(plugin));
    // No amount: ton-index-go omits it (`amount,omitempty`).
    expect(details(a)).toEqual({ subscriber: rawAddress(subscriber.address), beneficiary: rawAddress(beneficiary.address), subscription: rawAddress(plugin) });
  });
});
