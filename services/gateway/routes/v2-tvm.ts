import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parseCellInput } from '../../../shared/tvm/message.js';
import { parseV2Stack, renderV2Stack } from '../../../shared/tvm/stack.js';
import type { TvmBlockRef } from '../../../shared/tvm/service.js';
import { AddressParseError, parseAddress } from '../../../shared/ton/address.js';
import { ApiError, unprocessable } from '../errors.js';
import { V2Error } from '../schemas/records.js';
import { V2EstimateFeeBody, V2ExtMessageInfo, V2Fees, V2Ok, V2RunGetMethodBody, V2RunResult, V2SendBocBody, V2SendQueryBody } from '../schemas/tvm.js';
import { type GatewayTvm, tvmApiError } from '../tvm.js';
import { type App, type RouteDeps } from './context.js';
import { type RawJsonRpcMethod, extra } from './v2-common.js';

/**
 * The v2 TVM operations (api-v2.md §3.7–3.9) under `/api/v2/` as POST with a JSON body, and over JSON-RPC (the
 * returned table, which routes/v2.ts consults before its own): `runGetMethod`, `estimateFee`, `sendBoc`,
 * `sendBocReturnHash`, `sendQuery`. Get-methods and fees run on the TVM (tvm.ts, shared/tvm); sending checks the
 * message on the account's current state and passes it to the source.
 */

export type { RawJsonRpcMethod };

const tags = ['API v2'];
const errors = { 422: V2Error, 500: V2Error, 503: V2Error, 504: V2Error };
const MC_SHARD = -(1n << 63n);
const ZERO_HASH_B64 = Buffer.alloc(32).toString('base64');

type Params = Record<string, unknown>;

/** A required string parameter; absent or empty is C++ ton-http-api's 422 (`empty address`, `empty boc`). */
function requiredString(p: Params, name: string, emptyText: string): string {
  const v = p[name];
  if (v === undefined || v === null || v === '') throw unprocessable(emptyText);
  if (typeof v !== 'string') throw unprocessable(`Validation error: ${name} must be a string`);
  return v;
}

function optionalString(p: Params, name: string): string {
  const v = p[name];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw unprocessable(`Validation error: ${name} must be a string`);
  return v;
}

function address(p: Params): string {
  const a = requiredString(p, 'address', 'empty address');
  try {
    return parseAddress(a);
  } catch (e) {
    if (e instanceof AddressParseError) throw unprocessable('failed to parse address');
    throw e;
  }
}

/** Integers may come as strings (api-v2.md §1: the server coerces). */
function optionalInt(p: Params, name: string): number | undefined {
  const v = p[name];
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n)) throw unprocessable(`failed to parse ${name}`);
  return n;
}

function bool(p: Params, name: string, dflt: boolean): boolean {
  const v = p[name];
  if (v === undefined || v === null || v === '') return dflt;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0) return false;
  throw unprocessable(`Validation error: ${name} must be a boolean`);
}

function blockIdExt(b: TvmBlockRef | null) {
  return {
    '@type': 'ton.blockIdExt' as const,
    workchain: b?.workchain ?? -1,
    shard: b ? BigInt.asIntN(64, b.shard).toString() : MC_SHARD.toString(),
    seqno: b?.seqno ?? 0,
    root_hash: b ? Buffer.from(b.rootHash).toString('base64') : ZERO_HASH_B64,
    file_hash: b ? Buffer.from(b.fileHash).toString('base64') : ZERO_HASH_B64,
  };
}

/** Runs `op`, rendering TVM failures as TON Center does. */
async function guarded<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (e) {
    throw tvmApiError(e);
  }
}

/** The TVM of this gateway, or 503 when it was built without one. */
export function requireTvm(tvm: GatewayTvm | undefined, req: FastifyRequest) {
  if (!tvm) throw new ApiError(503, 'the TVM is not available on this instance');
  return tvm.forRequest(req);
}

export function v2TvmRoutes(app: App, _deps: RouteDeps, tvm: GatewayTvm | undefined): Map<string, RawJsonRpcMethod> {
  const methods = new Map<string, RawJsonRpcMethod>();

  function operation(
    name: string,
    schema: { summary: string; description: string; body: z.ZodType; response: z.ZodType },
    handle: (req: FastifyRequest, p: Params) => Promise<{ ok: true; result: Record<string, unknown> }>,
  ): void {
    app.post(
      `/api/v2/${name}`,
      {
        schema: {
          tags,
          operationId: `api_v2_${name}`,
          summary: schema.summary,
          description: schema.description,
          body: schema.body,
          response: { 200: schema.response, ...errors },
        },
        // The body schema documents; the handler reads the body (TON Center's own texts), so fastify only parses it.
        validatorCompiler: () => (data: unknown) => ({ value: data }),
      },
      (req) => {
        const body = req.body;
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw unprocessable('Validation error: the body must be a JSON object');
        return handle(req, body as Params);
      },
    );
    methods.set(name, handle);
  }

  operation(
    'runGetMethod',
    {
      summary: 'Run get method (v2)',
      description:
        'Runs a get-method on the account state after the latest indexed masterchain block (or `seqno`) on the TVM, with the chain configuration. ' +
        'Stack entries are `[type, value]`; output numbers are hex, cells and slices `["cell", {bytes, object}]`, tuples and lists tonlib objects. ' +
        'A non-zero exit code is a result, not an error; an account without code answers exit code -13.',
      body: V2RunGetMethodBody,
      response: V2RunResult,
    },
    async (req, p) => {
      const addr = address(p);
      const method = p.method;
      if (method === undefined || method === null || method === '') throw unprocessable('empty method');
      if (typeof method !== 'string' && !(typeof method === 'number' && Number.isInteger(method))) throw unprocessable('Validation error: method must be a string or an integer');
      const seqno = optionalInt(p, 'seqno');
      const r = await guarded(async () => {
        const stack = parseV2Stack(p.stack);
        return requireTvm(tvm, req).runGetMethod(addr, method, stack, seqno === undefined ? {} : { seqno });
      });
      return {
        ok: true as const,
        result: {
          '@type': 'smc.runResult' as const,
          gas_used: Number(r.gasUsed),
          stack: renderV2Stack(r.stack),
          exit_code: r.exitCode,
          block_id: blockIdExt(r.block),
          last_transaction_id: { '@type': 'internal.transactionId' as const, lt: r.lastTransLt.toString(), hash: Buffer.from(r.lastTransHash).toString('base64') },
          '@extra': extra(),
        },
      };
    },
  );

  operation(
    'estimateFee',
    {
      summary: 'Estimate fees (v2)',
      description:
        'Fees of an external message with `body` (and a StateInit of `init_code`/`init_data`) to `address`, by emulating it on the TVM on the account\'s latest state. ' +
        '`ignore_chksig` (default true) runs signature checks as if they passed. `destination_fees` is empty: fees of the messages it sends are not estimated.',
      body: V2EstimateFeeBody,
      response: V2Fees,
    },
    async (req, p) => {
      const addr = address(p);
      const body = requiredString(p, 'body', 'empty body');
      const initCode = optionalString(p, 'init_code');
      const initData = optionalString(p, 'init_data');
      const ignoreChksig = bool(p, 'ignore_chksig', true);
      const r = await guarded(() =>
        requireTvm(tvm, req).estimateFee({
          address: addr,
          body: parseCellInput(body, 'body'),
          initCode: initCode ? parseCellInput(initCode, 'init_code') : null,
          initData: initData ? parseCellInput(initData, 'init_data') : null,
          ignoreChksig,
        }),
      );
      return {
        ok: true as const,
        result: { '@type': 'query.fees' as const, source_fees: { '@type': 'fees' as const, ...r.fees }, destination_fees: [], '@extra': extra() },
      };
    },
  );

  const send = (req: FastifyRequest, p: Params) => {
    const boc = requiredString(p, 'boc', 'empty boc');
    return guarded(() => requireTvm(tvm, req).send(boc));
  };

  operation(
    'sendBoc',
    {
      summary: 'Send a message (v2)',
      description: 'Checks a signed external message on its account\'s current state (its contract must accept it) and sends it to the network.',
      body: V2SendBocBody,
      response: V2Ok,
    },
    async (req, p) => {
      await send(req, p);
      return { ok: true as const, result: { '@type': 'ok' as const, '@extra': extra() } };
    },
  );

  operation(
    'sendBocReturnHash',
    {
      summary: 'Send a message, return its hash (v2)',
      description: 'As sendBoc; answers the message hash and its TEP-467 normalized hash.',
      body: V2SendBocBody,
      response: V2ExtMessageInfo,
    },
    async (req, p) => {
      const m = await send(req, p);
      return {
        ok: true as const,
        result: { '@type': 'raw.extMessageInfo' as const, hash: Buffer.from(m.hash).toString('base64'), hash_norm: Buffer.from(m.hashNorm).toString('base64'), '@extra': extra() },
      };
    },
  );

  operation(
    'sendQuery',
    {
      summary: 'Send a query (v2)',
      description: 'Builds the external message to `address` with `body` (and a StateInit of `init_code`/`init_data`), then sends it as sendBoc does.',
      body: V2SendQueryBody,
      response: V2Ok,
    },
    async (req, p) => {
      const addr = address(p);
      const body = requiredString(p, 'body', 'empty body');
      const initCode = optionalString(p, 'init_code');
      const initData = optionalString(p, 'init_data');
      await guarded(() =>
        requireTvm(tvm, req).sendQuery({
          address: addr,
          body: parseCellInput(body, 'body'),
          initCode: initCode ? parseCellInput(initCode, 'init_code') : null,
          initData: initData ? parseCellInput(initData, 'init_data') : null,
        }),
      );
      return { ok: true as const, result: { '@type': 'ok' as const, '@extra': extra() } };
    },
  );

  return methods;
}
