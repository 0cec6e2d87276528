import { createHash } from 'node:crypto';
import type { Cell } from '@ton/core';
import type { Trace, TraceMessage, TraceTransaction } from '../../shared/ton/actions/trace.js';

/**
 * A classifier input assembled by hand, for families with neither a recorded trace in the action corpus nor a
 * contract we can run on the devnet: each message is given with the body the protocol's TL-B prescribes (built by
 * the test), and every message gets the transaction that receives it. Only what the classifier reads is filled
 * (hashes are derived from a counter, lts increase in the order the messages are given, breadth-first).
 */

export interface MessageSpec {
  /** Raw address; null for an external inbound message (the root only). */
  from: string | null;
  to: string;
  body: Cell;
  value?: bigint;
  bounce?: boolean;
  bounced?: boolean;
  /** The receiving transaction aborted. */
  aborted?: boolean;
  /** The messages the receiving transaction sends. */
  children?: MessageSpec[];
}

const hash = (s: string): string => createHash('sha256').update(s).digest('base64');

export function assembleTrace(root: MessageSpec, name = 'assembled'): Trace {
  const transactions: TraceTransaction[] = [];
  let n = 0;
  const now = 1_760_000_000;
  const queue: { spec: MessageSpec; createdLt: bigint | null; msgHash: string }[] = [{ spec: root, createdLt: null, msgHash: hash(`${name}:msg:0`) }];
  for (let i = 0; i < queue.length; i++) {
    const { spec, createdLt, msgHash } = queue[i]!;
    const lt = BigInt(1_000_000 + i * 1000);
    const txHash = hash(`${name}:tx:${i}`);
    const message = (m: MessageSpec, h: string, dir: 'in' | 'out', created: bigint | null): TraceMessage => ({
      msg_hash: h,
      tx_hash: txHash,
      direction: dir,
      source: m.from,
      destination: m.to,
      value: m.from === null ? null : (m.value ?? 1_000_000_000n).toString(),
      created_lt: created === null ? null : created.toString(),
      created_at: created === null ? null : now,
      opcode: m.body.bits.length >= 32 ? m.body.beginParse().loadUint(32) : null,
      bounce: m.bounce ?? m.from !== null,
      bounced: m.bounced ?? false,
      body: m.body.toBoc().toString('base64'),
    });
    const msgs: TraceMessage[] = [message(spec, msgHash, 'in', createdLt)];
    (spec.children ?? []).forEach((c, k) => {
      const h = hash(`${name}:msg:${++n}`);
      const created = lt + BigInt(k + 1);
      msgs.push(message(c, h, 'out', created));
      queue.push({ spec: c, createdLt: created, msgHash: h });
    });
    transactions.push({
      hash: txHash,
      account: spec.to,
      lt: lt.toString(),
      now,
      mc_block_seqno: 1,
      orig_status: 'active',
      end_status: 'active',
      descr: 'ord',
      aborted: spec.aborted === true,
      compute_exit_code: spec.aborted ? 1 : 0,
      messages: msgs,
    });
  }
  const lts = transactions.map((t) => BigInt(t.lt));
  return {
    trace: {
      trace_id: transactions[0]!.hash,
      external_hash: root.from === null ? queue[0]!.msgHash : null,
      mc_seqno_end: 1,
      start_lt: lts[0]!.toString(),
      start_utime: now,
      end_lt: lts[lts.length - 1]!.toString(),
      end_utime: now,
    },
    transactions,
  };
}
