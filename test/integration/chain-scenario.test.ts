import { afterAll, beforeAll, expect, it } from 'vitest';
import { commentBody } from '../../shared/sources/devnet/wallets.js';
import { TON } from '../../shared/sources/devnet/genesis.js';
import { type ChainScenario, type IndexedScenario, type SentExternal, chainScenario, rawAddress } from '../helpers/chain-traces.js';

/*
 * The scenario helper the classifier's real-contract tests stand on (test/helpers/chain-traces.ts): a TON transfer
 * with a comment between two devnet wallets, through the real TVM and the embedded pipeline, comes out as the one
 * ton_transfer the test sent.
 */

let s: ChainScenario;
let ix: IndexedScenario;
let sent: SentExternal;

beforeAll(async () => {
  s = await chainScenario({ seed: 'chain-scenario-test' });
  const [from, to] = s.actors.wallets;
  sent = await s.send(from!, [{ to: to!.address, value: 3n * TON, bounce: false, body: commentBody('scenario') }]);
  ix = await s.index();
}, 600_000);

afterAll(async () => {
  await ix?.close();
  s?.close();
});

it('a comment transfer between two wallets is one ton_transfer with the sender, receiver, value and comment sent', () => {
  const [from, to] = s.actors.wallets;
  const actions = ix.actionsOf(sent);
  expect(actions.map((a) => a.type)).toEqual(['ton_transfer']);
  const a = actions[0]!;
  expect(a['source']).toBe(rawAddress(from!.address));
  expect(a['destination']).toBe(rawAddress(to!.address));
  expect(String(a['value'])).toBe(String(3n * TON));
  expect(a.success).toBe(true);
  expect(a['ton_transfer_data']).toEqual({ content: 'scenario', encrypted: false });
  expect(a['tx_hashes']).toContain(sent.traceId);
});

it('hands out the action stage\'s classifier input for the trace', async () => {
  const { trace } = await ix.input(sent);
  expect(trace.transactions.length).toBe(2);
});
