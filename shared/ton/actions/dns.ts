import { BOUNCE, Matcher, OpMatcher, TypeMatcher } from './matcher.js';
import { AUCTION_FILL_UP, DNS_RELEASE_BALANCE, loadOptionalQueryId } from '../bodies/Auction.js';
import { DNS_CHANGE_RECORD, type DnsValue, loadDnsChangeRecord } from '../bodies/DnsChangeRecord.js';
import { isDnsItem } from './auctions.js';
import { Block } from './block.js';
import { isCall } from './basic.js';
import type { Family } from './classify.js';
import { type InterfaceRepository, nftItem } from './interfaces.js';
import { fillNftPurchase } from './nft.js';
import type { ActionRow } from './row.js';

/**
 * A domain won at auction (TON Center `DnsPurchaseMatcher`): the DNS item pays the winning bid to its collection
 * (`op::fill_up`) when the first message after the auction's end reaches it; that message's sender is the new owner.
 */
class DnsPurchaseMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ parent: new TypeMatcher('call_contract') });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, AUCTION_FILL_UP);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const trigger = others[0]!;
    const address = block.message.source;
    const item = nftItem(this.repo, address);
    if (item === null || !isDnsItem(item)) return [];
    const price = block.message.value === null ? null : BigInt(block.message.value);
    const nb = new Block('dns_purchase', [], {
      nftAddress: address,
      collection: item.collection,
      index: item.index,
      prevOwner: null,
      newOwner: trigger.message.source,
      queryId: loadOptionalQueryId(block.body()),
      forwardAmount: null,
      responseDestination: null,
      customPayload: null,
      forwardPayload: null,
      payoutAmount: price,
      payoutCommentEncrypted: null,
      payoutCommentEncoded: null,
      payoutComment: null,
      price,
      realPrevOwner: null,
      marketplace: null,
      marketplaceAddress: null,
    });
    nb.mergeBlocks([block]);
    nb.failed = block.node.tx.aborted;
    return [nb];
  }
}

/** `op::dns_balance_release` sent to a DNS item (TON Center `DnsReleaseMatcher`). */
class DnsReleaseMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super();
  }
  override testSelf(b: Block): boolean {
    return isCall(b, DNS_RELEASE_BALANCE);
  }
  override build(block: Block): Block[] | null {
    const address = block.message.destination;
    const item = nftItem(this.repo, address);
    if (item === null || !isDnsItem(item)) return [];
    const nb = new Block('dns_release', [], {
      nft: address,
      collection: item.collection,
      index: item.index,
      queryId: loadOptionalQueryId(block.body()),
      source: block.message.source,
      value: block.message.value === null ? null : BigInt(block.message.value),
    });
    nb.mergeBlocks([block]);
    nb.failed = block.node.tx.aborted;
    return [nb];
  }
}

/** TON DNS records: change, delete, renew (change_dns_record with the zero key and no value). */
class ChangeDnsRecordMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ child: new OpMatcher(BOUNCE, { optional: true, includeExcess: false }) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, DNS_CHANGE_RECORD);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const m = loadDnsChangeRecord(block.body());
    const source = block.message.source;
    const destination = block.message.destination;
    const item = nftItem(this.repo, destination);
    const base: Record<string, unknown> = { source, destination };
    // TON Center's filler reads the item's collection: without a known item the row cannot be written.
    if (item !== null) base.collection = item.collection;
    let nb: Block;
    if (m.value !== null) nb = new Block('change_dns', [], { ...base, key: m.key, value: m.value });
    else if (m.key.every((b) => b === 0)) nb = new Block('renew_dns', [], base);
    else nb = new Block('delete_dns', [], { ...base, key: m.key });
    nb.failed = block.failed;
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

function collection(d: Record<string, unknown>): string | null {
  if (!('collection' in d)) throw new Error('DNS item unknown');
  return (d.collection as string | null) ?? null;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function fillChange(b: Block, row: ActionRow): void {
  const d = b.data;
  row.source = d.source;
  row.destination = d.destination;
  const v = d.value as DnsValue;
  const data: Record<string, unknown> = { value_schema: v.schema, flags: null, address: null, key: hex(d.key) };
  if (v.schema === 'DNSNextResolver' || v.schema === 'DNSSmcAddress') data.value = v.address;
  else if (v.schema === 'DNSAdnlAddress') {
    data.value = hex(v.bytes);
    data.flags = v.flags;
  } else if (v.schema === 'DNSStorageAddress') data.value = hex(v.bytes);
  if (v.schema === 'DNSSmcAddress') data.flags = v.flags;
  if (v.schema === 'DNSText') data.value = v.text;
  row.change_dns_record_data = data;
  row.asset = collection(d);
}

export const dnsFamily: Family = {
  matchers: (repo) => [
    [230, new DnsReleaseMatcher(repo)],
    [240, new DnsPurchaseMatcher(repo)],
    [330, new ChangeDnsRecordMatcher(repo)],
  ],
  fillers: [
    ['dns_purchase', fillNftPurchase],
    [
      'dns_release',
      (b, row) => {
        const d = b.data;
        row.source = d.source;
        row.destination = d.nft;
        row.asset = d.collection;
        row.nft_transfer_data = { query_id: d.queryId, nft_item_index: d.index };
        row.value = d.value;
      },
    ],
    ['change_dns', fillChange],
    [
      'delete_dns',
      (b, row) => {
        row.source = b.data.source;
        row.destination = b.data.destination;
        row.asset = collection(b.data);
        row.change_dns_record_data = { value_schema: null, flags: null, address: null, key: hex(b.data.key) };
      },
    ],
    [
      'renew_dns',
      (b, row) => {
        row.source = b.data.source;
        row.destination = b.data.destination;
        row.asset = collection(b.data);
      },
    ],
  ],
};
