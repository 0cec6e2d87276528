import {
  COCOON,
  loadCocoonHead,
  loadCocoonRefundGranted,
  loadCocoonTokensPayload,
  loadCocoonWorkerProxyRequest,
} from '../bodies/Cocoon.js';
import { loadAddr } from '../bodies/cell.js';
import { Block } from './block.js';
import { CallContractBlock, isCall } from './basic.js';
import type { Family } from './classify.js';
import { Matcher, type MatcherOptions, OpMatcher, findCall, getLabeled, labeled } from './matcher.js';
import type { ActionRow, Filler } from './row.js';

/** Cocoon: worker and proxy payouts, proxy charges, client top-ups, registrations, stakes, refunds, withdrawals. */

const op = (code: number, o: MatcherOptions = {}): Matcher => new OpMatcher(code, o);
const excessesThenRequest = (): MatcherOptions => ({
  children: [labeled('excesses', op(COCOON.returnExcessesBack)), labeled('client_request', op(COCOON.clientProxyRequest))],
});

/** A matcher starting at one of `ops`, whose `build` turns the match into a block of `type` (or null: no match). */
class CocoonMatcher extends Matcher {
  constructor(
    private readonly ops: number[],
    private readonly make: (start: Block, others: Block[]) => { type: string; data: Record<string, unknown>; failed: boolean } | null,
    o: MatcherOptions,
  ) {
    super(o);
  }
  override testSelf(b: Block): boolean {
    return b instanceof CallContractBlock && b.op !== null && this.ops.includes(b.op);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const r = this.make(block, others);
    if (r === null) return [];
    const nb = new Block(r.type, [], r.data);
    nb.mergeBlocks([...new Set([block, ...others])]);
    nb.failed = r.failed;
    return [nb];
  }
}

/** `send_excesses_to` after `op query_id` and `skip` further reads. */
function excessesTo(b: Block, skip: (s: ReturnType<Block['body']>) => void = () => {}): string | null {
  const s = b.body();
  loadCocoonHead(s);
  skip(s);
  return loadAddr(s);
}

const matchers = (): [number, Matcher][] => [
  [
    810,
    new CocoonMatcher(
      [COCOON.payoutPayload, COCOON.lastPayoutPayload],
      (start, others) => {
        const p = loadCocoonTokensPayload(start.body());
        const req = findCall(start.next, COCOON.workerProxyRequest);
        const payout = getLabeled('payout', others);
        if (!req || !payout) return null;
        const w = loadCocoonWorkerProxyRequest(req.body());
        others.push(req, payout);
        return {
          type: 'cocoon_worker_payout',
          data: {
            proxy: start.message.source,
            worker: start.message.destination,
            owner: w.owner,
            payoutType: p.op === COCOON.lastPayoutPayload ? 'last' : 'regular',
            queryId: p.queryId,
            newTokens: p.newTokens,
            expectedAddress: p.expectedAddress,
            amount: BigInt(payout.message.value ?? 0),
            workerState: w.state,
            workerTokens: w.tokens,
          },
          failed: payout.node.tx.aborted,
        };
      },
      { child: op(COCOON.workerProxyRequest, { children: [labeled('payout', op(COCOON.payout)), labeled('excesses', op(COCOON.returnExcessesBack, { optional: true }))] }) },
    ),
  ],
  [
    820,
    new CocoonMatcher(
      [COCOON.extProxyPayoutRequest],
      (start, others) => {
        const payout = getLabeled('payout', others);
        if (!payout) return null;
        const h = loadCocoonHead(start.body());
        return {
          type: 'cocoon_proxy_payout',
          data: { proxy: start.message.destination, owner: payout.message.destination, excessesTo: excessesTo(start), queryId: h.queryId },
          failed: payout.node.tx.aborted,
        };
      },
      { children: [labeled('payout', op(COCOON.payout)), labeled('excesses', op(COCOON.returnExcessesBack))] },
    ),
  ],
  [
    830,
    new CocoonMatcher(
      [COCOON.chargePayload],
      (start, others) => {
        const p = loadCocoonTokensPayload(start.body());
        const req = getLabeled('client_request', others);
        if (!req) return null;
        return {
          type: 'cocoon_proxy_charge',
          data: { proxy: start.message.destination, client: req.message.destination, queryId: p.queryId, newTokensUsed: p.newTokens, expectedAddress: p.expectedAddress },
          failed: start.node.tx.aborted,
        };
      },
      excessesThenRequest(),
    ),
  ],
  [
    840,
    new CocoonMatcher(
      [COCOON.extClientTopUp],
      (start, others) => {
        const s = start.body();
        const h = loadCocoonHead(s);
        const amount = s.loadCoins();
        const sender = loadAddr(s);
        const req = getLabeled('proxy_request', others);
        if (!req) return null;
        return { type: 'cocoon_client_top_up', data: { client: start.message.destination, proxy: req.message.destination, sender, queryId: h.queryId, amount }, failed: start.node.tx.aborted };
      },
      { child: labeled('proxy_request', op(COCOON.clientProxyRequest, { children: [labeled('excesses', op(COCOON.returnExcessesBack))] })) },
    ),
  ],
  [
    850,
    new CocoonMatcher(
      [COCOON.registerProxy],
      (start) => ({ type: 'cocoon_register_proxy', data: { root: start.message.destination, queryId: loadCocoonHead(start.body()).queryId }, failed: start.node.tx.aborted }),
      { child: labeled('excesses', op(COCOON.returnExcessesBack)) },
    ),
  ],
  [
    860,
    new CocoonMatcher(
      [COCOON.unregisterProxy],
      (start) => {
        const s = start.body();
        const h = loadCocoonHead(s);
        return { type: 'cocoon_unregister_proxy', data: { root: start.message.destination, queryId: h.queryId, seqno: s.loadUint(32) }, failed: start.node.tx.aborted };
      },
      { child: labeled('excesses', op(COCOON.returnExcessesBack)) },
    ),
  ],
  [
    870,
    new CocoonMatcher(
      [COCOON.ownerClientRegister],
      (start) => {
        const s = start.body();
        const h = loadCocoonHead(s);
        const nonce = s.loadUintBig(64);
        return { type: 'cocoon_client_register', data: { client: start.message.destination, owner: loadAddr(s), queryId: h.queryId, nonce }, failed: start.node.tx.aborted };
      },
      excessesThenRequest(),
    ),
  ],
  [
    880,
    new CocoonMatcher(
      [COCOON.ownerClientChangeSecretHash],
      (start) => {
        const s = start.body();
        const h = loadCocoonHead(s);
        const hash = s.loadUintBig(256);
        return { type: 'cocoon_client_change_secret_hash', data: { client: start.message.destination, owner: loadAddr(s), queryId: h.queryId, newSecretHash: hash.toString(16) }, failed: start.node.tx.aborted };
      },
      excessesThenRequest(),
    ),
  ],
  [
    890,
    new CocoonMatcher(
      [COCOON.ownerWalletSendMessage, COCOON.ownerClientRequestRefund],
      (start, others) => {
        const h = loadCocoonHead(start.body());
        return {
          type: 'cocoon_client_request_refund',
          data: { client: start.message.destination, owner: excessesTo(start), queryId: h.queryId, viaWallet: getLabeled('wallet_wrapper', others) !== null },
          failed: start.node.tx.aborted,
        };
      },
      { parent: labeled('wallet_wrapper', op(COCOON.ownerWalletSendMessage, { optional: true })), ...excessesThenRequest() },
    ),
  ],
  [
    900,
    new CocoonMatcher(
      [COCOON.grantRefundPayload],
      (start, others) => {
        const p = loadCocoonTokensPayload(start.body());
        const req = getLabeled('client_request', others);
        const payout = getLabeled('payout', others);
        if (!req || !payout) return null;
        return {
          type: 'cocoon_grant_refund',
          data: {
            proxy: start.message.destination,
            client: req.message.destination,
            recipient: payout.message.destination,
            queryId: p.queryId,
            newTokensUsed: p.newTokens,
            expectedAddress: p.expectedAddress,
            amount: BigInt(payout.message.value ?? 0),
          },
          failed: payout.node.tx.aborted,
        };
      },
      { child: labeled('client_request', op(COCOON.clientProxyRequest, { children: [labeled('payout', op(COCOON.payout)), labeled('excesses', op(COCOON.returnExcessesBack))] })) },
    ),
  ],
  [
    910,
    new CocoonMatcher(
      [COCOON.ownerClientIncreaseStake],
      (start) => {
        const s = start.body();
        const h = loadCocoonHead(s);
        const stake = s.loadCoins();
        return { type: 'cocoon_client_increase_stake', data: { client: start.message.destination, owner: loadAddr(s), queryId: h.queryId, newStake: stake }, failed: start.node.tx.aborted };
      },
      excessesThenRequest(),
    ),
  ],
  [
    920,
    new CocoonMatcher(
      [COCOON.ownerClientWithdraw],
      (start, others) => {
        const h = loadCocoonHead(start.body());
        const req = getLabeled('client_request', others);
        let amount: bigint | null = null;
        if (req) {
          try {
            amount = loadCocoonRefundGranted(req.body());
          } catch {
            amount = null;
          }
        }
        return { type: 'cocoon_client_withdraw', data: { client: start.message.destination, owner: excessesTo(start), queryId: h.queryId, amount: amount ?? 0n }, failed: start.node.tx.aborted };
      },
      { child: labeled('client_request', op(COCOON.clientProxyRequest, { children: [labeled('excesses', op(COCOON.returnExcessesBack, { optional: true })), labeled('payout', op(COCOON.payout))] })) },
    ),
  ],
];

const fill = (f: (d: Record<string, any>, row: ActionRow) => void): Filler => (b, row) => f(b.data, row);

export const cocoonFamily: Family = {
  matchers,
  fillers: [
    ['cocoon_worker_payout', fill((d, r) => {
      r.source = d.proxy;
      r.source_secondary = d.worker;
      r.destination = d.owner;
      r.amount = d.amount;
      r.cocoon_worker_payout_data = { payout_type: d.payoutType, query_id: d.queryId, new_tokens: d.newTokens, worker_state: d.workerState, worker_tokens: d.workerTokens };
    })],
    ['cocoon_proxy_payout', fill((d, r) => {
      r.source = d.proxy;
      r.destination = d.owner;
      r.destination_secondary = d.excessesTo;
      r.cocoon_proxy_payout_data = { query_id: d.queryId };
    })],
    ['cocoon_proxy_charge', fill((d, r) => {
      r.source = d.proxy;
      r.destination = d.client;
      r.amount = 0n;
      r.cocoon_proxy_charge_data = { query_id: d.queryId, new_tokens_used: d.newTokensUsed, expected_address: d.expectedAddress };
    })],
    ['cocoon_client_top_up', fill((d, r) => {
      r.source = d.sender;
      r.destination = d.client;
      r.destination_secondary = d.proxy;
      r.amount = d.amount;
      r.cocoon_client_top_up_data = { query_id: d.queryId };
    })],
    ['cocoon_register_proxy', fill((d, r) => {
      r.destination = d.root;
      r.cocoon_register_proxy_data = { query_id: d.queryId };
    })],
    ['cocoon_unregister_proxy', fill((d, r) => {
      r.destination = d.root;
      r.cocoon_unregister_proxy_data = { query_id: d.queryId, seqno: d.seqno };
    })],
    ['cocoon_client_register', fill((d, r) => {
      r.source = d.owner;
      r.destination = d.client;
      r.cocoon_client_register_data = { query_id: d.queryId, nonce: d.nonce };
    })],
    ['cocoon_client_change_secret_hash', fill((d, r) => {
      r.source = d.owner;
      r.destination = d.client;
      r.cocoon_client_change_secret_hash_data = { query_id: d.queryId, new_secret_hash: d.newSecretHash };
    })],
    ['cocoon_client_request_refund', fill((d, r) => {
      r.source = d.owner;
      r.destination = d.client;
      r.cocoon_client_request_refund_data = { query_id: d.queryId, via_wallet: d.viaWallet };
    })],
    ['cocoon_grant_refund', fill((d, r) => {
      r.source = d.proxy;
      r.source_secondary = d.client;
      r.destination = d.recipient;
      r.amount = d.amount;
      r.cocoon_grant_refund_data = { query_id: d.queryId, new_tokens_used: d.newTokensUsed, expected_address: d.expectedAddress };
    })],
    ['cocoon_client_increase_stake', fill((d, r) => {
      r.source = d.owner;
      r.destination = d.client;
      r.amount = d.newStake;
      r.cocoon_client_increase_stake_data = { query_id: d.queryId, new_stake: d.newStake };
    })],
    ['cocoon_client_withdraw', fill((d, r) => {
      r.source = d.owner;
      r.destination = d.client;
      r.amount = d.amount;
      r.cocoon_client_withdraw_data = { query_id: d.queryId, withdraw_amount: d.amount };
    })],
  ],
};

export { isCall };
