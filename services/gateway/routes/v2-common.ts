import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ApiError } from '../errors.js';
import type { BlockHeaderHashes, BlockRecord } from '../repo/records.js';
import { V2Error } from '../schemas/records.js';
import type { RouteDeps } from './context.js';

/**
 * What the v2 route modules share (v2.ts: block operations and JSON-RPC; v2-read.ts: account, transaction, block and
 * config reads; v2-tvm.ts: the TVM operations): the envelope's pieces and the registration types. Its own module so
 * that the three import it and not each other.
 */

export const tags = ['API v2'];
// A block the index lacks is the liteserver's 500 (blockNotFound), a store timeout 504 (app.ts).
export const errors = { 422: V2Error, 500: V2Error, 504: V2Error };

/** tonlib's request tag, as the Python server echoes it inside `result`: `<deadline>:<liteserver>:<random>`. */
export function extra(): string {
  return `${(Date.now() / 1000 + 10).toFixed(7)}:0:${Math.random()}`;
}

/** `ton.blockIdExt`: shards as signed decimal int64 (api-v2.md §2). */
export function blockIdExt(b: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string }) {
  return {
    '@type': 'ton.blockIdExt' as const,
    workchain: b.workchain,
    shard: BigInt.asIntN(64, BigInt('0x' + b.shard)).toString(),
    seqno: b.seqno,
    root_hash: b.root_hash,
    file_hash: b.file_hash,
  };
}

/**
 * A block the index does not hold. TON Center's v2 asks a liteserver, which answers 500 with its error
 * (api-v2.md §1 table: "tonlib/liteserver error"); this is the text it gives for a seqno it does not have.
 */
export function blockNotFound(workchain: number, shard: string, seqno: number): ApiError {
  const shardHex = BigInt(shard).toString(16).padStart(16, '0');
  return new ApiError(500, `LITE_SERVER_NOTREADY: cannot find block (${workchain},${shardHex}) seqno=${seqno}: seqno not in db`);
}

export async function lastMasterchainBlock(deps: RouteDeps, req: FastifyRequest): Promise<{ last: BlockRecord; lastHeader: BlockHeaderHashes }> {
  const ends = await deps.head(req.tf);
  if (!ends) throw new ApiError(500, 'LITE_SERVER_UNKNOWN: no masterchain blocks indexed');
  return ends;
}

/**
 * Registers one v2 operation (REST and JSON-RPC); read operations of other modules receive it. `list`: the path in
 * the envelope of a list that can be long (`['result']`, `['result', 'transactions']`), sent in slices
 * (json-page.ts) when it is.
 */
export type V2Operation = <Q extends z.ZodType<Record<string, unknown>> | undefined, R extends z.ZodObject>(
  name: string,
  route: { schema: { tags: string[]; summary: string; description: string; querystring?: Q; response: { 200: R } & Record<number, z.ZodType> } },
  handle: (req: FastifyRequest, q: Q extends z.ZodType ? z.output<Q> : Record<string, never>) => Promise<z.input<R>>,
  list?: V2ListPath,
) => void;

/** Where a v2 envelope holds a long list (V2Operation). */
export type V2ListPath = readonly ['result', ...string[]];

/** A JSON-RPC method that takes its params as sent (stacks are nested arrays, not query strings). */
export type RawJsonRpcMethod = (req: FastifyRequest, params: Record<string, unknown>) => Promise<{ ok: boolean } & Record<string, unknown>>;
