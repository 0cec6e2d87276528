import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parseCellInput } from '../../../shared/tvm/message.js';
import { parseV3Stack, renderV3Stack } from '../../../shared/tvm/stack.js';
import { AddressParseError, parseAddress } from '../../../shared/ton/address.js';
import { ApiError } from '../errors.js';
import { IndexError } from '../schemas/records.js';
import { V3EstimateFeeBody, V3EstimateFeeResult, V3RunGetMethodBody, V3RunGetMethodResult, V3SendMessageBody, V3SendMessageResult } from '../schemas/tvm.js';
import { type GatewayTvm, tvmApiError } from '../tvm.js';
import type { App, RouteDeps } from './context.js';
import { requireTvm } from './v2-tvm.js';

/**
 * The v2 operations inside v3 (api-v3.md §8.3–8.5): plain objects, `{"error"}` bodies. ton-index-go proxies them to
 * its v2 server; here they run on the same TVM service as routes/v2-tvm.ts. A missing required field is 401
 * (sic); runGetMethod answers every v2 failure with 500, estimateFee and message with the v2 code.
 */

const tags = ['API v2'];
const errors = { 401: IndexError, 422: IndexError, 500: IndexError, 503: IndexError, 504: IndexError };

type Params = Record<string, unknown>;

function required(p: Params, name: string, text: string): string {
  const v = p[name];
  if (v === undefined || v === null || v === '') throw new ApiError(401, text);
  if (typeof v !== 'string') throw new ApiError(422, `${name} must be a string`);
  return v;
}

function optional(p: Params, name: string): string {
  const v = p[name];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new ApiError(422, `${name} must be a string`);
  return v;
}

function address(p: Params, text: string): string {
  const a = required(p, 'address', text);
  try {
    return parseAddress(a);
  } catch (e) {
    if (e instanceof AddressParseError) throw new ApiError(422, `failed to parse address: ${e.message}`);
    throw e;
  }
}

/** The v2 error of `e` (tvm.ts), with its status, or forced to `status`. */
async function v2Call<T>(op: () => Promise<T>, status?: number): Promise<T> {
  try {
    return await op();
  } catch (e) {
    const err = tvmApiError(e);
    throw status === undefined ? err : new ApiError(status, err.message);
  }
}

export function v3TvmRoutes(app: App, _deps: RouteDeps, tvm: GatewayTvm | undefined): void {
  function route(
    path: string,
    schema: { operationId: string; summary: string; description: string; body: z.ZodType; response: z.ZodType },
    handle: (req: FastifyRequest, p: Params) => Promise<Record<string, unknown>>,
  ): void {
    app.post(
      path,
      {
        schema: { tags, operationId: schema.operationId, summary: schema.summary, description: schema.description, body: schema.body, response: { 200: schema.response, ...errors } },
        // The handler reads the body itself (TON Center's 401s and texts); the schema documents it.
        validatorCompiler: () => (data: unknown) => ({ value: data }),
      },
      (req) => {
        const body = req.body;
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(422, 'the body must be a JSON object');
        return handle(req, body as Params);
      },
    );
  }

  route(
    '/api/v3/runGetMethod',
    {
      operationId: 'api_v3_post_v2_rungetmethod',
      summary: 'Run get method',
      description:
        'Runs a get-method on the latest account state on the TVM. Stack entries `{type, value}`: `num` (decimal or 0x hex), `cell`, `slice` (base64 BOC). ' +
        'Output numbers are hex strings, cells and slices base64 BOCs, tuples and lists nested arrays.',
      body: V3RunGetMethodBody,
      response: V3RunGetMethodResult,
    },
    async (req, p) => {
      const addr = address(p, 'address is required');
      const method = required(p, 'method', 'method is required');
      const r = await v2Call(async () => {
        const stack = parseV3Stack(p.stack);
        return requireTvm(tvm, req).runGetMethod(addr, method, stack);
      }, 500);
      return { gas_used: Number(r.gasUsed), exit_code: r.exitCode, stack: renderV3Stack(r.stack) };
    },
  );

  route(
    '/api/v3/estimateFee',
    {
      operationId: 'api_v3_post_v2_estimate_fee',
      summary: 'Estimate fee',
      description: 'Fees of an external message, by emulating it on the TVM on the latest account state. `ignore_chksig` defaults to false here (v2: true).',
      body: V3EstimateFeeBody,
      response: V3EstimateFeeResult,
    },
    async (req, p) => {
      const addr = address(p, 'address is required');
      const body = required(p, 'body', 'body is required');
      const initCode = optional(p, 'init_code');
      const initData = optional(p, 'init_data');
      const ignore = p.ignore_chksig;
      if (ignore !== undefined && ignore !== null && typeof ignore !== 'boolean') throw new ApiError(422, 'ignore_chksig must be a boolean');
      const r = await v2Call(() =>
        requireTvm(tvm, req).estimateFee({
          address: addr,
          body: parseCellInput(body, 'body'),
          initCode: initCode ? parseCellInput(initCode, 'init_code') : null,
          initData: initData ? parseCellInput(initData, 'init_data') : null,
          ignoreChksig: ignore === true,
        }),
      );
      return { source_fees: r.fees, destination_fees: [] };
    },
  );

  route(
    '/api/v3/message',
    {
      operationId: 'api_v3_post_v2_message',
      summary: 'Send message',
      description: 'Checks a signed external message on its account\'s current state and sends it to the network; answers its hash and TEP-467 normalized hash.',
      body: V3SendMessageBody,
      response: V3SendMessageResult,
    },
    async (req, p) => {
      const boc = required(p, 'boc', 'boc is required');
      const m = await v2Call(() => requireTvm(tvm, req).send(boc));
      return { message_hash: Buffer.from(m.hash).toString('base64'), message_hash_norm: Buffer.from(m.hashNorm).toString('base64') };
    },
  );
}
