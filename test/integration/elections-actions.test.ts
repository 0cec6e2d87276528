import { Address, type TupleItem } from '@ton/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GenesisAccount } from '../../shared/sources/devnet/chain.js';
import { type DCell, DBuilder, type DSlice, parseBocRoot } from '../../shared/sources/devnet/cell.js';
import { TON } from '../../shared/sources/devnet/genesis.js';
import { type StdAddr, readAccount, walkDict } from '../../shared/sources/devnet/tlb.js';
import { PersistentTrie } from '../../shared/sources/devnet/trie.js';
import { type KeyPair, type Wallet, deriveKey, signHash } from '../../shared/sources/devnet/wallets.js';
import { keyFromInt } from '../../shared/ton/tlb/Hashmap.js';
import { type StoredAction, actionDetails } from '../../shared/ton/actions/api.js';
import { MAINNET_CONFIG_BOC } from '../../shared/tvm/mainnet-config.js';
import { methodId } from '../../shared/tvm/method-id.js';
import { stackFromB64 } from '../../shared/tvm/stack.js';
import { type ChainScenario, type IndexedScenario, type SentExternal, chainScenario, rawAddress } from '../helpers/chain-traces.js';
import { describeFixtures, readFixture } from '../helpers/fixtures.js';

/*
 * Validator elections (`election_deposit`, `election_recover`) on the REAL elector: the code of the mainnet elector
 * account -1:3333…3333 (../shared/fixtures/states/mainnet_account_-1_3333_elector_full.boc) put into the devnet
 * genesis at its own address, driven from the genesis masterchain wallets (real TVM, through the embedded pipeline's
 * trace and action stages, test/helpers/chain-traces.ts).
 *
 * The recorded account has no election open (its `elect` dictionary is empty), so its data is rebuilt in the
 * storage layout of ton-blockchain/ton crypto/smartcont/elector-code.fc (`load_data`: `elect:(Maybe ^Elect)
 * credits:(HashmapE 256 Grams) past_elections:(HashmapE 32 PastElection) grams:Grams active_id:uint32
 * active_hash:uint256`): an election in progress packed as `pack_elect` writes it (`elect_at elect_close min_stake
 * total_stake members failed finished`), with the values `announce_new_elections` derives from the devnet's
 * configuration (ConfigParam 15 `elections_start_before` / `elections_end_before`, ConfigParam 17 `min_stake`); the
 * recorded credits with one more entry (a credit of the first masterchain wallet, as `credit_to` stores it: key the
 * address' 256 bits, value Grams), the recorded past elections, grams and active validator set as they are.
 *
 * The elector reads no configuration parameter on `new_stake` or `recover_stake` (`process_new_stake`,
 * `recover_stake` use only its data); the devnet runs no tick-tock transactions, so the election stays open and is
 * never conducted. Every expected value is what the test sent and what the elector answered (its opcodes and the
 * stakes its get-methods report).
 */

const ELECTOR_HASH = new Uint8Array(32).fill(0x33);
const ELECTOR: StdAddr = { workchain: -1, hash: ELECTOR_HASH };
const NEW_STAKE = 0x4e73744b;
const NEW_STAKE_CONFIRMATION = 0xf374484c;
const RETURN_STAKE = 0xee6f454c;
const RECOVER_STAKE = 0x47657424;
const RECOVER_STAKE_OK = 0xf96f7324;
const RECOVER_STAKE_ERROR = 0xfffffffe;
/** The stake request's signed tag (elector-code.fc `process_new_stake`: `0x654c5074`). */
const STAKE_SIGN_TAG = 0x654c5074;
/** max_factor 3.0 (16.16 fixed point; at least 0x10000). */
const MAX_FACTOR = 3 * 0x10000;
const CREDIT = 12_345n * TON;
const ADNL = 0x5a5an;

const cell = (fill: (b: DBuilder) => void): DCell => {
  const b = new DBuilder();
  fill(b);
  return b.endCell();
};
const addrInt = (a: StdAddr): bigint => BigInt(`0x${Buffer.from(a.hash).toString('hex')}`);
const keyInt = (k: KeyPair): bigint => BigInt(`0x${Buffer.from(k.publicKey).toString('hex')}`);

/** The devnet's configuration parameters (the mainnet configuration it runs with, shared/sources/devnet/chain.ts). */
function configParams(): Map<number, DCell> {
  const params = new Map<number, DCell>();
  walkDict(parseBocRoot(Buffer.from(MAINNET_CONFIG_BOC, 'base64')), 32, (v, k) => params.set(Buffer.from(k).readInt32BE(0), v.loadRef()));
  return params;
}

interface Election {
  electAt: number;
  electClose: number;
  minStake: bigint;
}

/**
 * The election `announce_new_elections` opens at `now`: `elect_at = now + elections_start_before`, `elect_close =
 * elect_at - elections_end_before` (ConfigParam 15 `validators_elected_for elections_start_before
 * elections_end_before stake_held_for`), `min_stake` from ConfigParam 17 (`min_stake max_stake min_total_stake
 * max_stake_factor`).
 */
function electionAt(params: Map<number, DCell>, now: number): Election {
  const p15 = params.get(15)!.beginParse();
  p15.loadUint(32);
  const startBefore = p15.loadUint(32);
  const endBefore = p15.loadUint(32);
  const electAt = now + startBefore;
  return { electAt, electClose: electAt - endBefore, minStake: params.get(17)!.beginParse().loadCoins() };
}

const creditsSpec = { bits: 256, storeValue: (v: bigint, b: DBuilder) => b.storeCoins(v), loadValue: (s: DSlice) => s.loadCoins() };

/** The recorded elector data with an open election and `holder` credited `CREDIT` (layout: see the header). */
function electorData(recorded: DCell, e: Election, holder: StdAddr): DCell {
  const ds = recorded.beginParse();
  expect(ds.loadMaybeRef(), 'the recorded elector has no election open').toBeNull();
  const credits = PersistentTrie.load(creditsSpec, ds).set(keyFromInt(addrInt(holder), 256), CREDIT);
  const elect = cell((b) => {
    b.storeUint(e.electAt, 32);
    b.storeUint(e.electClose, 32);
    b.storeCoins(e.minStake);
    b.storeCoins(0n); // total_stake
    b.storeBit(0); // members: empty
    b.storeInt(0, 1); // failed
    b.storeInt(0, 1); // finished
  });
  return cell((b) => {
    b.storeMaybeRef(elect);
    credits.storeE(b);
    b.storeSlice(ds); // past_elections grams active_id active_hash, as recorded
  });
}

/**
 * `new_stake#4e73744b query_id:uint64 validator_pubkey:uint256 stake_at:uint32 max_factor:uint32 adnl_addr:uint256
 * signature:^bits512`, the signature by the validator key over `0x654c5074 stake_at:uint32 max_factor:uint32
 * src_addr:uint256 adnl_addr:uint256` (elector-code.fc `process_new_stake`).
 */
function newStake(queryId: bigint, validator: KeyPair, signer: KeyPair, stakeAt: number, src: StdAddr): DCell {
  const signed = cell((b) => {
    b.storeUint(STAKE_SIGN_TAG, 32);
    b.storeUint(stakeAt, 32);
    b.storeUint(MAX_FACTOR, 32);
    b.storeBytes(src.hash);
    b.storeUint(ADNL, 256);
  });
  const signature = signHash(signer, Buffer.from(signed.beginParse().loadBytes(signed.bits / 8)));
  return cell((b) => {
    b.storeUint(NEW_STAKE, 32);
    b.storeUint(queryId, 64);
    b.storeBytes(validator.publicKey);
    b.storeUint(stakeAt, 32);
    b.storeUint(MAX_FACTOR, 32);
    b.storeUint(ADNL, 256);
    b.storeRef(cell((c) => c.storeBytes(signature)));
  });
}

const recoverStake = (queryId: bigint): DCell =>
  cell((b) => {
    b.storeUint(RECOVER_STAKE, 32);
    b.storeUint(queryId, 64);
  });

describeFixtures('elections on the mainnet elector', () => {
  let s: ChainScenario;
  let ix: IndexedScenario;
  let staker: Wallet;
  let other: Wallet;
  let election: Election;
  const validator = deriveKey('elections-actions:validator');
  const otherValidator = deriveKey('elections-actions:other-validator');
  const intruder = deriveKey('elections-actions:not-the-validator');
  const sent: Record<string, SentExternal> = {};
  let stakeValue: bigint;
  const got: Record<string, bigint> = {};

  /** An integer get-method of the elector on its current state (elector-code.fc "Get methods"). */
  const getInt = async (method: string, ...args: bigint[]): Promise<bigint> => {
    const stack: TupleItem[] = args.map((value) => ({ type: 'int', value }));
    const r = await s.chain.runGetMethod(Address.parseRaw(rawAddress(ELECTOR)), methodId(method), stack);
    if ('error' in r) throw new Error(r.error);
    expect(r.exitCode).toBe(0);
    const [top] = stackFromB64(r.stack);
    if (top?.type !== 'int') throw new Error(`${method}: ${top?.type}`);
    return top.value;
  };

  beforeAll(async () => {
    const params = configParams();
    // ConfigParam 1 (`elector_addr:bits256`) names the account the test puts there.
    expect(Buffer.from(params.get(1)!.beginParse().loadBytes(32)).equals(Buffer.from(ELECTOR_HASH))).toBe(true);
    const recorded = readAccount(parseBocRoot(readFixture('states/mainnet_account_-1_3333_elector_full.boc')));
    expect(recorded.status).toBe('active');
    s = await chainScenario({
      seed: 'elections-actions',
      extraAccounts: (actors, now): GenesisAccount[] => {
        election = electionAt(params, now);
        const data = electorData(recorded.data!, election, actors.mcWallets[0]!.address);
        return [{ workchain: -1, hash: ELECTOR_HASH, code: recorded.code!, data, balance: CREDIT + 1_000n * TON }];
      },
    });
    [staker, other] = s.actors.mcWallets as [Wallet, Wallet];
    // The elector's own view before anything is sent.
    got.activeElection = await getInt('active_election_id');
    got.returnedBefore = await getInt('compute_returned_stake', addrInt(staker.address));

    // The stake is the request's value less the GR$1 the elector keeps for its confirmation.
    stakeValue = election.minStake + 2n * TON;
    sent.deposit = await s.send(staker, [{ to: ELECTOR, value: stakeValue, bounce: true, body: newStake(101n, validator, validator, election.electAt, staker.address) }]);
    got.participates = await getInt('participates_in', keyInt(validator));
    // Query id 0: the elector takes the stake (merged with the first, same key and address) but sends no confirmation.
    sent.depositUnconfirmed = await s.send(staker, [{ to: ELECTOR, value: stakeValue, bounce: true, body: newStake(0n, validator, validator, election.electAt, staker.address) }]);
    got.participatesAfterSecond = await getInt('participates_in', keyInt(validator));
    // Signed by another key than the one it names: the elector returns the stake (return_stake, reason 1).
    sent.depositRefused = await s.send(other, [{ to: ELECTOR, value: stakeValue, bounce: true, body: newStake(102n, otherValidator, intruder, election.electAt, other.address) }]);
    sent.recover = await s.send(staker, [{ to: ELECTOR, value: TON, bounce: true, body: recoverStake(103n) }]);
    got.returnedAfter = await getInt('compute_returned_stake', addrInt(staker.address));
    // No credit for this wallet: the elector answers 0xfffffffe.
    sent.recoverRefused = await s.send(other, [{ to: ELECTOR, value: TON, bounce: true, body: recoverStake(104n) }]);
    ix = await s.index();
  }, 600_000);

  afterAll(async () => {
    await ix?.close();
    s?.close();
  });

  /** The one message from `from` to `to` in the trace, as the chain carried it. */
  async function messageOf(e: SentExternal, from: StdAddr, to: StdAddr): Promise<{ value: bigint; body: DSlice }> {
    const { trace } = await ix.input(e);
    const msgs = trace.transactions.flatMap((t) => t.messages).filter((m) => m.direction === 'in' && m.source === rawAddress(from) && m.destination === rawAddress(to));
    expect(msgs).toHaveLength(1);
    const m = msgs[0]!;
    return { value: BigInt(m.value!), body: parseBocRoot(Buffer.from(m.body!, 'base64')).beginParse() };
  }

  /** The trace's actions, of exactly these types in this order. */
  function actionsOf(e: SentExternal, types: string[]): Array<Record<string, unknown>> {
    const actions = ix.actionsOf(e);
    expect(actions.map((a) => a.type)).toEqual(types);
    return actions;
  }
  const only = (e: SentExternal, type: string): Record<string, unknown> => actionsOf(e, [type])[0]!;

  /**
   * A refusal is not the confirmation the matchers wait for, so it stays the elector's own call_contract to the
   * wallet, as TON Center's matchers leave it (blocks/elections.py: only the confirmation opcode is their child).
   */
  function expectRefusal(a: Record<string, unknown>, to: StdAddr, op: number, value: bigint): void {
    expect(a['source']).toBe(rawAddress(ELECTOR));
    expect(a['destination']).toBe(rawAddress(to));
    expect(Number(a['opcode'])).toBe(op);
    expect(String(a['value'])).toBe(String(value));
  }

  it('the recorded elector runs with the election built for it and the credit given to the staker', () => {
    expect(got.activeElection).toBe(BigInt(election.electAt));
    expect(got.returnedBefore).toBe(CREDIT);
  });

  it('an accepted stake is an election_deposit of the wallet for the value it sent', async () => {
    // The elector took it (participates_in: the stake less GR$1) and confirmed it (op 0xf374484c, query id kept).
    expect(got.participates).toBe(stakeValue - TON);
    const answer = await messageOf(sent.deposit!, ELECTOR, staker.address);
    expect(answer.body.loadUint(32)).toBe(NEW_STAKE_CONFIRMATION);
    expect(answer.body.loadUintBig(64)).toBe(101n);
    const a = only(sent.deposit!, 'election_deposit');
    expect(a.success).toBe(true);
    expect(a['source']).toBe(rawAddress(staker.address));
    expect(String(a['amount'])).toBe(String(stakeValue));
    expect(actionDetails(a as unknown as StoredAction)).toEqual({ stake_holder: rawAddress(staker.address), amount: String(stakeValue) });
  });

  it('a stake taken without a confirmation (query id 0) is a failed election_deposit, as TON Center rules it', () => {
    // elector-code.fc `process_new_stake` confirms only when query_id is not 0; blocks/elections.py marks a deposit
    // without its confirmation failed, whatever the elector did with the stake.
    expect(got.participatesAfterSecond).toBe(2n * (stakeValue - TON));
    const a = only(sent.depositUnconfirmed!, 'election_deposit');
    expect(a.success).toBe(false);
    expect(a['source']).toBe(rawAddress(staker.address));
    expect(String(a['amount'])).toBe(String(stakeValue));
  });

  it('a stake with a bad signature, returned by the elector, is a failed election_deposit and the return', async () => {
    const answer = await messageOf(sent.depositRefused!, ELECTOR, other.address);
    expect(answer.body.loadUint(32)).toBe(RETURN_STAKE);
    expect(answer.body.loadUintBig(64)).toBe(102n);
    expect(answer.body.loadUint(32)).toBe(1); // reason 1: incorrect signature
    const [a, refusal] = actionsOf(sent.depositRefused!, ['election_deposit', 'call_contract']) as [Record<string, unknown>, Record<string, unknown>];
    expectRefusal(refusal, other.address, RETURN_STAKE, answer.value);
    expect(a.success).toBe(false);
    expect(a['source']).toBe(rawAddress(other.address));
    expect(String(a['amount'])).toBe(String(stakeValue));
  });

  it('a recovered stake is an election_recover of the wallet for the value the elector paid back', async () => {
    // recover_stake deleted the credit and sent it with the rest of the request's value (mode 64).
    expect(got.returnedAfter).toBe(0n);
    const answer = await messageOf(sent.recover!, ELECTOR, staker.address);
    expect(answer.body.loadUint(32)).toBe(RECOVER_STAKE_OK);
    expect(answer.body.loadUintBig(64)).toBe(103n);
    expect(answer.value > CREDIT && answer.value <= CREDIT + TON).toBe(true);
    const a = only(sent.recover!, 'election_recover');
    expect(a.success).toBe(true);
    expect(a['source']).toBe(rawAddress(staker.address));
    expect(String(a['amount'])).toBe(String(answer.value));
    expect(actionDetails(a as unknown as StoredAction)).toEqual({ stake_holder: rawAddress(staker.address), amount: String(answer.value) });
  });

  it('a recover without a credit, refused by the elector, is a failed election_recover without an amount and the refusal', async () => {
    const answer = await messageOf(sent.recoverRefused!, ELECTOR, other.address);
    expect(answer.body.loadUint(32)).toBe(RECOVER_STAKE_ERROR);
    expect(answer.body.loadUintBig(64)).toBe(104n);
    expect(answer.body.loadUint(32)).toBe(RECOVER_STAKE); // the op it answers
    const [a, refusal] = actionsOf(sent.recoverRefused!, ['election_recover', 'call_contract']) as [Record<string, unknown>, Record<string, unknown>];
    expectRefusal(refusal, other.address, RECOVER_STAKE_ERROR, answer.value);
    expect(a.success).toBe(false);
    expect(a['source']).toBe(rawAddress(other.address));
    expect(a['amount'] ?? null).toBeNull();
    expect(actionDetails(a as unknown as StoredAction)).toEqual({ stake_holder: rawAddress(other.address) });
  });
});
