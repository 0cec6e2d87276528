import { HEADER_SCHEMA_VERSION, type IncomingMessage, type OutgoingMessage } from '../bus/bus.js';
import { NonRetryableError } from '../runtime/errors.js';
import type { SnapshotAccount, StateSnapshot } from '../ton/state-snapshot.js';

/**
 * Account-state messages, version 1: a source's state snapshot (shared/ton/state-snapshot.ts) on the raw-block
 * topic, ahead of the blocks of the group it came with (the follower writes them, the decode stage reads them and
 * owns the tables they fill: account_states, latest_account_states, cells). They share the raw-block topic so that
 * the one stage that writes account states reads them, in the same batches and with the same delivery guarantees;
 * the `x-content` header tells them from raw blocks (which have none).
 *
 * key: `states:<mc_seqno>`; value: JSON `{"mc_seqno", "gen_utime", "accounts": [<snapshot account>...]}`, a
 * chunk of the snapshot of at most {@link ACCOUNT_STATES_CHUNK_BYTES} of accounts (a snapshot of any size travels
 * as several messages, each far below the topic's message limit).
 */
export const ACCOUNT_STATES_SCHEMA_VERSION = '1';
const H_CONTENT = 'x-content';
const CONTENT = 'account-states';
/** Bytes of account JSON per message. */
export const ACCOUNT_STATES_CHUNK_BYTES = 4 * 1024 * 1024;

export interface AccountStatesMessage {
  mcSeqno: number;
  genUtime: number;
  accounts: SnapshotAccount[];
}

/** The messages that carry `snapshot`, in its account order. A snapshot without accounts is no message. */
export function encodeAccountStates(snapshot: StateSnapshot, chunkBytes = ACCOUNT_STATES_CHUNK_BYTES): OutgoingMessage[] {
  const out: OutgoingMessage[] = [];
  let chunk: string[] = [];
  let size = 0;
  const flush = (): void => {
    if (chunk.length === 0) return;
    const value = Buffer.from(`{"mc_seqno":${snapshot.mc_seqno},"gen_utime":${snapshot.gen_utime},"accounts":[${chunk.join(',')}]}`);
    out.push({ key: `states:${snapshot.mc_seqno}`, value, headers: { [HEADER_SCHEMA_VERSION]: ACCOUNT_STATES_SCHEMA_VERSION, [H_CONTENT]: CONTENT } });
    chunk = [];
    size = 0;
  };
  for (const a of snapshot.accounts) {
    const json = JSON.stringify(a);
    if (size + json.length > chunkBytes) flush();
    chunk.push(json);
    size += json.length;
  }
  flush();
  return out;
}

/** True for an account-state message (anything else on the raw-block topic is a raw block). */
export function isAccountStatesMessage(msg: Pick<IncomingMessage, 'headers'>): boolean {
  return msg.headers[H_CONTENT] === CONTENT;
}

/**
 * Reads an account-state message; one this version cannot read is a poison message (non-retryable). The accounts
 * are checked by their reader (shared/ton/state-snapshot.ts readSnapshotAccount), not here.
 */
export function decodeAccountStates(msg: Pick<IncomingMessage, 'headers' | 'value'>): AccountStatesMessage {
  const version = msg.headers[HEADER_SCHEMA_VERSION];
  if (version !== ACCOUNT_STATES_SCHEMA_VERSION) {
    throw new NonRetryableError('ACCOUNT_STATES_SCHEMA', `account-state message has schema version ${version ?? 'none'}, expected ${ACCOUNT_STATES_SCHEMA_VERSION}`);
  }
  let v: { mc_seqno?: unknown; gen_utime?: unknown; accounts?: unknown };
  try {
    v = JSON.parse(msg.value.toString('utf8')) as typeof v;
  } catch (e) {
    throw new NonRetryableError('ACCOUNT_STATES_SCHEMA', `account-state message is not JSON: ${(e as Error).message}`, { cause: e });
  }
  const u32 = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 0xffffffff;
  if (typeof v !== 'object' || v === null || !u32(v.mc_seqno) || !u32(v.gen_utime) || !Array.isArray(v.accounts)) {
    throw new NonRetryableError('ACCOUNT_STATES_SCHEMA', 'account-state message lacks mc_seqno, gen_utime or accounts');
  }
  return { mcSeqno: v.mc_seqno, genUtime: v.gen_utime, accounts: v.accounts as SnapshotAccount[] };
}
