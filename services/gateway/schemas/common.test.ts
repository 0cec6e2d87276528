import { describe, expect, it } from 'vitest';
import { ParamError } from '../errors.js';
import { parseHash, parseLt, parseOpcode, parseShard, parseUtime } from './common.js';
import { BlocksQuery, MessagesQuery, TopAccountsQuery } from './v3.js';

const H = 'b442b4478494bfb8e4667156919d03f43a119a9b57e81edfbc47faa2fc7ed849';
const B64 = Buffer.from(H, 'hex').toString('base64');

function fails(fn: () => unknown): { status: number; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof ParamError) return { status: e.status, message: e.message };
    throw e;
  }
  throw new Error('did not fail');
}

describe('parameter parsing as TON Center reads it', () => {
  it('hashes: hex, 0x-hex, base64, base64url (padded or not) → standard base64', () => {
    for (const s of [H, H.toUpperCase(), `0x${H}`, B64, Buffer.from(H, 'hex').toString('base64url'), B64.slice(0, 43)]) {
      expect(parseHash(s, 'hash')).toBe(B64);
    }
    for (const s of ['', 'abc', H.slice(2), `${H}00`, `${B64}A`, '!'.repeat(44)]) {
      expect(fails(() => parseHash(s, 'hash'))).toEqual({ status: 422, message: 'failed to decode: schema: error converting value for "hash"' });
    }
  });

  it('opcodes: bare hex first (so "10" is 0x10), 0x-hex, signed 32-bit decimal', () => {
    expect(parseOpcode('10', 'opcode')).toBe(0x10);
    expect(parseOpcode('0x0f8a7ea5', 'opcode')).toBe(0x0f8a7ea5);
    expect(parseOpcode('F8A7EA5', 'opcode')).toBe(0x0f8a7ea5);
    expect(parseOpcode('0xffffffff', 'opcode')).toBe(-1);
    expect(parseOpcode('-1', 'opcode')).toBe(-1);
    expect(parseOpcode('-2147483648', 'opcode')).toBe(-2147483648);
    // Nine digits overflow 32-bit hex, so this one is decimal: jetton_transfer.
    expect(parseOpcode('260734629', 'opcode')).toBe(0x0f8a7ea5);
    expect(parseOpcode('12345678', 'opcode')).toBe(0x12345678);
    for (const s of ['0x123456789', 'xyz', '-2147483649', '1.5']) expect(fails(() => parseOpcode(s, 'opcode')).status).toBe(422);
  });

  it('shards: hex (optionally 0x) first, else signed decimal; returned as the unsigned decimal', () => {
    expect(parseShard('8000000000000000', 'shard')).toBe('9223372036854775808');
    expect(parseShard('0x8000000000000000', 'shard')).toBe('9223372036854775808');
    expect(parseShard('-9223372036854775808', 'shard')).toBe('9223372036854775808');
    expect(parseShard('a000000000000000', 'shard')).toBe(BigInt('0xa000000000000000').toString());
    expect(parseShard('-6917529027641081856', 'shard')).toBe(BigInt('0xa000000000000000').toString());
    for (const s of ['xyz', '0x', '18446744073709551616', '-9223372036854775809']) expect(fails(() => parseShard(s, 'shard')).status).toBe(422);
  });

  it('unix times accept floats (truncated); lt values are non-negative 64-bit', () => {
    expect(parseUtime('1745147839', 'start_utime')).toBe(1745147839);
    expect(parseUtime('1745147839.9', 'start_utime')).toBe(1745147839);
    // strconv.ParseFloat takes exponents too.
    expect(parseUtime('1.7e9', 'start_utime')).toBe(1700000000);
    expect(parseUtime('17E+8', 'start_utime')).toBe(1700000000);
    expect(fails(() => parseUtime('1e10', 'start_utime')).status).toBe(422);
    expect(fails(() => parseUtime('e9', 'start_utime')).status).toBe(422);
    expect(fails(() => parseUtime('-1', 'start_utime')).status).toBe(422);
    expect(parseLt('9223372036854775807', 'lt')).toBe('9223372036854775807');
    expect(fails(() => parseLt('9223372036854775808', 'lt')).status).toBe(422);
    expect(fails(() => parseLt('-5', 'lt')).status).toBe(422);
  });

  it('limit, offset and sort: coercions and builder errors with their statuses', () => {
    const issue0 = (schema: { safeParse: (q: unknown) => { error?: { issues: Array<{ message: string; params?: unknown }> } } }, q: unknown) =>
      schema.safeParse(q).error!.issues.map((i) => ({ message: i.message, status: (i.params as { status: number }).status }));
    const ok = (q: Record<string, unknown>) => BlocksQuery.parse(q);
    expect(ok({})).toMatchObject({ limit: 10, offset: 0, sort: 'desc' });
    expect(ok({ limit: '0', offset: '-4', sort: 'A' })).toMatchObject({ limit: 1, offset: 0, sort: 'asc' });
    // A repeated single-valued key: gorilla/schema (Fiber's decoder) uses the last value, and an empty last value
    // means absent even after a non-empty one.
    expect(ok({ limit: ['7', '9'] })).toMatchObject({ limit: 9 });
    expect(ok({ limit: ['7', ''] })).toMatchObject({ limit: 10 });
    expect(issue0(TopAccountsQuery, { limit: ['1', '1001'] })).toEqual([{ message: 'limit is not allowed: 1001 > 1000', status: 422 }]);
    expect(ok({ limit: '', sort: '' })).toMatchObject({ limit: 10, sort: 'desc' });
    const issue = (schema: { safeParse: (q: unknown) => { error?: { issues: Array<{ message: string; params?: unknown }> } } }, q: unknown) =>
      schema.safeParse(q).error!.issues.map((i) => ({ message: i.message, status: (i.params as { status: number }).status }));
    expect(issue(BlocksQuery, { limit: '1001' })).toEqual([{ message: 'limit is not allowed: 1001 > 1000', status: 500 }]);
    expect(issue(TopAccountsQuery, { limit: '1001' })).toEqual([{ message: 'limit is not allowed: 1001 > 1000', status: 422 }]);
    expect(issue(BlocksQuery, { sort: 'up' })).toEqual([{ message: 'wrong value for sort parameter', status: 500 }]);
  });

  it('arrays: repeated keys and comma-separated values; null sides of messages', () => {
    const q = MessagesQuery.parse({ msg_hash: [H, `${B64},${H}`], source: 'null', destination: 'Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF' });
    expect(q.msg_hash).toEqual([B64, B64, B64]);
    expect(q.source).toBe('');
    expect(q.destination).toBe('-1:3333333333333333333333333333333333333333333333333333333333333333');
  });
});
