import { describe, expect, it } from 'vitest';
import { HEADER_SCHEMA_VERSION, type IncomingMessage } from '../bus/bus.js';
import { STATE_SNAPSHOT_FORMAT, STATE_SNAPSHOT_VERSION, type SnapshotAccount } from '../ton/state-snapshot.js';
import { decodeAccountStates, encodeAccountStates, isAccountStatesMessage } from './account-states.js';
import { encodeRawBlock } from './raw-block.js';

/* The account-state messages that share the raw-block topic: chunked, told apart from raw blocks, versioned. */

const account = (i: number): SnapshotAccount => ({
  address: `0:${i.toString(16).padStart(64, '0')}`,
  status: 'active',
  balance: String(1000 + i),
  last_trans_lt: '0',
  last_trans_hash: Buffer.alloc(32).toString('base64'),
  account: 'x'.repeat(100),
});

const incoming = (m: { key: string | null; value: Buffer; headers?: Record<string, string> }): IncomingMessage => ({
  topic: 't',
  partition: 0,
  offset: '0',
  key: m.key,
  value: m.value,
  headers: m.headers ?? {},
});

describe('account-state messages', () => {
  it('carry a snapshot in chunks, in order, each one read back whole', () => {
    const accounts = Array.from({ length: 25 }, (_, i) => account(i));
    const messages = encodeAccountStates({ format: STATE_SNAPSHOT_FORMAT, version: STATE_SNAPSHOT_VERSION, mc_seqno: 9, gen_utime: 1234, accounts }, 1000);
    expect(messages.length).toBeGreaterThan(2);
    const back = messages.map((m) => decodeAccountStates(incoming(m)));
    expect(back.flatMap((b) => b.accounts)).toEqual(accounts);
    for (const b of back) {
      expect(b.mcSeqno).toBe(9);
      expect(b.genUtime).toBe(1234);
    }
    expect(messages.every((m) => m.value.length < 1000 + 300)).toBe(true);
    expect(encodeAccountStates({ format: STATE_SNAPSHOT_FORMAT, version: STATE_SNAPSHOT_VERSION, mc_seqno: 0, gen_utime: 0, accounts: [] })).toEqual([]);
  });

  it('are told apart from raw blocks, and refused in another version or shape', () => {
    const [m] = encodeAccountStates({ format: STATE_SNAPSHOT_FORMAT, version: STATE_SNAPSHOT_VERSION, mc_seqno: 1, gen_utime: 1, accounts: [account(1)] });
    expect(isAccountStatesMessage(incoming(m!))).toBe(true);
    const block = encodeRawBlock({ id: { workchain: 0, shard: '8000000000000000', seqno: 1 }, rootHash: new Uint8Array(32), fileHash: new Uint8Array(32), data: new Uint8Array(4), mcSeqno: 1 }, null);
    expect(isAccountStatesMessage(incoming(block))).toBe(false);
    expect(() => decodeAccountStates(incoming({ ...m!, headers: { ...m!.headers, [HEADER_SCHEMA_VERSION]: '2' } }))).toThrow(/schema version 2/);
    expect(() => decodeAccountStates(incoming({ ...m!, value: Buffer.from('{"mc_seqno":1}') }))).toThrow(/lacks/);
    expect(() => decodeAccountStates(incoming({ ...m!, value: Buffer.from('{') }))).toThrow(/not JSON/);
  });
});
