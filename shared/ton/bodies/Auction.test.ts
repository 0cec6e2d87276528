import { Address, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { AUCTION_FILL_UP, DNS_RELEASE_BALANCE, TELEITEM_START_AUCTION, loadOptionalQueryId, loadTeleitemStartAuction } from './Auction.js';
import { bodySlice } from './cell.js';

/*
 * Bodies built from their TL-B: telemint's `teleitem_start_auction#487a8e81 query_id:uint64
 * auction_config:^TeleitemAuctionConfig` (`beneficiary_address:MsgAddressInt initial_min_bid:Grams max_bid:Grams
 * min_bid_step:uint8 min_extend_time:uint32 duration:uint32`), dns-contract's `op::fill_up` / `dns_balance_release`.
 */
const boc = (c: ReturnType<typeof beginCell>): string => c.endCell().toBoc().toString('base64');
const BENEFICIARY = Address.parseRaw('0:' + '5A'.repeat(32));

describe('auction bodies', () => {
  it('teleitem_start_auction: every field of its auction config', () => {
    const config = beginCell().storeAddress(BENEFICIARY).storeCoins(12_000_000_000n).storeCoins(900_000_000_000n).storeUint(5, 8).storeUint(3600, 32).storeUint(604_800, 32);
    const body = beginCell().storeUint(TELEITEM_START_AUCTION, 32).storeUint(4242n, 64).storeRef(config);
    expect(loadTeleitemStartAuction(bodySlice(boc(body)))).toEqual({
      queryId: 4242n,
      beneficiary: '0:' + '5A'.repeat(32),
      initialMinBid: 12_000_000_000n,
      maxBid: 900_000_000_000n,
      minBidStep: 5,
      minExtendTime: 3600,
      duration: 604_800,
    });
  });

  it('teleitem_start_auction with a config that does not parse: the empty configuration TON Center keeps', () => {
    const body = beginCell().storeUint(TELEITEM_START_AUCTION, 32).storeUint(7n, 64).storeRef(beginCell().storeUint(1, 3));
    expect(loadTeleitemStartAuction(bodySlice(boc(body)))).toEqual({ queryId: 7n, beneficiary: null, initialMinBid: 0n, maxBid: 0n, minBidStep: 0, minExtendTime: 0, duration: 0 });
  });

  it('fill_up and dns_balance_release: the query id, or null when the body ends after the opcode', () => {
    expect(loadOptionalQueryId(bodySlice(boc(beginCell().storeUint(AUCTION_FILL_UP, 32).storeUint(99n, 64))))).toBe(99n);
    expect(loadOptionalQueryId(bodySlice(boc(beginCell().storeUint(DNS_RELEASE_BALANCE, 32).storeUint(2n ** 64n - 1n, 64))))).toBe(2n ** 64n - 1n);
    expect(loadOptionalQueryId(bodySlice(boc(beginCell().storeUint(AUCTION_FILL_UP, 32))))).toBeNull();
  });
});
