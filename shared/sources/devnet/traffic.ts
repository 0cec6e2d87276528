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
 * The rate is held in transactions the chain actually seals, not in actions: an action's trace length varies (a
 * highload batch is a dozen transactions, a TON transfer two), some actions cannot be made (a holder without jettons,
 * an NFT already moving) and a wallet may reject its external, so a fixed transactions-per-action estimate
 * undershoots. Each tick therefore reads what the chain sealed since the last one and sizes its batch from the gap
 * between that and the target (see {@link TrafficGenerator.generate}).
 *
 * The same seed, profile and rate give the same messages for the same chain state; the generator's own state (its
 * PRNG and pacing) is persisted with the chain, and depends only on the blocks, never on wall time, so the same seed
 * and genesis time give the same blocks.
 */

export type TrafficProfile = 'default' | 'transfers' | 'tokens' | 'none';


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

/**
 * How many transactions each action's whole trace comes to when it goes as planned (a highload batch counts its own
 * size). A batch is filled with actions until these add up to its budget, so the mix's spread (a batch of a dozen
 * transactions next to a two-transaction transfer) does not make the blocks uneven; what the chain really seals per
 * estimated transaction is measured and corrects the budget.
 */
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
  /**
   * Transactions by which the last batch overshot its budget (≤ 0), taken off the next one: a batch is whole
   * actions, so this keeps the sum exact at any rate and block interval.
   */
  carry: number;
  /**
   * Pacing (absent in chains written before it existed; they start it afresh). `behind`: target transactions so
   * far minus transactions sealed so far (held within the bounds of {@link MAX_ERROR_BLOCKS}). `seenSealed` / `seenQueued`: the chain's
   * {@link DevnetChain.sealedTransactions} and {@link DevnetChain.queuedMessages} when last read. `countedAvg` /
   * `plannedAvg`: exponential averages, per block, of the transactions counted (sealed, plus the growth of the
   * queues) and of the transactions the actions sent were expected to come to ({@link ACTIONS}); their quotient is
   * how the real traces measure up to the estimate (rejected externals, shorter traces). `lastPlanned`: what the
   * previous tick's actions were expected to come to. `filling`: ticks left before the pacing judges the chain (see
   * {@link FILL_BLOCKS}). `dropped`: actions picked but not made, since genesis (a holder with no jettons, an NFT
   * already moving).
   */
  behind?: number;
  filling?: number;
  seenSealed?: number;
  seenQueued?: number;
  countedAvg?: number;
  plannedAvg?: number;
  lastPlanned?: number;
  dropped?: number;
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

/**
 * Share of the pacing error made up in one tick. Most of an action's trace is counted in the very next reading (its
 * external is sealed, its first internal message is queued, see {@link TrafficGenerator.generate}), so the loop sees
 * its own correction one block later; half per block settles within a few blocks without ringing.
 */
const GAIN = 0.5;
/** Weight of the newest block in the counted-per-planned averages: about the last ten blocks count. */
const RATIO_ALPHA = 0.1;
/**
 * Bounds that keep the loop from running away when the chain cannot seal what is asked (messages pile up in the
 * queues faster than blocks import them, or a profile's actions keep failing): the transactions owed plus those
 * queued are at most this many blocks' worth of target, and one tick's actions are expected to come to at most this
 * many times its share of the target, so no block balloons to catch up.
 */
const MAX_ERROR_BLOCKS = 2;
const MAX_ACTIONS_FACTOR = 2;
/**
 * Ticks after genesis (or after the pacing starts on an older chain) during which the traces already sent have not
 * all reached their later hops, so a shortfall is the pipeline filling, not the rate: the error is held at zero and
 * the averages keep their priors. Without this the loop answers the first blocks' apparent deficit with a burst
 * whose traces land a few blocks later, and pays that back with a dip. A trace of the profiles here is at most four
 * hops, one block each.
 */
const FILL_BLOCKS = IN_FLIGHT_BLOCKS;

export interface TrafficOptions {
  profile: TrafficProfile;
  /**
   * Target transactions per second, counted as the chain seals them: every transaction of both workchains, those of
   * messages submitted through the API too (the generated traffic tops the chain up to the rate).
   */
  tps: number;
  seed: string;
  /** Told of every action sent (tests check what the pipeline makes of the chain against it). */
  record?: (action: TrafficRecord) => void;
}

/** An action the generator sent, as it meant it: a jetton transfer by owners, an NFT transfer by item. */
export type TrafficRecord =
  | { kind: 'bounced_transfer'; from: StdAddr; to: StdAddr; value: bigint }
  | { kind: 'jetton_transfer' | 'stablecoin_transfer'; queryId: bigint; from: StdAddr; to: StdAddr; amount: bigint; minter: StdAddr }
  | { kind: 'nft_transfer'; queryId: bigint; from: StdAddr; to: StdAddr; item: StdAddr };

export class TrafficGenerator {
  private readonly weights: Array<[ActionKind, number]>;
  private readonly total: number;
  private readonly owners: Map<string, Wallet>;
  private readonly senders: Wallet[];

  constructor(
    private readonly actors: Actors,
    private readonly opts: TrafficOptions,
    private state: TrafficState,
  ) {
    this.weights = opts.profile === 'none' ? [] : (Object.entries(PROFILES[opts.profile]) as Array<[ActionKind, number]>);
    this.total = this.weights.reduce((n, [, w]) => n + w, 0);
    this.owners = new Map(actors.wallets.map((w) => [hex(w.address.hash), w]));
    this.senders = actors.wallets.filter((w) => w.kind !== 'highload-v3');
  }

  static initialState(seed: string): TrafficState {
    let h = 2166136261;
    for (const c of Buffer.from(seed)) h = Math.imul(h ^ c, 16777619) >>> 0;
    return { rng: h, carry: 0, nftMinted: null, nftMoving: [], dropped: 0 };
  }

  get snapshot(): TrafficState {
    return { ...this.state, nftMoving: [...(this.state.nftMoving ?? [])] };
  }

  /**
   * The external messages for the block about to be sealed at `now` (its gen_utime), `intervalMs` after the
   * previous one. Wallet seqnos come from the chain's current state.
   *
   * Closed-loop pacing: the target is `tps` × the block intervals so far, the count is what the chain sealed plus
   * the internal messages waiting in its queues (each is a transaction the next block executes, so a trace already
   * under way is not asked for twice, and a queue that backs up holds the generator back). The batch is this
   * block's share of the target plus {@link GAIN} of the error, filled with actions by their expected trace length
   * ({@link ACTIONS}) scaled by how the chain's real counts have measured up to those expectations. Everything it
   * reads is chain state, so it is as deterministic as the blocks.
   */
  generate(chain: DevnetChain, now: number, intervalMs: number): DCell[] {
    if (this.total === 0 || this.opts.tps <= 0) return [];
    const st = this.state;
    const perBlock = (this.opts.tps * intervalMs) / 1000;
    const sealed = chain.sealedTransactions;
    const queued = chain.queuedMessages;
    if (st.seenSealed === undefined || sealed < st.seenSealed) {
      // A fresh chain, or one from before the pacing existed: start from here with no error, trusting ACTIONS.
      st.behind = queued;
      st.countedAvg = st.plannedAvg = perBlock;
      st.lastPlanned = 0;
      st.filling = FILL_BLOCKS;
    } else if ((st.filling ?? 0) > 0) {
      st.behind = queued;
      st.filling = st.filling! - 1;
    } else {
      const delta = sealed - st.seenSealed;
      st.behind = (st.behind ?? 0) - delta;
      // Measured on what the error counts too (sealed and queued): a chain that stops importing its queue then
      // shows no shortfall in the ratio, which would otherwise fall and ask for ever more actions.
      st.countedAvg = ewma(st.countedAvg ?? perBlock, delta + queued - (st.seenQueued ?? queued));
      st.plannedAvg = ewma(st.plannedAvg ?? perBlock, st.lastPlanned ?? 0);
    }
    st.seenSealed = sealed;
    st.seenQueued = queued;

    // What is owed and what waits in the queues together stay within the limit: a queue that keeps growing (a chain
    // that cannot import what it is given) leaves nothing owed and then holds the generator back until it drains,
    // instead of the shortfall it causes asking for ever more. Beyond the limit a shortfall is forgiven, not owed.
    const limit = MAX_ERROR_BLOCKS * perBlock;
    const error = Math.max(-limit, Math.min(limit - queued, st.behind - queued));
    st.behind = queued + error + perBlock;
    // Outside half to twice the estimate the measurement is a transient (a burst of submitted messages, queues
    // draining after a stall), not the mix.
    const measured = st.plannedAvg! > 0 ? st.countedAvg! / st.plannedAvg! : 1;
    const realPerPlanned = Math.min(2, Math.max(0.5, measured));
    const budget = Math.max(0, perBlock + GAIN * error) / realPerPlanned + st.carry;
    const cap = MAX_ACTIONS_FACTOR * perBlock;

    const ctx = new TickContext(chain, now, chain.mcSeqno + 1);
    st.nftMoving = (st.nftMoving ?? []).filter(([, at]) => ctx.seqno - at <= IN_FLIGHT_BLOCKS);
    const out: DCell[] = [];
    let planned = 0;
    // An action that cannot be made is replaced by another pick, so the batch comes to the budget. Attempts are
    // bounded (every action is at least two transactions, so twice the cap's worth of actions): a profile whose
    // actions mostly fail, say every holder emptied, sends less and the error bound absorbs it.
    for (let i = 0; planned < budget && planned < cap && i < cap + 8; i++) {
      const made = this.action(this.pick(), ctx, i);
      if (!made) {
        st.dropped = (st.dropped ?? 0) + 1;
        continue;
      }
      out.push(made.msg);
      planned += made.txs;
    }
    // Only an overshoot is carried: a shortfall (cap, failed picks) is already in the next tick's error.
    st.carry = Math.min(0, budget - planned);
    st.lastPlanned = planned;
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

  private action(kind: ActionKind, ctx: TickContext, i: number): Planned | null {
    const a = this.actors;
    const queryId = BigInt(ctx.seqno) * 100_000n + BigInt(i);
    const made = (msg: DCell, txs = ACTIONS[kind].txs): Planned => ({ msg, txs });
    switch (kind) {
      case 'ton_transfer': {
        const from = this.choose(this.senders);
        const to = this.choose(a.wallets);
        return made(ctx.send(from, [{ to: to.address, value: BigInt(1 + this.int(1000)) * (TON / 100n), bounce: true, body: commentBody(`devnet payment ${queryId}`) }]));
      }
      case 'ton_to_new_address':
        return made(ctx.send(this.choose(this.senders), [{ to: this.freshAddress(), value: TON / 5n, bounce: false, body: commentBody('hello, new account') }]));
      case 'bounced_transfer': {
        const from = this.choose(this.senders);
        const to = this.freshAddress();
        this.opts.record?.({ kind, from: from.address, to, value: TON / 2n });
        return made(ctx.send(from, [{ to, value: TON / 2n, bounce: true, body: commentBody('this bounces') }]));
      }
      case 'failed_transaction': {
        // A jetton transfer sent to someone else's jetton wallet: the wallet rejects the sender and the message bounces.
        const from = this.choose(this.senders);
        const victim = this.choose(a.jetton.holders.filter((h) => h !== from));
        return made(ctx.send(from, [{ to: a.jetton.walletOf(victim.address), value: TON / 10n, bounce: true, body: jettonTransferBody(queryId, 1n, from.address, from.address, 0n, null) }]));
      }
      case 'wallet_deploy': {
        const from = this.choose(this.senders);
        const walletKind = this.choose(['v3r2', 'v4r2', 'v5r1'] as const);
        const w = new Wallet(walletKind, deriveKey(`${this.opts.seed}:deployed:${ctx.seqno}:${i}`), 0, 0x1000 + i);
        return made(ctx.send(from, [{ to: w.address, value: TON, bounce: false, init: stateInit(w.code, w.data) }]));
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
        this.opts.record?.({ kind, queryId, from: from.address, to: to.address, amount, minter: j.minter });
        return made(ctx.send(from, [{ to: j.walletOf(from.address), value: TON / 10n, bounce: true, body: jettonTransferBody(queryId, amount, to.address, from.address, TON / 100n, payload) }]));
      }
      case 'jetton_mint': {
        const j = a.jetton;
        const to = this.choose(a.wallets);
        const amount = BigInt(1 + this.int(10_000)) * TON;
        return made(ctx.send(j.admin, [{ to: j.minter, value: TON / 5n, bounce: true, body: standardMintBody(queryId, to.address, amount, j.admin.address) }]));
      }
      case 'jetton_burn': {
        const j = a.jetton;
        const from = this.choose(j.holders);
        const balance = ctx.jettonBalance(j, from.address);
        if (balance <= 0n) return null;
        return made(ctx.send(from, [{ to: j.walletOf(from.address), value: TON / 10n, bounce: true, body: jettonBurnBody(queryId, 1n + balance / 1000n, from.address) }]));
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
        this.opts.record?.({ kind, queryId, from: from.address, to: to.address, item: a.nft.itemAddress(index) });
        return made(ctx.send(from, [{ to: a.nft.itemAddress(index), value: TON / 10n, bounce: true, body: nftTransferBody(queryId, to.address, from.address, TON / 100n) }]));
      }
      case 'nft_mint': {
        // The collection counts items as it deploys them; mints still on their way are not in its state yet.
        const last = this.state.nftMinted;
        const stateNext = ctx.nftNextIndex(a);
        const index = last && ctx.seqno - last[1] <= IN_FLIGHT_BLOCKS ? Math.max(stateNext, last[0] + 1) : stateNext;
        this.state.nftMinted = [index, ctx.seqno];
        const to = this.choose(a.wallets);
        return made(ctx.send(a.nft.owner, [{ to: a.nft.collection, value: TON / 10n, bounce: true, body: nftMintBody(queryId, index, TON / 20n, to.address) }]));
      }
      case 'cross_workchain': {
        if (this.int(2) === 0) {
          const from = this.choose(this.senders);
          return made(ctx.send(from, [{ to: this.choose(a.mcWallets).address, value: TON, bounce: true, body: commentBody('to the masterchain') }]));
        }
        const from = this.choose(a.mcWallets);
        return made(ctx.send(from, [{ to: this.choose(a.wallets).address, value: TON, bounce: true, body: commentBody('from the masterchain') }]));
      }
      case 'highload_batch': {
        const from = this.choose(a.wallets.filter((w) => w.kind === 'highload-v3'));
        const n = 5 + this.int(11);
        const transfers: Transfer[] = [];
        for (let k = 0; k < n; k++) transfers.push({ to: this.choose(a.wallets).address, value: TON / 10n, bounce: false, body: commentBody(`batch ${queryId}/${k}`) });
        // The external, the batch's internal_transfer to the wallet itself, then one transaction per transfer.
        return made(ctx.send(from, transfers), 2 + n);
      }
    }
  }
}

/** A made action: its signed external and how many transactions its whole trace is expected to come to. */
interface Planned {
  msg: DCell;
  txs: number;
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

const ewma = (avg: number, x: number): number => avg + RATIO_ALPHA * (x - avg);

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
