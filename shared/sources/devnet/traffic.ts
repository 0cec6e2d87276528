import type { DevnetChain } from './chain.js';
import { type DCell, DBuilder } from './cell.js';
import { type Actors, type JettonActors, TON, snakeText } from './genesis.js';
import { type StdAddr, readAccount } from './tlb.js';
import { type Transfer, Wallet, commentBody, deriveKey, stateInit } from './wallets.js';

/**
 * Seeded traffic for the devnet: a deterministic mix of the activity an indexer meets on mainnet, each action a
 * real signed external message to a real wallet, everything after it executed by the TVM: TON transfers with
 * comments, transfers to fresh addresses (uninit accounts), bounced transfers, failed transactions (a contract
 * throwing, with its bounce), wallet deploys, jetton transfers (standard and stablecoin-style) / mints / burns,
 * NFT transfers and mints, cross-workchain transfers and highload batches.
 *
 * The same seed, profile and rate give the same messages for the same chain state; the generator's own state (its
 * PRNG and rate accumulator) is persisted with the chain.
 */

export type TrafficProfile = 'default' | 'transfers' | 'tokens' | 'none';

export const TRAFFIC_PROFILES: readonly TrafficProfile[] = ['default', 'transfers', 'tokens', 'none'];

type ActionKind =
  | 'ton_transfer'
  | 'ton_to_new_address'
  | 'bounced_transfer'
  | 'failed_transaction'
  | 'wallet_deploy'
  | 'jetton_transfer'
  | 'stablecoin_transfer'
  | 'jetton_mint'
  | 'jetton_burn'
  | 'nft_transfer'
  | 'nft_mint'
  | 'cross_workchain'
  | 'highload_batch';

/** About how many transactions each action produces (its whole trace): converts the tx/s target into actions. */
const ACTIONS: Record<ActionKind, { txs: number }> = {
  ton_transfer: { txs: 2 },
  ton_to_new_address: { txs: 2 },
  bounced_transfer: { txs: 3 },
  failed_transaction: { txs: 3 },
  wallet_deploy: { txs: 2 },
  jetton_transfer: { txs: 5 },
  stablecoin_transfer: { txs: 5 },
  jetton_mint: { txs: 4 },
  jetton_burn: { txs: 4 },
  nft_transfer: { txs: 4 },
  nft_mint: { txs: 3 },
  cross_workchain: { txs: 2 },
  highload_batch: { txs: 12 },
};

const PROFILES: Record<Exclude<TrafficProfile, 'none'>, Partial<Record<ActionKind, number>>> = {
  default: {
    ton_transfer: 40,
    ton_to_new_address: 4,
    bounced_transfer: 4,
    failed_transaction: 4,
    wallet_deploy: 3,
    jetton_transfer: 14,
    stablecoin_transfer: 8,
    jetton_mint: 3,
    jetton_burn: 3,
    nft_transfer: 8,
    nft_mint: 3,
    cross_workchain: 3,
    highload_batch: 3,
  },
  transfers: { ton_transfer: 80, ton_to_new_address: 5, bounced_transfer: 5, wallet_deploy: 5, highload_batch: 5 },
  tokens: { jetton_transfer: 40, stablecoin_transfer: 25, jetton_mint: 5, jetton_burn: 5, nft_transfer: 20, nft_mint: 5 },
};

export interface TrafficState {
  /** mulberry32 state. */
  rng: number;
  /** Fractional actions carried to the next block (keeps the rate exact at any block interval). */
  carry: number;
  /**
   * NFT activity still in flight (the state does not show it yet): the last item index minted, and items
   * transferred, with the block seqno that sent them. Keeps the generator from minting an index twice or moving an
   * item its owner already gave away; the failures that remain are the ones users cause too.
   */
  nftMinted?: [index: number, seqno: number] | null;
  nftMoving?: Array<[index: number, seqno: number]>;
}

/** Blocks after which in-flight NFT activity the state still does not show is taken as failed. */
const IN_FLIGHT_BLOCKS = 4;

export interface TrafficOptions {
  profile: TrafficProfile;
  /** Target transactions per second (whole traces, counted as they execute). */
  tps: number;
  seed: string;
}

export class TrafficGenerator {
  private readonly weights: Array<[ActionKind, number]>;
  private readonly total: number;
  private readonly txsPerAction: number;
  private readonly owners: Map<string, Wallet>;
  private readonly senders: Wallet[];

  constructor(
    private readonly actors: Actors,
    private readonly opts: TrafficOptions,
    private state: TrafficState,
  ) {
    this.weights = opts.profile === 'none' ? [] : (Object.entries(PROFILES[opts.profile]) as Array<[ActionKind, number]>);
    this.total = this.weights.reduce((n, [, w]) => n + w, 0);
    this.txsPerAction = this.total === 0 ? 1 : this.weights.reduce((n, [k, w]) => n + w * ACTIONS[k].txs, 0) / this.total;
    this.owners = new Map(actors.wallets.map((w) => [hex(w.address.hash), w]));
    this.senders = actors.wallets.filter((w) => w.kind !== 'highload-v3');
  }

  static initialState(seed: string): TrafficState {
    let h = 2166136261;
    for (const c of Buffer.from(seed)) h = Math.imul(h ^ c, 16777619) >>> 0;
    return { rng: h, carry: 0, nftMinted: null, nftMoving: [] };
  }

  get snapshot(): TrafficState {
    return { ...this.state, nftMoving: [...(this.state.nftMoving ?? [])] };
  }

  /**
   * The external messages for the block about to be sealed at `now` (its gen_utime), `intervalMs` after the
   * previous one. Wallet seqnos come from the chain's current state.
   */
  generate(chain: DevnetChain, now: number, intervalMs: number): DCell[] {
    if (this.total === 0 || this.opts.tps <= 0) return [];
    this.state.carry += (this.opts.tps * intervalMs) / 1000 / this.txsPerAction;
    const n = Math.floor(this.state.carry);
    this.state.carry -= n;
    const ctx = new TickContext(chain, now, chain.mcSeqno + 1);
    this.state.nftMoving = (this.state.nftMoving ?? []).filter(([, at]) => ctx.seqno - at <= IN_FLIGHT_BLOCKS);
    const out: DCell[] = [];
    for (let i = 0; i < n; i++) {
      const msg = this.action(this.pick(), ctx, i);
      if (msg) out.push(msg);
    }
    return out;
  }

  private pick(): ActionKind {
    let r = this.random() * this.total;
    for (const [k, w] of this.weights) {
      if ((r -= w) < 0) return k;
    }
    return this.weights[this.weights.length - 1]![0];
  }

  /** mulberry32 */
  private random(): number {
    let t = (this.state.rng = (this.state.rng + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  private int(n: number): number {
    return Math.floor(this.random() * n);
  }

  private choose<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }

  private freshAddress(): StdAddr {
    const hash = new Uint8Array(32);
    for (let i = 0; i < 32; i += 4) new DataView(hash.buffer).setUint32(i, (this.random() * 4294967296) >>> 0);
    return { workchain: 0, hash };
  }

  private action(kind: ActionKind, ctx: TickContext, i: number): DCell | null {
    const a = this.actors;
    const queryId = BigInt(ctx.seqno) * 100_000n + BigInt(i);
    switch (kind) {
      case 'ton_transfer': {
        const from = this.choose(this.senders);
        const to = this.choose(a.wallets);
        return ctx.send(from, [{ to: to.address, value: BigInt(1 + this.int(1000)) * (TON / 100n), bounce: true, body: commentBody(`devnet payment ${queryId}`) }]);
      }
      case 'ton_to_new_address':
        return ctx.send(this.choose(this.senders), [{ to: this.freshAddress(), value: TON / 5n, bounce: false, body: commentBody('hello, new account') }]);
      case 'bounced_transfer':
        return ctx.send(this.choose(this.senders), [{ to: this.freshAddress(), value: TON / 2n, bounce: true, body: commentBody('this bounces') }]);
      case 'failed_transaction': {
        // A jetton transfer sent to someone else's jetton wallet: the wallet rejects the sender and the message bounces.
        const from = this.choose(this.senders);
        const victim = this.choose(a.jetton.holders.filter((h) => h !== from));
        return ctx.send(from, [{ to: a.jetton.walletOf(victim.address), value: TON / 10n, bounce: true, body: jettonTransferBody(queryId, 1n, from.address, from.address, 0n, null) }]);
      }
      case 'wallet_deploy': {
        const from = this.choose(this.senders);
        const kind = this.choose(['v3r2', 'v4r2', 'v5r1'] as const);
        const w = new Wallet(kind, deriveKey(`${this.opts.seed}:deployed:${ctx.seqno}:${i}`), 0, 0x1000 + i);
        return ctx.send(from, [{ to: w.address, value: TON, bounce: false, init: stateInit(w.code, w.data) }]);
      }
      case 'jetton_transfer':
      case 'stablecoin_transfer': {
        const j = kind === 'jetton_transfer' ? a.jetton : a.stablecoin;
        const from = this.choose(j.holders);
        const balance = ctx.jettonBalance(j, from.address);
        if (balance <= 0n) return null;
        const to = this.choose(a.wallets);
        const amount = 1n + (balance * BigInt(1 + this.int(50))) / 10_000n;
        const payload = this.int(2) === 0 ? commentBody(`jetton payment ${queryId}`) : null;
        return ctx.send(from, [{ to: j.walletOf(from.address), value: TON / 10n, bounce: true, body: jettonTransferBody(queryId, amount, to.address, from.address, TON / 100n, payload) }]);
      }
      case 'jetton_mint': {
        const j = a.jetton;
        const to = this.choose(a.wallets);
        const amount = BigInt(1 + this.int(10_000)) * TON;
        return ctx.send(j.admin, [{ to: j.minter, value: TON / 5n, bounce: true, body: standardMintBody(queryId, to.address, amount, j.admin.address) }]);
      }
      case 'jetton_burn': {
        const j = a.jetton;
        const from = this.choose(j.holders);
        const balance = ctx.jettonBalance(j, from.address);
        if (balance <= 0n) return null;
        return ctx.send(from, [{ to: j.walletOf(from.address), value: TON / 10n, bounce: true, body: jettonBurnBody(queryId, 1n + balance / 1000n, from.address) }]);
      }
      case 'nft_transfer': {
        const index = this.int(ctx.nftNextIndex(a));
        const moving = this.state.nftMoving!;
        if (moving.some(([k]) => k === index)) return null;
        const owner = ctx.nftOwner(a, index);
        const from = owner ? this.owners.get(hex(owner.hash)) : undefined;
        if (!from || from.kind === 'highload-v3') return null;
        const to = this.choose(a.wallets);
        moving.push([index, ctx.seqno]);
        return ctx.send(from, [{ to: a.nft.itemAddress(index), value: TON / 10n, bounce: true, body: nftTransferBody(queryId, to.address, from.address, TON / 100n) }]);
      }
      case 'nft_mint': {
        // The collection counts items as it deploys them; mints still on their way are not in its state yet.
        const last = this.state.nftMinted;
        const stateNext = ctx.nftNextIndex(a);
        const index = last && ctx.seqno - last[1] <= IN_FLIGHT_BLOCKS ? Math.max(stateNext, last[0] + 1) : stateNext;
        this.state.nftMinted = [index, ctx.seqno];
        const to = this.choose(a.wallets);
        return ctx.send(a.nft.owner, [{ to: a.nft.collection, value: TON / 10n, bounce: true, body: nftMintBody(queryId, index, TON / 20n, to.address) }]);
      }
      case 'cross_workchain': {
        if (this.int(2) === 0) {
          const from = this.choose(this.senders);
          return ctx.send(from, [{ to: this.choose(a.mcWallets).address, value: TON, bounce: true, body: commentBody('to the masterchain') }]);
        }
        const from = this.choose(a.mcWallets);
        return ctx.send(from, [{ to: this.choose(a.wallets).address, value: TON, bounce: true, body: commentBody('from the masterchain') }]);
      }
      case 'highload_batch': {
        const from = this.choose(a.wallets.filter((w) => w.kind === 'highload-v3'));
        const n = 5 + this.int(11);
        const transfers: Transfer[] = [];
        for (let k = 0; k < n; k++) transfers.push({ to: this.choose(a.wallets).address, value: TON / 10n, bounce: false, body: commentBody(`batch ${queryId}/${k}`) });
        return ctx.send(from, transfers);
      }
    }
  }
}

/** What one block's worth of generated messages share: current seqnos, claimed NFT indices. */
class TickContext {
  private readonly seqnos = new Map<Wallet, number>();
  private highload = 0;

  constructor(
    private readonly chain: DevnetChain,
    readonly now: number,
    readonly seqno: number,
  ) {}

  send(from: Wallet, transfers: Transfer[]): DCell {
    let seqno: number;
    if (from.kind === 'highload-v3') {
      // Query ids unique within the wallet's timeout: the block seqno and a counter.
      seqno = ((this.seqno * 64 + this.highload++) % 8_380_000) + 1;
    } else {
      seqno = this.seqnos.get(from) ?? this.stateSeqno(from);
      this.seqnos.set(from, seqno + 1);
    }
    return from.transfer(transfers, { seqno, now: this.now });
  }

  private data(addr: StdAddr): DCell | null {
    const acc = readAccount(this.chain.shardAccount(addr).refs[0]!);
    return acc.status === 'active' ? acc.data : null;
  }

  private stateSeqno(w: Wallet): number {
    const d = this.data(w.address);
    return d ? Wallet.seqnoOf(w.kind, d) : 0;
  }

  jettonBalance(j: JettonActors, owner: StdAddr): bigint {
    const d = this.data(j.walletOf(owner));
    if (!d) return 0n;
    const s = d.beginParse();
    if (j.kind === 'stablecoin') s.skip(4);
    return s.loadCoins();
  }

  nftNextIndex(a: Actors): number {
    const d = this.data(a.nft.collection);
    if (!d) return 0;
    const s = d.beginParse();
    s.loadAddress();
    return s.loadUint(64);
  }

  nftOwner(a: Actors, index: number): StdAddr | null {
    const d = this.data(a.nft.itemAddress(index));
    if (!d) return null;
    const s = d.beginParse();
    s.skip(64);
    s.loadAddress();
    const owner = s.loadAddress();
    return owner.type === 'std' ? owner : null;
  }
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function build(fill: (b: DBuilder) => void): DCell {
  const b = new DBuilder();
  fill(b);
  return b.endCell();
}

/** TEP-74 `transfer#0f8a7ea5 query_id amount destination response_destination custom_payload forward_ton_amount forward_payload`. */
export function jettonTransferBody(queryId: bigint, amount: bigint, to: StdAddr, response: StdAddr, forwardTon: bigint, payload: DCell | null): DCell {
  return build((b) => {
    b.storeUint(0x0f8a7ea5, 32);
    b.storeUint(queryId, 64);
    b.storeCoins(amount);
    b.storeAddress(to);
    b.storeAddress(response);
    b.storeBit(0);
    b.storeCoins(forwardTon);
    b.storeBit(payload !== null);
    if (payload) b.storeRef(payload);
  });
}

/** TEP-74 `burn#595f07bc query_id amount response_destination custom_payload`. */
export function jettonBurnBody(queryId: bigint, amount: bigint, response: StdAddr): DCell {
  return build((b) => {
    b.storeUint(0x595f07bc, 32);
    b.storeUint(queryId, 64);
    b.storeCoins(amount);
    b.storeAddress(response);
    b.storeBit(0);
  });
}

/** token-contract minter `mint#15 query_id to_address amount master_msg:^(internal_transfer ...)`. */
export function standardMintBody(queryId: bigint, to: StdAddr, amount: bigint, response: StdAddr): DCell {
  const internal = build((b) => {
    b.storeUint(0x178d4519, 32);
    b.storeUint(queryId, 64);
    b.storeCoins(amount);
    b.storeAddress(null);
    b.storeAddress(response);
    b.storeCoins(0n);
    b.storeBit(0);
  });
  return build((b) => {
    b.storeUint(21, 32);
    b.storeUint(queryId, 64);
    b.storeAddress(to);
    b.storeCoins(TON / 20n);
    b.storeRef(internal);
  });
}

/** TEP-62 `transfer#5fcc3d14 query_id new_owner response_destination custom_payload forward_amount forward_payload`. */
export function nftTransferBody(queryId: bigint, newOwner: StdAddr, response: StdAddr, forwardTon: bigint): DCell {
  return build((b) => {
    b.storeUint(0x5fcc3d14, 32);
    b.storeUint(queryId, 64);
    b.storeAddress(newOwner);
    b.storeAddress(response);
    b.storeBit(0);
    b.storeCoins(forwardTon);
    b.storeBit(0);
  });
}

/** token-contract nft-collection `deploy#1 query_id item_index amount nft_content:^[owner_address ^content]`. */
export function nftMintBody(queryId: bigint, index: number, amount: bigint, owner: StdAddr): DCell {
  const content = build((b) => {
    b.storeAddress(owner);
    b.storeRef(snakeText(`${index}.json`));
  });
  return build((b) => {
    b.storeUint(1, 32);
    b.storeUint(queryId, 64);
    b.storeUint(index, 64);
    b.storeCoins(amount);
    b.storeRef(content);
  });
}
