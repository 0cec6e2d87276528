import type { TraceJson } from '../../shared/contracts/trace.js';
import { UpstreamUnavailableError } from '../../shared/runtime/errors.js';
import type { Store } from '../../shared/store/store.js';
import type { AccountInterfaces, InterfaceRepository } from '../../shared/ton/actions/interfaces.js';
import type { Trace, TraceMessage, TraceTransaction } from '../../shared/ton/actions/trace.js';
import { readCellRecords } from '../../shared/store/tables/cells.js';
import { type CellRecord, recordBitsBoc } from '../../shared/ton/cells/cells.js';
import { withFullStates } from '../../shared/ton/cells/full-states.js';
import { type AccountEvidence, accountFacts, factsNeedData } from '../../shared/ton/interfaces/account-facts.js';

/**
 * The classifier's input for a completed trace, read from the store: its transactions (transactions, by the
 * primary key (account, lt)), their messages (messages, by (tx_account, tx_lt)) with bodies (message_contents, by
 * hash), and an interface repository over the accounts' latest states (latest_account_states, by account) and
 * what the trace's messages show about them.
 */
export interface ClassifierInput {
  trace: Trace;
  repo: InterfaceRepository;
}

export async function readClassifierInput(store: Store, t: TraceJson): Promise<ClassifierInput> {
  const accounts = t.transactions.map((x) => x.account);
  const lts = t.transactions.map((x) => x.lt);
  // lts travel as decimal text: an Array(UInt64) parameter does not take the client's quoted 64-bit values.
  const ltList = 'arrayMap(x -> toUInt64(x), {lts:Array(String)})';
  const txRows = await store.query<{
    hash: string;
    account: string;
    lt_text: string;
    now: number;
    mc_block_seqno: number | null;
    orig_status: string;
    end_status: string;
    total_fees: string;
    description: string;
  }>(
    `SELECT hash, account, toString(lt) AS lt_text, now, mc_block_seqno, orig_status, end_status, toString(total_fees) AS total_fees, description
     FROM transactions FINAL
     WHERE account IN {accounts:Array(String)} AND lt IN (SELECT arrayJoin(${ltList})) AND has(arrayZip({accounts:Array(String)}, ${ltList}), (account, lt))`,
    { accounts, lts },
  );
  const byKey = new Map(txRows.map((r) => [`${r.account}\0${r.lt_text}`, r]));
  const missing = t.transactions.filter((x) => !byKey.has(`${x.account}\0${x.lt}`));
  if (missing.length > 0) throw new UpstreamUnavailableError('ACTIONS_TRACE_ROWS_MISSING', `trace ${t.trace_id}: ${missing.length} of its ${t.transactions.length} transactions are not stored`);
  const msgRows = await store.query<{
    tx_account: string;
    tx_lt_text: string;
    tx_hash: string;
    direction: 'in' | 'out';
    msg_hash: string;
    source: string;
    destination: string;
    value: string | null;
    value_extra_currencies: Record<string, string>;
    fwd_fee: string | null;
    created_lt: string;
    created_at: number;
    opcode: number | null;
    bounce: boolean | null;
    bounced: boolean | null;
    body_hash: string;
  }>(
    `SELECT DISTINCT tx_account, toString(tx_lt) AS tx_lt_text, tx_hash, toString(direction) AS direction, msg_hash, source, destination, toString(value) AS value,
            value_extra_currencies, toString(fwd_fee) AS fwd_fee, toString(created_lt) AS created_lt, created_at, opcode, bounce, bounced, body_hash
     FROM messages
     WHERE tx_account IN {accounts:Array(String)} AND tx_lt IN (SELECT arrayJoin(${ltList})) AND has(arrayZip({accounts:Array(String)}, ${ltList}), (tx_account, tx_lt))`,
    { accounts, lts },
  );
  const bodyHashes = [...new Set(msgRows.map((m) => m.body_hash))];
  const bodies = new Map<string, string>();
  if (bodyHashes.length > 0) {
    const rows = await store.query<{ hash: string; boc: string }>('SELECT DISTINCT hash, boc FROM message_contents WHERE hash IN {h:Array(String)}', { h: bodyHashes });
    for (const r of rows) bodies.set(r.hash, r.boc);
  }
  const msgsOf = new Map<string, TraceMessage[]>();
  const evidence = new Map<string, { inOps: Set<number>; outOps: Set<number> }>();
  const evidenceOf = (a: string): { inOps: Set<number>; outOps: Set<number> } => {
    let e = evidence.get(a);
    if (!e) evidence.set(a, (e = { inOps: new Set(), outOps: new Set() }));
    return e;
  };
  for (const m of msgRows) {
    const key = `${m.tx_account}\0${m.tx_lt_text}`;
    let list = msgsOf.get(key);
    if (!list) msgsOf.set(key, (list = []));
    const external = m.source === '';
    list.push({
      msg_hash: m.msg_hash,
      tx_hash: m.tx_hash,
      direction: m.direction,
      source: m.source === '' ? null : m.source,
      destination: m.destination === '' ? null : m.destination,
      value: m.value,
      fwd_fee: m.fwd_fee,
      // An external-in message has no created_lt / created_at (stored as 0 sentinels).
      created_lt: external && m.direction === 'in' ? null : m.created_lt,
      created_at: external && m.direction === 'in' ? null : Number(m.created_at),
      opcode: m.opcode === null ? null : Number(m.opcode),
      bounce: m.bounce,
      bounced: m.bounced,
      value_extra_currencies: m.value_extra_currencies,
      body: bodies.get(m.body_hash) ?? null,
    });
    if (m.opcode !== null) {
      const op = Number(m.opcode) >>> 0;
      if (m.direction === 'in') evidenceOf(m.tx_account).inOps.add(op);
      else evidenceOf(m.tx_account).outOps.add(op);
    }
  }
  const transactions: TraceTransaction[] = t.transactions.map((x) => {
    const r = byKey.get(`${x.account}\0${x.lt}`)!;
    // The v3 TransactionDescr JSON (shared/ton/records/transaction.ts): `type`, `aborted`, `compute_ph`.
    const d = JSON.parse(r.description) as { type: string; aborted?: boolean; compute_ph?: { skipped?: boolean; reason?: string; exit_code?: number } };
    return {
      hash: r.hash,
      account: r.account,
      lt: r.lt_text,
      now: Number(r.now),
      mc_block_seqno: r.mc_block_seqno === null ? null : Number(r.mc_block_seqno),
      orig_status: r.orig_status,
      end_status: r.end_status,
      total_fees: r.total_fees,
      descr: d.type,
      aborted: d.aborted === true,
      compute_exit_code: d.compute_ph?.exit_code ?? null,
      skipped_reason: d.compute_ph?.skipped ? (d.compute_ph.reason ?? null) : null,
      messages: msgsOf.get(`${x.account}\0${x.lt}`) ?? [],
    };
  });
  const repo = await readInterfaces(store, [...new Set([...accounts, ...msgRows.flatMap((m) => [m.source, m.destination]).filter((a) => a !== '')])], evidence);
  return {
    trace: {
      trace: {
        trace_id: t.trace_id,
        external_hash: t.external_hash,
        external_hash_norm: t.external_hash_norm,
        mc_seqno_end: t.mc_seqno_end,
        start_lt: t.start_lt,
        start_utime: t.start_utime,
        end_lt: t.end_lt,
        end_utime: t.end_utime,
      },
      transactions,
    },
    repo,
  };
}

const NO_EVIDENCE: AccountEvidence = { inOps: new Set(), outOps: new Set() };

/**
 * The interfaces of the trace's accounts, from their latest states: the state after the trace (or later), as TON
 * Center's repository detects interfaces on the state after an account's last transaction (indexing-semantics §5.1).
 * The fields the classifier needs (a jetton wallet's owner and master, an NFT item's collection and owner) do not
 * change over a wallet's or item's life, so a later state gives the same answer.
 *
 * A state row rarely holds its data (a block's state update prunes the cells it did not change): the data of the
 * accounts whose facts read it is rebuilt from the cell store (shared/ton/cells/full-states.ts), as the gateway
 * rebuilds it for its readers. Code is not rebuilt: the code hash settles the interface. When some cell below the
 * data root was never seen whole (an NFT item's content, a wallet's code reference, both unchanged since a
 * genesis or a block before the index start), the root's own bits still hold those fields: they are read from the
 * root's record, which the rebuild fetched first. An account without even that, or whose data is in a layout its
 * code does not have, yields no facts and its transfers stay basic blocks.
 */
async function readInterfaces(store: Store, accounts: string[], evidence: Map<string, AccountEvidence>): Promise<InterfaceRepository> {
  const known = new Map<string, AccountInterfaces>();
  if (accounts.length > 0) {
    const rows = await store.query<{ account: string; code_hash: string | null; data_hash: string | null; data_boc: string | null }>(
      'SELECT account, code_hash, data_hash, data_boc FROM latest_account_states FINAL WHERE account IN {a:Array(String)}',
      { a: accounts },
    );
    const needed = new Map(rows.filter((r) => factsNeedData(r.code_hash, evidence.get(r.account) ?? NO_EVIDENCE)).map((r) => [r.account, r]));
    // Every record the rebuilds read, for the roots of data that could not be rebuilt whole (bounded by the rebuilds' own limit).
    const fetched = new Map<string, CellRecord>();
    const lookup = async (hashes: string[]): Promise<Map<string, CellRecord>> => {
      const found = await readCellRecords(store, hashes);
      for (const [h, r] of found) fetched.set(h, r);
      return found;
    };
    const full = await withFullStates(needed, lookup, { code: false });
    for (const [account, r] of full) {
      let dataBoc = r.data_boc;
      if (dataBoc === null && r.data_hash !== null) {
        const root = fetched.get(Buffer.from(r.data_hash, 'base64').toString('hex'));
        if (root) dataBoc = recordBitsBoc(root);
      }
      const facts = accountFacts(account, { codeHash: r.code_hash, dataBoc }, evidence.get(account) ?? NO_EVIDENCE);
      if (facts) known.set(account, facts);
    }
  }
  return (address) => known.get(address);
}
