import { type Db, type Req, query } from './db.js';
import { latestStates } from './accounts.js';
import type { Row } from './records.js';
import { withFullStates } from './full-states.js';

/**
 * Account states the gateway's TVM runs on (routes/v2-tvm.ts, routes/v3-tvm.ts): the latest one from
 * `latest_account_states` by its primary key (acc.by_address), or the one after a masterchain block: the
 * account's newest transaction committed by that block or earlier (`transactions` by its sorting key, account then
 * lt, with the mc_block_seqno minmax index) and that transaction's state after from `account_states` by hash.
 */

export interface StoredState {
  status: string;
  balance: string;
  code_boc: string | null;
  data_boc: string | null;
  frozen_hash: string | null;
  last_trans_lt: string;
  last_trans_hash: string;
}

export async function latestStoredState(db: Db, req: Req, account: string): Promise<StoredState | null> {
  const r = (await latestStates(db, req, [account])).get(account);
  return r ? stored(r, String(r.last_trans_lt), String(r.last_trans_hash)) : null;
}

export async function storedStateAt(db: Db, req: Req, account: string, mcSeqno: number): Promise<StoredState | null> {
  const txs = await query(
    db,
    req,
    `SELECT lt, hash, account_state_hash_after FROM transactions
     WHERE account = {account:String} AND mc_block_seqno <= {seqno:UInt32}
     ORDER BY lt DESC LIMIT 1`,
    { account, seqno: mcSeqno },
  );
  const tx = txs[0];
  if (!tx) return null;
  const states = await query(
    db,
    req,
    // A row with BoCs beats one without (0004_account_states.sql's version); LIMIT 1 BY keeps that one.
    `SELECT status, balance, code_boc, data_boc, code_hash, data_hash, frozen_hash FROM account_states WHERE hash = {hash:String}
     ORDER BY (data_boc IS NOT NULL OR code_boc IS NOT NULL) DESC LIMIT 1`,
    { hash: String(tx.account_state_hash_after) },
  );
  const found = states[0];
  const s = found ? (await withFullStates(db, req, new Map([['', found]]))).get('')! : undefined;
  return s ? stored(s, String(tx.lt), String(tx.hash)) : null;
}

function stored(r: Row, lt: string, hash: string): StoredState {
  return {
    status: String(r.status),
    balance: String(r.balance),
    code_boc: (r.code_boc as string | null) ?? null,
    data_boc: (r.data_boc as string | null) ?? null,
    frozen_hash: (r.frozen_hash as string | null) ?? null,
    last_trans_lt: lt,
    last_trans_hash: hash,
  };
}
