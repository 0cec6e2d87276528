import { Block } from './block.js';
import { isCall } from './basic.js';
import type { Family } from './classify.js';
import { Matcher, OpMatcher, findCall } from './matcher.js';

/**
 * Wallet v4 subscription plugins: plugin → wallet `request_payment#706c7567 query_id:uint64 grams:Coins`, wallet →
 * plugin `#f06c7567` with the funds, plugin → beneficiary `subscription#73756273`; and `destruct#64737472` (wallet →
 * plugin, and plugin → beneficiary when it notifies).
 */
const PAYMENT_REQUEST = 0x706c7567;
const PAYMENT_REQUEST_RESPONSE = 0xf06c7567;
const PAYMENT = 0x73756273;
const DESTRUCT = 0x64737472;

class SubscribeMatcher extends Matcher {
  constructor() {
    super({ child: new OpMatcher(PAYMENT), parent: new OpMatcher(PAYMENT_REQUEST, { optional: true }) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, PAYMENT_REQUEST_RESPONSE);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    let amount = BigInt(block.message.value ?? 0);
    let failed = false;
    const payment = findCall(others, PAYMENT)!;
    const request = findCall(others, PAYMENT_REQUEST);
    if (request) {
      const s = request.body();
      s.loadUint(32);
      s.loadUintBig(64);
      amount = s.loadCoins();
      failed = request.failed;
    }
    const nb = new Block('subscribe', [], { subscriber: block.message.source, subscription: block.message.destination, beneficiary: payment.message.destination, amount });
    nb.failed = failed;
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

class UnsubscribeMatcher extends Matcher {
  constructor() {
    super({ child: new OpMatcher(DESTRUCT, { optional: true }) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, DESTRUCT);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const response = findCall(others, DESTRUCT);
    const nb = new Block('unsubscribe', [], { subscriber: block.message.source, subscription: block.message.destination, beneficiary: response ? response.message.destination : null });
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

export const subscriptionsFamily: Family = {
  matchers: () => [
    [360, new SubscribeMatcher()],
    [370, new UnsubscribeMatcher()],
  ],
  fillers: [
    [
      'subscribe',
      (b, row) => {
        row.source = b.data.subscriber;
        row.destination = b.data.beneficiary;
        row.destination_secondary = b.data.subscription;
        row.amount = b.data.amount;
      },
    ],
    [
      'unsubscribe',
      (b, row) => {
        row.source = b.data.subscriber;
        row.destination = b.data.beneficiary;
        row.destination_secondary = b.data.subscription;
      },
    ],
  ],
};
