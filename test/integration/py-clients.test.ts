import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Address } from '@ton/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { actors } from '../../shared/sources/devnet/genesis.js';
import { DEFAULT_SUBWALLET } from '../../shared/sources/devnet/wallets.js';
import { decodeBlock } from '../../shared/ton/decode-block.js';
import { type DevnetTonflow, startDevnetTonflow } from '../helpers/devnet-tonflow.js';
import { describeWith } from '../helpers/requires.js';

/**
 * TON Center's published Python clients (PyPI tonutils and toncenter, pinned by .ci/pyclients.sh) against a
 * devnet-backed tonflow on a real loopback socket: test/py/clients.py reads a devnet wallet's balance and seqno,
 * opens it as tonutils' WalletV4R2 from the devnet's key, sends a signed transfer, and finds the transaction with
 * getTransactions. Every value is checked against the devnet itself (its account state, its get-method run on that
 * state, the block it sealed), never against the gateway.
 */

const SEED = 'py-clients';
const WALLETS_PER_KIND = 2;
const SCRIPT = fileURLToPath(new URL('../py/clients.py', import.meta.url));

function python(bin: string, args: string[]): Promise<any> {
  return new Promise((resolve, reject) => {
    execFile(bin, [SCRIPT, ...args], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`clients.py ${args[0]} failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

describeWith(
  'TON Center Python clients (tonutils, toncenter SDK) on a devnet-backed tonflow',
  {
    what: 'the Python clients',
    flag: 'TONFLOW_REQUIRE_PY_CLIENTS',
    missing: 'TONFLOW_PY_CLIENTS not set (source .ci/pyclients.sh && pyclients_install exports it)',
    suites: 'Python client tests',
    value: process.env.TONFLOW_PY_CLIENTS?.trim() || undefined,
  },
  (bin) => {
    let net: DevnetTonflow;
    const run = (step: string, ...args: Array<string | number>) => python(bin, [step, net.endpoint, SEED, ...args.map(String)]);
    const wallet = actors({ seed: SEED, now: 0, walletsPerKind: WALLETS_PER_KIND }).wallets.find((w) => w.kind === 'v4r2' && w.subwalletId === DEFAULT_SUBWALLET + 1)!;
    const address = `0:${Buffer.from(wallet.address.hash).toString('hex')}`;

    beforeAll(async () => {
      net = await startDevnetTonflow({ seed: SEED, walletsPerKind: WALLETS_PER_KIND });
    }, 600_000);

    afterAll(async () => {
      await net?.close();
    }, 120_000);

    /** The devnet's own view: the account state and the seqno its TVM computes on it. */
    async function devnet() {
      const account = await net.source.getAccount(address);
      const seqno = await net.source.runGetMethod(address, 'seqno');
      expect(seqno.exitCode).toBe(0);
      return { account, seqno: Number(seqno.stack[0]!.type === 'int' ? seqno.stack[0]!.value : -1) };
    }

    it('read a wallet, send a signed transfer from it, find the transaction with getTransactions', async () => {
      const before = await devnet();
      const s = await run('state', 1);
      // tonutils derives the devnet's wallet address from the key and its own WalletV4R2 code.
      expect(s.address).toBe(address);
      // runGetMethod runs on the devnet's state of the account (seqno 0 at genesis).
      expect(s.tonutils.seqno).toBe(before.seqno);
      expect(s.toncenter).toMatchObject({ seqno: before.seqno, exit_code: 0 });

      const dest = `0:${'44'.repeat(32)}`;
      const sent = await run('send', 1, dest, 1_250_000_000);
      const tick = await net.sealAndIndex();
      const after = await devnet();
      expect(after.seqno).toBe(before.seqno + 1);

      // The transaction the message caused, as the devnet sealed it.
      const block = tick.blocks.find((b) => b.workchain === 0)!;
      const tx = decodeBlock(block.data).transactions.find((t) => t.in_msg?.hash === sent.message_hash);
      expect(tx).toBeDefined();
      // The account's storage keeps the logical time after its last transaction (end_lt: lt + 1 + out messages).
      expect(BigInt(tx!.lt) + 2n).toBe(after.account.lastTransLt);
      const txHash = Buffer.from(after.account.lastTransHash).toString('base64');
      expect(tx!.hash).toBe(txHash);

      const f = await run('find', 1, sent.message_hash);
      expect(f.tonutils).toEqual({ lt: tx!.lt, hash: txHash, out_dest: dest, out_value: '1250000000', seqno: after.seqno });
      expect(f.toncenter).toMatchObject({
        lt: tx!.lt,
        hash: txHash,
        // tonlib's `fee`: the transaction's total fees and its out messages' forwarding fees.
        fee: (BigInt(tx!.total_fees) + tx!.out_msgs.reduce((a, m) => a + BigInt(m.fwd_fee ?? 0) + BigInt(m.ihr_fee ?? 0), 0n)).toString(),
        out_values: ['1250000000'],
        comment: 'tonflow py clients',
      });
      expect(f.toncenter.out_destinations.map((d: string) => Address.parse(d).toRawString())).toEqual([dest]);

      // The balance and state after the transfer, as the devnet holds them.
      const s2 = await run('state', 1);
      expect(s2.tonutils).toEqual({ balance: after.account.balance.toString(), state: 'active', seqno: after.seqno });
      expect(s2.toncenter).toMatchObject({
        balance: after.account.balance.toString(),
        state: 'active',
        last_transaction_lt: tx!.lt,
        last_transaction_hash: txHash,
        seqno: after.seqno,
        exit_code: 0,
      });
    });
  },
);
