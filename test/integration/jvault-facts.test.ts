import { Address, Cell, beginCell } from '@ton/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DCell, parseBocRoot } from '../../shared/sources/devnet/cell.js';
import type { GenesisAccount } from '../../shared/sources/devnet/chain.js';
import { TON } from '../../shared/sources/devnet/genesis.js';
import { type ChainScenario, type IndexedScenario, type SentExternal, chainScenario, rawAddress } from '../helpers/chain-traces.js';
import { describeFixtures, readFixture } from '../helpers/fixtures.js';

/*
 * A JVault unstake request through the action stage (services/actions/read.ts), the stake wallet and its pool holding
 * the real mainnet data TON Center recorded for them in the corpus trace of "Failed unstake request"
 * (fixtures/action-corpus, jvault.yaml). The chain (real TVM) gets, at their mainnet addresses: the stake wallet with
 * its recorded data and a code that refuses the request with exit code 46 (as the mainnet one did), the pool with its
 * recorded data, and the pool's lock wallet as a TEP-74 jetton wallet of a master the test picks. Only the stake
 * wallet transacts: the pool and the lock wallet are named by data alone, so the stage must follow the chain stake
 * wallet → pool → lock wallet through the stored states. Expected: the pool and the JVault jetton as TON Center read
 * them from the same data (the case's `destination` and `asset2`), the staked jetton the test put in the lock
 * wallet, the sender, amount and exit code the test drove.
 */

const TRACE = 'k4j3bwj6FjSeLcdN8t4usf2Dq4qWpHkNDm2WH8_qeq4=';
// From the case "Failed unstake request" and the trace's recorded data_boc entries (TON Center's answers).
const STAKE_WALLET = '0:1BEC198536F26D764F5B26CF305F44EFF1DE28204F09581E51FF938E435CD220';
const POOL = '0:DA0BEB83E10D069139C6F655EA3DBE472A0C94865CDC41524E1C90E70F254D51';
const LOCK_WALLET = '0:473430B4D4C1C3E14FB71481E4B70E902120645E01A98D0905A0E864815A5E95';
const JVAULT_JETTON = '0:B902CB5F4E7CBFBA9027079E6C82D63B0FC6A81E1E0FF8E4AB61A91FDA66274B';
const UNSTAKE_REQUEST = 0x0168d4b7;
/** `46 THROW` (F22E): the request refused as on mainnet. */
const REFUSE_CODE = beginCell().storeBuffer(Buffer.from('F22E', 'hex')).endCell();
const STAKED_JETTON = Address.parseRaw('0:' + '5E'.repeat(32));
const AMOUNT = 52_940_708_489_332n;

const dcell = (c: Cell): DCell => parseBocRoot(c.toBoc());

function genesisAccount(raw: string, code: Cell, data: Cell): GenesisAccount {
  const a = Address.parseRaw(raw);
  return { workchain: a.workChain, hash: new Uint8Array(a.hash), code: dcell(code), data: dcell(data), balance: TON };
}

function recordedData(account: string): Cell {
  const doc = JSON.parse(readFixture(`action-corpus/traces/${TRACE}.json`).toString('utf8')) as { interfaces: Record<string, { data_boc?: { data_boc: string } }> };
  return Cell.fromBase64(doc.interfaces[account]!.data_boc!.data_boc);
}

describeFixtures('JVault unstake request through the action stage, on the recorded stake wallet and pool data', () => {
  let s: ChainScenario;
  let ix: IndexedScenario;
  let sent: SentExternal;

  beforeAll(async () => {
    s = await chainScenario({
      seed: 'jvault-facts',
      extraAccounts: () => {
        const lockData = beginCell().storeCoins(AMOUNT).storeAddress(Address.parseRaw(POOL)).storeAddress(STAKED_JETTON).storeRef(Cell.EMPTY).endCell();
        return [
          genesisAccount(STAKE_WALLET, REFUSE_CODE, recordedData(STAKE_WALLET)),
          genesisAccount(POOL, REFUSE_CODE, recordedData(POOL)),
          genesisAccount(LOCK_WALLET, REFUSE_CODE, lockData),
        ];
      },
    });
    const body = beginCell().storeUint(UNSTAKE_REQUEST, 32).storeUint(7n, 64).storeCoins(AMOUNT).endCell();
    const to = Address.parseRaw(STAKE_WALLET);
    sent = await s.send(s.actors.wallets[0]!, [{ to: { workchain: to.workChain, hash: new Uint8Array(to.hash) }, value: TON / 5n, bounce: false, body: dcell(body) }]);
    ix = await s.index();
  }, 900_000);

  afterAll(async () => {
    await ix?.close();
    s?.close();
  });

  it('is one failed jvault_unstake_request with the pool, staked jetton and JVault jetton read along the data chain', () => {
    const rows = ix.actionsOf(sent).filter((a) => a.type === 'jvault_unstake_request');
    expect(rows).toHaveLength(1);
    const a = rows[0]! as Record<string, unknown>;
    expect(a.success).toBe(false);
    expect(a.source).toBe(rawAddress(s.actors.wallets[0]!.address));
    expect(a.source_secondary).toBe(STAKE_WALLET);
    expect(a.destination).toBe(POOL);
    expect(String(a.amount)).toBe(String(AMOUNT));
    expect(Number(a.opcode)).toBe(46);
    expect(a.asset).toBe(`0:${STAKED_JETTON.hash.toString('hex').toUpperCase()}`);
    expect(a.asset2).toBe(JVAULT_JETTON);
  });

  it("the stage's interface lookup holds the data_boc facts TON Center derived: the stake wallet's pool, the pool's lock wallet", async () => {
    const { repo } = await ix.input(sent);
    expect(repo(STAKE_WALLET)?.extra?.data_boc?.pool).toBe(POOL);
    expect(repo(POOL)?.extra?.data_boc?.lock_wallet_address).toBe(LOCK_WALLET);
    expect(repo(LOCK_WALLET)?.jettonWallet?.owner).toBe(POOL);
  });
});
