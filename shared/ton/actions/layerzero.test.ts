import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Address, beginCell } from '@ton/core';
import { expect, it } from 'vitest';
import { describeFixtures, fixturesDir } from '../../../test/helpers/fixtures.js';
import { createClassifier, parseCorpusTrace } from './index.js';
import type { AccountInterfaces } from './interfaces.js';
import type { TraceMessage, TraceTransaction } from './trace.js';

/*
 * layerzero_send_tokens has no case in the local corpus (its LayerZero sends are paid in TON). This test takes the
 * recorded mainnet send of "LayerZero send msg to tron" (layerzero.yaml) and has the OApp called by a TEP-74 jetton
 * transfer instead of its owner's wallet: wallet → its jetton wallet (transfer) → the OApp's jetton wallet
 * (internal_transfer) → the OApp (transfer_notification), after which the OApp's recorded messages (ENDPOINT_SEND
 * and its event) follow unchanged. Expected values: the transfer as built here, the LayerZero values as TON
 * Center's test case states them for the recorded send.
 */

const TRACE = '01yfeTlzIHDqWZwz-PJTRADD3nDv5LWynHMGsnPZGJU=';
const WALLET = '0:046DF220856DF594280CB1CBDDC08ACA2AB69ED35AD08479C801F3355CD8F09A';
const OAPP = '0:170725394AA56136FBD27D0CE31D8A98E0F8AE72A4D2379B5DDE83E211A2D5FA';
const WALLET_JW = `0:${'A1'.repeat(32)}`;
const OAPP_JW = `0:${'B2'.repeat(32)}`;
const MASTER = `0:${'C3'.repeat(32)}`;
const AMOUNT = 123456789n;

const addr = (raw: string) => Address.parse(raw);
const boc = (c: ReturnType<typeof beginCell>) => c.endCell().toBoc().toString('base64');

describeFixtures('LayerZero send paid by a jetton transfer (layerzero_send_tokens)', () => {
  it('the jetton transfer and the send fold into one layerzero_send_tokens', () => {
    const { trace, repo } = parseCorpusTrace(JSON.parse(readFileSync(path.join(fixturesDir, 'action-corpus', 'traces', `${TRACE}.json`), 'utf8')));
    // lts ×10 leave room for the two jetton wallet transactions between the wallet's and the OApp's.
    const x10 = (v: string | null) => (v === null ? null : (BigInt(v) * 10n).toString());
    for (const tx of trace.transactions) {
      tx.lt = x10(tx.lt)!;
      for (const m of tx.messages) m.created_lt = x10(m.created_lt);
    }
    const walletTx = trace.transactions.find((t) => t.account === WALLET && t.messages.some((m) => m.direction === 'in' && m.source === null))!;
    const toOapp = walletTx.messages.find((m) => m.direction === 'out' && m.destination === OAPP)!;
    const oappTx = trace.transactions.find((t) => t.messages.some((m) => m.direction === 'in' && m.msg_hash === toOapp.msg_hash))!;
    const base = BigInt(toOapp.created_lt!);
    const now = walletTx.now;
    const msg = (hash: string, tx: string, dir: 'in' | 'out', src: string, dst: string, lt: bigint, op: number, body: string): TraceMessage => ({
      msg_hash: hash,
      tx_hash: tx,
      direction: dir,
      source: src,
      destination: dst,
      value: '50000000',
      created_lt: lt.toString(),
      created_at: now,
      opcode: op | 0,
      bounce: true,
      bounced: false,
      body,
    });
    const transfer = boc(
      beginCell().storeUint(0x0f8a7ea5, 32).storeUint(7, 64).storeCoins(AMOUNT).storeAddress(addr(OAPP)).storeAddress(addr(WALLET)).storeBit(false).storeCoins(1).storeBit(false),
    );
    const internal = boc(beginCell().storeUint(0x178d4519, 32).storeUint(7, 64).storeCoins(AMOUNT).storeAddress(addr(WALLET)).storeAddress(addr(WALLET)).storeCoins(1).storeBit(false));
    const notify = boc(beginCell().storeUint(0x7362d09c, 32).storeUint(7, 64).storeCoins(AMOUNT).storeAddress(addr(WALLET)).storeBit(false));
    const tx = (hash: string, account: string, lt: bigint, messages: TraceMessage[]): TraceTransaction => ({
      ...walletTx,
      hash,
      account,
      lt: lt.toString(),
      messages,
    });
    const jwTxA = 'jwA', jwTxB = 'jwB';
    // wallet → its jetton wallet (the recorded out message, now a transfer).
    Object.assign(toOapp, { msg_hash: 'm1', destination: WALLET_JW, opcode: 0x0f8a7ea5, body: transfer });
    const txA = tx(jwTxA, WALLET_JW, base + 2n, [msg('m1', jwTxA, 'in', WALLET, WALLET_JW, base, 0x0f8a7ea5, transfer), msg('m2', jwTxA, 'out', WALLET_JW, OAPP_JW, base + 3n, 0x178d4519, internal)]);
    const txB = tx(jwTxB, OAPP_JW, base + 5n, [msg('m2', jwTxB, 'in', WALLET_JW, OAPP_JW, base + 3n, 0x178d4519, internal), msg('m3', jwTxB, 'out', OAPP_JW, OAPP, base + 6n, 0x7362d09c, notify)]);
    // The OApp now starts from the notification.
    const inOapp = oappTx.messages.find((m) => m.direction === 'in')!;
    Object.assign(inOapp, { msg_hash: 'm3', source: OAPP_JW, opcode: 0x7362d09c, body: notify, created_lt: (base + 6n).toString() });
    trace.transactions.push(txA, txB);
    const wallets: Record<string, AccountInterfaces> = {
      [WALLET_JW]: { jettonWallet: { address: WALLET_JW, owner: WALLET, jetton: MASTER, balance: 0n } },
      [OAPP_JW]: { jettonWallet: { address: OAPP_JW, owner: OAPP, jetton: MASTER, balance: AMOUNT } },
    };

    const rows = createClassifier((a) => wallets[a] ?? repo(a)).classify(trace);
    const top = rows.filter((r) => r.parent_action_id === null);
    expect(top.filter((r) => r.type.startsWith('layerzero_') || r.type === 'jetton_transfer').map((r) => r.type)).toEqual(['layerzero_send_tokens']);
    const st = top.find((r) => r.type === 'layerzero_send_tokens')!;
    expect(st).toMatchObject({
      source: WALLET,
      source_secondary: WALLET_JW,
      destination: OAPP,
      destination_secondary: OAPP_JW,
      asset: MASTER,
      amount: AMOUNT,
      layerzero_send_data: {
        send_request_id: 90n,
        native_fee: 14835102020n,
        zro_fee: 0n,
        endpoint: '0:02A7E49D90DF81A1944DAC9241F477DBB17CB0C87313EAF2C58A13D85EF942D3',
        channel: '0:1348A0E6846379668D3AFB785299609F3930EE80A177F4C88263E3741DB3D90F',
        uln: '0:063BDFBF347F883DDBA72A200563570AF2DC72695B2B2FCCAAECD113688AC570',
        msglib_manager: '0x150645746e25be5486eb3b2f5d98b44c6b324697c48d495d059f96fc9d3ec368',
        msglib: '0x63bdfbf347f883ddba72a200563570af2dc72695b2b2fccaaecd113688ac570',
      },
      layerzero_packet_data: { src_eid: 30343, dst_eid: 30420, nonce: 90n, dst_oapp: '0x8925c1dd3e5d8011946a3430d91be742ba8ee930' },
    });
    // The transfer and the send are its children.
    const children = rows.filter((r) => r.parent_action_id === st.action_id).map((r) => r.type);
    expect(children).toContain('jetton_transfer');
    expect(children).toContain('layerzero_send');
  });
});
