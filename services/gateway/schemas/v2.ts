import { z } from 'zod';
import { ParamError } from '../errors.js';
import { INT32_MAX, INT32_MIN, parseHash, query, withDefault, optional } from './common.js';

/**
 * Parameters of the v2 block operations (api-v2.md §3.2, §3.4), with the C++ server's validation texts
 * (`workchain required`, `failed to parse seqno`, `seqno should be positive`, …); v2 errors are 422.
 */

function v2Int(required: string, min: number, max: number, positive = false) {
  return withDefault({ type: 'integer', format: 'int32', description: required }, (raw, name) => {
    if (raw === undefined) throw new ParamError(`${name} required`);
    if (!/^[+-]?\d+$/.test(raw)) throw new ParamError(`failed to parse ${name}`);
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new ParamError(`failed to parse ${name}`);
    // The C++ handlers test `seqno <= 0`.
    if (positive && n <= 0) throw new ParamError(`${name} should be positive`);
    return n;
  });
}

/** A v2 shard: signed decimal int64 (masterchain `-9223372036854775808`), returned as the unsigned decimal. */
const v2Shard = withDefault(
  { type: 'string', description: 'Shard as a signed decimal int64, e.g. `-9223372036854775808`.' },
  (raw, name) => {
    if (raw === undefined) throw new ParamError(`${name} required`);
    if (/^[+-]?\d+$/.test(raw)) {
      const v = BigInt(raw);
      if (v >= -(1n << 63n) && v < 1n << 63n) return BigInt.asUintN(64, v).toString();
    }
    throw new ParamError(`failed to parse ${name}`);
  },
);

const v2Hash = (description: string) =>
  optional({ type: 'string', description }, (raw, name) => {
    try {
      return parseHash(raw, name);
    } catch {
      throw new ParamError(`failed to parse ${name}`);
    }
  });

export const V2BlockHeaderQuery = query({
  workchain: v2Int('Block workchain.', INT32_MIN, INT32_MAX),
  shard: v2Shard,
  seqno: v2Int('Block seqno.', INT32_MIN, INT32_MAX, true),
  root_hash: v2Hash('Block root hash (optional).'),
  file_hash: v2Hash('Block file hash (optional).'),
});

export const V2SeqnoQuery = query({
  seqno: v2Int('Masterchain block seqno.', INT32_MIN, INT32_MAX, true),
});

/** `POST /api/v2/jsonRPC` (api-v2.md §1). Loose on purpose: an unknown method is the operation's 422, not a schema error. */
export const JsonRpcRequest = z
  .unknown()
  .meta({
    id: 'V2JsonRpcRequest',
    type: 'object',
    properties: { jsonrpc: { type: 'string' }, id: {}, method: { type: 'string' }, params: { type: 'object' } },
    required: ['method'],
  });

