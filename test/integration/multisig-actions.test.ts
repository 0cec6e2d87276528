import { Address, Cell, Dictionary, beginCell, internal, parseTuple, storeMessageRelaxed } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBocRoot } from '../../shared/sources/devnet/cell.js';
import type { StdAddr } from '../../shared/sources/devnet/tlb.js';
import { actionDetails } from '../../shared/ton/actions/api.js';
import { methodId } from '../../shared/tvm/method-id.js';
import { type ChainScenario, type IndexedScenario, type SentExternal, chainScenario, rawAddress } from '../helpers/chain-traces.js';

/*
 * Multisig v2 on the real contracts (the devnet genesis multisig: multisig-contract-v2's build, three signers that
 * are devnet wallets, threshold 2): one signer creates an order through its wallet, a second approves it by opcode,
 * which reaches the threshold and executes it; a third approves by comment afterwards and is refused. The actions
 * the pipeline stores for each trace are checked against what this test sent (who, which order, its seqno, the
 * order's actions, the query ids) and what the contracts' source states (the refusal's exit code, error.func).
 */

const TON = 1_000_000_000n;
const toD = (c: Cell) => parseBocRoot(c.toBoc());
const addr = (a: StdAddr): Address => new Address(a.workchain, Buffer.from(a.hash));
type Row = Record<string, any>;

const CREATE_QUERY = 0x1234_5678_9abcn;
const APPROVE_QUERY = 0x0fed_cba9n;
const PAYOUT = 500_000_000n;
/** multisig-contract-v2 contracts/errors.func `error::already_executed`. */
const ALREADY_EXECUTED = 112;

describe('multisig v2 actions from the real contracts on the devnet', () => {
  let s: ChainScenario;
  let ix: IndexedScenario;
  let created: SentExternal;
  let approved: SentExternal;
  let late: SentExternal;
  let orderAddress: string;
  let orderCell: Cell;
  let message: Cell;
  let expiration: number;

  beforeAll(async () => {
    s = await chainScenario({ seed: 'multisig-actions', walletsPerKind: 2 });
    const ms = s.actors.multisig;
    expect(ms.signers.length).toBeGreaterThanOrEqual(3);
    expect(ms.threshold).toBe(2);
    const recipient = s.actors.wallets[0]!;

    // The order: one send_message (mode 3) paying the recipient, as multisig.tlb's `Order` (`Hashmap 8 Action`,
    // each action by reference).
    message = beginCell().store(storeMessageRelaxed(internal({ to: addr(recipient.address), value: PAYOUT, bounce: false, body: 'from the multisig' }))).endCell();
    const actions = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell());
    actions.set(0, beginCell().storeUint(0xf1381e5b, 32).storeUint(3, 8).storeRef(message).endCell());
    orderCell = beginCell().storeDictDirect(actions).endCell();
    expiration = s.now + 3600;

    // Signer 0 creates order 0 (the multisig's next seqno at genesis) and approves it on init.
    const newOrder = beginCell().storeUint(0xf718510f, 32).storeUint(CREATE_QUERY, 64).storeUint(0n, 256).storeBit(1).storeUint(0, 8).storeUint(expiration, 48).storeRef(orderCell).endCell();
    created = await s.send(ms.signers[0]!, [{ to: ms.address, value: TON, bounce: true, body: toD(newOrder) }]);

    // The order's address as the multisig itself computes it (get_order_address).
    const got = await s.chain.runGetMethod(addr(ms.address), methodId('get_order_address'), [{ type: 'int', value: 0n }]);
    if ('error' in got) throw new Error(got.error);
    expect(got.exitCode).toBe(0);
    const item = parseTuple(Cell.fromBase64(got.stack))[0]!;
    if (item.type !== 'slice') throw new Error('get_order_address: not a slice');
    const order = item.cell.beginParse().loadAddress();
    orderAddress = `${order.workChain}:${order.hash.toString('hex').toUpperCase()}`;

    // Signer 1 approves by opcode: the second approval executes the order.
    const approve = beginCell().storeUint(0xa762230f, 32).storeUint(APPROVE_QUERY, 64).storeUint(1, 8).endCell();
    approved = await s.send(ms.signers[1]!, [{ to: { workchain: order.workChain, hash: order.hash }, value: TON / 5n, bounce: true, body: toD(approve) }]);

    // Signer 2 approves by comment after the execution: refused.
    const comment = beginCell().storeUint(0, 32).storeStringTail('approve').endCell();
    late = await s.send(ms.signers[2]!, [{ to: { workchain: order.workChain, hash: order.hash }, value: TON / 5n, bounce: true, body: toD(comment) }]);

    ix = await s.index();
  });

  afterAll(async () => {
    await ix?.close();
    s?.close();
  });

  const signers = () => s.actors.multisig.signers.map((w) => rawAddress(w.address));
  /** The trace's top-level rows (child rows, under a non-v1 parent, carry its action id). */
  const top = (rows: Row[]): Row[] => rows.filter((r) => r.parent_action_id === null);
  const only = (rows: Row[], type: string): Row => {
    const found = top(rows).filter((r) => r.type === type);
    expect(found.map((r) => r.type), `${type} in ${rows.map((r) => r.type).join(', ')}`).toEqual([type]);
    return found[0]!;
  };
  const sameCell = (boc: string, cell: Cell): void => {
    // Without CRC32C, as TON Center writes order_boc (actions.md, BOC encodings): `b5ee9c72 01 ...`.
    expect(Buffer.from(boc, 'base64').subarray(0, 5).toString('hex')).toBe('b5ee9c7201');
    expect(Cell.fromBase64(boc).hash().equals(cell.hash())).toBe(true);
  };

  it('creating the order: multisig_create_order from the creator to the multisig and the new order', () => {
    const rows = ix.actionsOf(created) as Row[];
    const a = only(rows, 'multisig_create_order');
    expect(a.success).toBe(true);
    expect(a.source).toBe(rawAddress(s.actors.multisig.signers[0]!.address));
    expect(a.destination).toBe(rawAddress(s.actors.multisig.address));
    expect(a.destination_secondary).toBe(orderAddress);
    const d = a.multisig_create_order_data;
    // TON Center reads the order's init with its signers as a HashmapE (a presence bit the multisig does not write:
    // bodies/Multisig.ts `loadMultisigInitOrderAsTonCenter`), so what it stores as `order_boc` is the init's first
    // reference, the multisig's signers dictionary (`Hashmap 8 MsgAddressInt`, multisig.func `store_nonempty_dict`),
    // and `is_signed_by_creator` the top bit of the creator's index 0.
    expect(d).toMatchObject({ query_id: CREATE_QUERY.toString(), order_seqno: '0', is_created_by_signer: true, is_signed_by_creator: false, creator_index: 0, expiration_date: expiration });
    const signersDict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
    s.actors.multisig.signers.forEach((w, i) => signersDict.set(i, addr(w.address)));
    sameCell(d.order_boc, beginCell().storeDictDirect(signersDict).endCell());
    // API v3 details, as ton-index-go's ActionDetailsMultisigCreateOrder spreads them.
    expect(actionDetails(a as never)).toEqual({
      query_id: CREATE_QUERY.toString(),
      order_seqno: '0',
      is_created_by_signer: true,
      is_signed_by_creator: false,
      creator_index: 0,
      expiration_date: expiration,
      order_boc: d.order_boc,
      source: a.source,
      destination: a.destination,
      destination_order: orderAddress,
    });
    expect(a.accounts).toEqual(expect.arrayContaining([rawAddress(s.actors.multisig.signers[0]!.address), rawAddress(s.actors.multisig.address), orderAddress]));
    // The order's deployment is lifted to the top level (TON Center `unwind_deployments`).
    expect(top(rows).map((r) => r.type).sort()).toEqual(['contract_deploy', 'multisig_create_order']);
    expect(only(rows, 'contract_deploy').destination).toBe(orderAddress);
    // Its parts, as child rows: the new_order and the order's init.
    expect(rows.filter((r) => r.parent_action_id === a.action_id).map((r) => [r.type, r.opcode])).toEqual(
      expect.arrayContaining([
        ['call_contract', 0xf718510f],
        ['call_contract', 0x9c73fba2],
      ]),
    );
  });

  it('the approval that reaches the threshold: multisig_approve, then multisig_execute of the order, then its payout', () => {
    const rows = ix.actionsOf(approved) as Row[];
    const a = only(rows, 'multisig_approve');
    expect(a.success).toBe(true);
    expect(a.source).toBe(rawAddress(s.actors.multisig.signers[1]!.address));
    expect(a.destination).toBe(orderAddress);
    expect(a.multisig_approve_data).toEqual({ signer_index: 1, exit_code: 0 });

    const e = only(rows, 'multisig_execute');
    expect(e.success).toBe(true);
    expect(e.source).toBe(orderAddress);
    expect(e.destination).toBe(rawAddress(s.actors.multisig.address));
    const d = e.multisig_execute_data;
    // The order sends execute with the query id of the approval that completed it (order.func try_execute).
    expect(d).toMatchObject({ query_id: APPROVE_QUERY.toString(), order_seqno: '0', expiration_date: expiration, approvals_num: 2 });
    const signersDict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
    s.actors.multisig.signers.forEach((w, i) => signersDict.set(i, addr(w.address)));
    expect(d.signers_hash).toBe(beginCell().storeDictDirect(signersDict).endCell().hash().toString('base64'));
    sameCell(d.order_boc, orderCell);
    // The executed order's action, read back from order_boc: the send_message this test put in it.
    const executed = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Cell(), Cell.fromBase64(d.order_boc).beginParse());
    expect(executed.keys()).toEqual([0]);
    const action = executed.get(0)!.beginParse();
    expect(action.loadUint(32)).toBe(0xf1381e5b);
    expect(action.loadUint(8)).toBe(3);
    expect(action.loadRef().hash().equals(message.hash())).toBe(true);
    expect(top(rows).map((r) => r.type).sort()).toEqual(['multisig_approve', 'multisig_execute', 'ton_transfer']);

    // What the multisig did on execution: the payout, a plain transfer of its own.
    const payout = only(rows, 'ton_transfer');
    expect(payout.source).toBe(rawAddress(s.actors.multisig.address));
    expect(payout.destination).toBe(rawAddress(s.actors.wallets[0]!.address));
    expect(payout.value).toBe(PAYOUT.toString());
    expect(payout.ton_transfer_data).toMatchObject({ content: 'from the multisig' });
  });

  it('an approval by comment after the execution: a refused multisig_approve without signer index', () => {
    const rows = ix.actionsOf(late) as Row[];
    const a = only(rows, 'multisig_approve');
    expect(a.success).toBe(false);
    expect(a.source).toBe(rawAddress(s.actors.multisig.signers[2]!.address));
    expect(a.destination).toBe(orderAddress);
    expect(a.multisig_approve_data).toEqual({ signer_index: -1, exit_code: ALREADY_EXECUTED });
    expect(actionDetails(a as never)).toEqual({ signer_index: -1, exit_code: ALREADY_EXECUTED, source: a.source, destination: orderAddress });
    expect(top(rows).map((r) => r.type)).toEqual(['multisig_approve']);
  });

  // TON Center adds every signer of the order to a multisig action's accounts, from the order's state. The order's
  // signers cell arrives in the body of the multisig's deploying `init` message, queued in the shard's out queue, so
  // the state update prunes it: the cell store has it from that message (shared/ton/decode-block.ts).
  it("the order's signers in the accounts of each multisig action", () => {
    for (const sent of [created, approved, late]) {
      for (const r of top(ix.actionsOf(sent) as Row[]).filter((x) => String(x.type).startsWith('multisig_'))) {
        expect(r.accounts, r.type).toEqual(expect.arrayContaining(signers()));
      }
    }
  });
});
