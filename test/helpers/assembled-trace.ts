import { createHash } from 'node:crypto';
import type { Address, Cell } from '@ton/core';
import type { Trace, TraceMessage, TraceTransaction } from '../../shared/ton/actions/trace.js';

/**
 * Classifier inputs assembled by hand, for families with neither a recorded trace in the action corpus nor a
 * contract we can run on the devnet: each message is given with the body the protocol's TL-B prescribes (built by
 * the test), and every message gets the transaction that receives it. Only what the classifier reads is filled:
 * hashes derive from the trace's name and a counter, lts grow in the order the transactions are written.
 */

const raw = (a: Address | string): string => (typeof a === 'string' ? a : `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`);
const opcodeOf = (body: Cell): number | null => (body.bits.length >= 32 ? body.beginParse().loadUint(32) : null);

export interface SendOptions {
  /** Nanotons the message carries (1 TON unless given). */
  value?: bigint;
  bounce?: boolean;
  bounced?: boolean;
  /** The receiving transaction aborted (compute phase exit code 1). */
  aborted?: boolean;
}

export interface TraceWriterOptions {
  /** Salt of the hashes, so that two traces of one test never share one. */
  name?: string;
  /** The first transaction's lt; each next one is `ltStep` later. */
  firstLt?: bigint;
  ltStep?: bigint;
  utime?: number;
  mcSeqno?: number;
}

/** A trace written transaction by transaction, in the order the chain would execute them (lt grows). */
export class TraceWriter {
  readonly txs: TraceTransaction[] = [];
  private seq = 0;
  private lt: bigint;
  private readonly name: string;
  private readonly ltStep: bigint;
  private readonly utime: number;
  private readonly mcSeqno: number;

  constructor(opts: TraceWriterOptions = {}) {
    this.name = opts.name ?? 'assembled';
    this.ltStep = opts.ltStep ?? 10n;
    this.lt = (opts.firstLt ?? 50_000_000_000_000n) - this.ltStep;
    this.utime = opts.utime ?? 1_760_000_000;
    this.mcSeqno = opts.mcSeqno ?? 50_000_000;
  }

  private hash(kind: string): string {
    return createHash('sha256').update(`${this.name}:${kind}:${this.seq++}`).digest('base64');
  }

  private tx(account: string, msg: TraceMessage, aborted: boolean): TraceTransaction {
    this.lt += this.ltStep;
    const hash = this.hash('tx');
    const t: TraceTransaction = {
      hash,
      account,
      lt: this.lt.toString(),
      now: this.utime,
      mc_block_seqno: this.mcSeqno,
      orig_status: 'active',
      end_status: 'active',
      descr: 'ord',
      aborted,
      compute_exit_code: aborted ? 1 : 0,
      messages: [{ ...msg, direction: 'in', tx_hash: hash }],
    };
    this.txs.push(t);
    return t;
  }

  /** An external message to `to` and the transaction it starts. */
  external(to: Address | string, body: Cell, opts: Pick<SendOptions, 'aborted'> = {}): TraceTransaction {
    const m: TraceMessage = {
      msg_hash: this.hash('msg'),
      tx_hash: '',
      direction: 'in',
      source: null,
      destination: raw(to),
      value: null,
      created_lt: null,
      created_at: null,
      opcode: opcodeOf(body),
      bounce: null,
      bounced: null,
      body: body.toBoc().toString('base64'),
    };
    return this.tx(raw(to), m, opts.aborted === true);
  }

  /** `from` sends `body` to `to`, which runs a transaction on it. */
  send(from: TraceTransaction, to: Address | string, body: Cell, opts: SendOptions | bigint = {}): TraceTransaction {
    const o: SendOptions = typeof opts === 'bigint' ? { value: opts } : opts;
    const created = BigInt(from.lt) + BigInt(from.messages.length);
    const m: TraceMessage = {
      msg_hash: this.hash('msg'),
      tx_hash: from.hash,
      direction: 'out',
      source: from.account,
      destination: raw(to),
      value: (o.value ?? 1_000_000_000n).toString(),
      created_lt: created.toString(),
      created_at: this.utime,
      opcode: opcodeOf(body),
      bounce: o.bounce ?? true,
      bounced: o.bounced ?? false,
      body: body.toBoc().toString('base64'),
    };
    from.messages.push(m);
    return this.tx(raw(to), m, o.aborted === true);
  }

  trace(): Trace {
    const first = this.txs[0]!;
    const last = this.txs[this.txs.length - 1]!;
    const root = first.messages[0]!;
    return {
      trace: {
        trace_id: first.hash,
        external_hash: root.source === null ? root.msg_hash : null,
        mc_seqno_end: this.mcSeqno,
        start_lt: first.lt,
        start_utime: first.now,
        end_lt: last.lt,
        end_utime: last.now,
      },
      transactions: this.txs,
    };
  }
}

/** A message of a trace given as a tree: the transaction it starts sends its `children`. */
export interface MessageSpec extends SendOptions {
  /** Raw address; null for an external inbound message (the root only). */
  from: string | null;
  to: string;
  body: Cell;
  children?: MessageSpec[];
}

/** The trace of a message tree, its transactions written breadth-first (a generation's lts after its parent's). */
export function assembleTrace(root: MessageSpec, name = 'assembled'): Trace {
  const w = new TraceWriter({ name, firstLt: 1_000_000n, ltStep: 1000n, mcSeqno: 1 });
  if (root.from !== null) throw new Error('assembleTrace: the root is an external message (from: null)');
  const queue: Array<{ spec: MessageSpec; tx: TraceTransaction }> = [{ spec: root, tx: w.external(root.to, root.body, root) }];
  for (let i = 0; i < queue.length; i++) {
    const { spec, tx } = queue[i]!;
    for (const c of spec.children ?? []) queue.push({ spec: c, tx: w.send(tx, c.to, c.body, c) });
  }
  return w.trace();
}
