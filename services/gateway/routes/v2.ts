import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { unprocessable } from '../errors.js';
import { blockById, blockWithHeaderById } from '../repo/blocks.js';
import type { BlockIdRecord } from '../repo/records.js';
import type { BlockSource, MasterchainBlockSignatures } from '../../../shared/sources/source.js';
import { JsonRpcResponse, V2BlockHeader, V2BlockSignatures, V2ConsensusBlock, V2MasterchainInfo } from '../schemas/records.js';
import { JsonRpcRequest, V2BlockHeaderQuery, V2SeqnoQuery } from '../schemas/v2.js';
import { type App, type RouteDeps, zod } from './context.js';
import { proofApiError, unavailable, v2ReadOperations } from './v2-read.js';
import { v2TokenOperations } from './v2-tokens.js';
import type { GatewayTvm } from '../tvm.js';
import { type RawJsonRpcMethod, type V2ListPath, blockIdExt, blockNotFound, errors, extra, lastMasterchainBlock, tags } from './v2-common.js';

/**
 * The v2 block operations (api-v2.md §3.1–3.4) under `/api/v2/`, answered from the index in the v2 envelope:
 * `{"ok": true, "result": {"@type": …, …, "@extra": …}}`; errors `{"ok": false, "error", "code"}`.
 */


/** The JSON-RPC route; app.ts renders errors of bodies that do not parse there as its validation errors. */
export const JSON_RPC_PATH = '/api/v2/jsonRPC';

/** Zero states of the two networks (the `validator.zero_state` of their global configs). */
const ZERO_STATE = {
  mainnet: { root_hash: 'F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=', file_hash: 'XplPz01CXAps5qeSWUtxcyBfdAo5zVb1N979KLSKD24=' },
  testnet: { root_hash: 'gj+B8wb/AmlPk1z1AhVI484rhrUpgSr2oSFIh56VoSg=', file_hash: 'Z+IKwYS54DmmJmesw/nAD5DzWadnOCMzee+kdgSYDOg=' },
};



/** A previous block whose hashes its successor's row lacks: from the store when it holds the block, else empty. */
async function prevBlockIdExt(deps: RouteDeps, req: FastifyRequest, p: BlockIdRecord) {
  const b = await blockById(deps.db, req.tf, { workchain: p.workchain, shard: BigInt('0x' + p.shard).toString(), seqno: p.seqno });
  return blockIdExt({ ...p, root_hash: b?.root_hash ?? '', file_hash: b?.file_hash ?? '' });
}




export function v2Routes(
  app: App,
  deps: RouteDeps,
  opts: {
    testnet: boolean;
    rpc?: ReadonlyMap<string, RawJsonRpcMethod>;
    /** The TVM getTokenData runs on (503 without). */
    tvm?: GatewayTvm;
    /** The source beside the gateway, when it proves blocks (getShardBlockProof, getMasterchainBlockSignatures). */
    proofs?: Pick<BlockSource, 'shardBlockProof' | 'masterchainBackProof' | 'masterchainBlockSignatures'>;
  },
): void {
  const r = zod(app);
  const methods = new Map<string, JsonRpcMethod>();

  /**
   * One v2 operation: `GET /api/v2/<name>` with its parameters in the query string, and the same method over
   * JSON-RPC with them in `params` (api-v2.md §1), parsed by the same schema.
   */
  function operation<Q extends z.ZodType<Record<string, unknown>> | undefined, R extends z.ZodObject>(
    name: string,
    route: { schema: { tags: string[]; summary: string; description: string; querystring?: Q; response: { 200: R } & Record<number, z.ZodType> } },
    handle: (req: FastifyRequest, q: Q extends z.ZodType ? z.output<Q> : Record<string, never>) => Promise<z.input<R>>,
    list?: V2ListPath,
  ): void {
    type Query = Q extends z.ZodType ? z.output<Q> : Record<string, never>;
    const schema = { ...route.schema, operationId: `api_v2_${name}` };
    // The app's zod validator compiler parses the query string (the plain `app.get` only loses the static typing).
    if (list) {
      const response = route.schema.response[200];
      app.get(`/api/v2/${name}`, { schema }, async (req, reply) => deps.pages.send(reply, response, (await handle(req, req.query as Query)) as Record<string, unknown>, list));
    } else {
      app.get(`/api/v2/${name}`, { schema }, (req) => handle(req, req.query as Query));
    }
    methods.set(name, { query: route.schema.querystring, handle: handle as unknown as JsonRpcMethod['handle'], ...(list ? { list } : {}) });
  }

  operation(
    'getMasterchainInfo',
    {
      schema: {
        tags,
        summary: 'Get masterchain info (v2)',
        description:
          '`last` is the newest indexed masterchain block, `state_root_hash` the root hash of the masterchain state after it (its state update), `init` the zero state.',
        response: { 200: V2MasterchainInfo, ...errors },
      },
    },
    async (req) => {
      const { last, lastHeader } = await lastMasterchainBlock(deps, req);
      const zero = opts.testnet ? ZERO_STATE.testnet : ZERO_STATE.mainnet;
      return {
        ok: true as const,
        result: {
          '@type': 'blocks.masterchainInfo' as const,
          last: blockIdExt(last),
          // Empty for a block stored before 0014_blocks_header_hashes.sql.
          state_root_hash: lastHeader.state_root_hash,
          init: blockIdExt({ workchain: -1, shard: '8000000000000000', seqno: 0, ...zero }),
          '@extra': extra(),
        },
      };
    },
  );

  operation(
    'getBlockHeader',
    {
      schema: {
        tags,
        summary: 'Get block header (v2)',
        description: 'The header of a block by its id; given both, the root and file hashes must match (one alone is ignored).',
        querystring: V2BlockHeaderQuery,
        response: { 200: V2BlockHeader, ...errors },
      },
    },
    async (req, q) => {
      // The hashes name the block only together (api-v2.md §3.2: TON Center uses the given id only when both are
      // given, otherwise it looks the block up by workchain, shard and seqno).
      const both = q.root_hash !== undefined && q.file_hash !== undefined;
      const found = await blockWithHeaderById(deps.db, req.tf, {
        workchain: q.workchain,
        shard: q.shard,
        seqno: q.seqno,
        ...(both ? { root_hash: q.root_hash, file_hash: q.file_hash } : {}),
      });
      if (!found) throw blockNotFound(q.workchain, q.shard, q.seqno);
      const { record: b, header } = found;
      // The hashes the block itself references (BlkPrevInfo); a block stored before 0014 has none, and then the
      // previous blocks' own rows give them if the store holds those blocks.
      const prev = await Promise.all(
        b.prev_blocks.map(async (p, i) => {
          const h = header.prev_blocks[i];
          return h ? blockIdExt({ ...p, ...h }) : prevBlockIdExt(deps, req, p);
        }),
      );
      return {
        ok: true as const,
        result: {
          '@type': 'blocks.header' as const,
          id: blockIdExt(b),
          global_id: b.global_id,
          version: b.version,
          flags: b.flags,
          after_merge: b.after_merge,
          after_split: b.after_split,
          before_split: b.before_split,
          want_merge: b.want_merge,
          want_split: b.want_split,
          validator_list_hash_short: b.validator_list_hash_short,
          catchain_seqno: b.gen_catchain_seqno,
          min_ref_mc_seqno: b.min_ref_mc_seqno,
          is_key_block: b.key_block,
          prev_key_block_seqno: b.prev_key_block_seqno,
          start_lt: b.start_lt,
          end_lt: b.end_lt,
          gen_utime: Number(b.gen_utime),
          vert_seqno: b.vert_seqno,
          prev_blocks: prev,
          '@extra': extra(),
        },
      };
    },
  );

  operation(
    'getConsensusBlock',
    {
      schema: {
        tags,
        summary: 'Get consensus block (v2)',
        description: 'The newest indexed masterchain block and its generation time.',
        response: { 200: V2ConsensusBlock, ...errors },
      },
    },
    async (req) => {
      const { last } = await lastMasterchainBlock(deps, req);
      return {
        ok: true as const,
        result: { '@type': 'ext.blocks.consensusBlock' as const, consensus_block: last.seqno, timestamp: Number(last.gen_utime), '@extra': extra() },
      };
    },
  );

  operation(
    'getMasterchainBlockSignatures',
    {
      schema: {
        tags,
        summary: 'Get masterchain block signatures (v2)',
        description:
          'The validators\' signatures of masterchain block `seqno`, as tonlib answers them: a liteserver\'s `liteServer.getBlockProof` ' +
          '(mode 0x1001) forward link from the key block the block\'s header names (`prev_key_block_seqno`) to the block, checked as tonlib ' +
          'checks it: the masterchain validator subset of the key block\'s ConfigParam 34 (shuffled as ConfigParam 28 says) must hash to the ' +
          'header\'s `gen_validator_list_hash_short`, every signature must be a member\'s ed25519 signature of the block\'s `ton.blockId`, ' +
          'and they must weigh more than 2/3 of the subset. Both blocks are anchored in the index (tonlib starts from the newest block and ' +
          'checks the links back instead). Needs a liteserver source beside the gateway and the key block indexed; otherwise 500 "not ' +
          'available". A proof that fails the checks is 500 `LITE_SERVER_UNKNOWN: … failed …` with the reason; a block the index lacks is ' +
          'the liteserver\'s block-not-found 500.',
        querystring: V2SeqnoQuery,
        response: { 200: V2BlockSignatures, ...errors },
      },
    },
    async (req, q) => {
      const b = await blockById(deps.db, req.tf, { workchain: -1, shard: '9223372036854775808', seqno: q.seqno });
      if (!b) throw blockNotFound(-1, '9223372036854775808', q.seqno);
      const source = opts.proofs;
      if (!source?.masterchainBlockSignatures) throw unavailable(`the signature set of masterchain block ${q.seqno} (in its block proof)`);
      // The validators of block N are those of the config of the key block before it (for a key block too: its own
      // config names the next set).
      const keySeqno = b.prev_key_block_seqno;
      const key = keySeqno > 0 ? await blockById(deps.db, req.tf, { workchain: -1, shard: '9223372036854775808', seqno: keySeqno }) : null;
      if (!key) throw unavailable(`the signature set of masterchain block ${q.seqno} (its key block ${keySeqno} is not indexed)`);
      const ref = (r: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string }) => ({
        id: { workchain: r.workchain, shard: r.shard, seqno: r.seqno },
        rootHash: Buffer.from(r.root_hash, 'base64'),
        fileHash: Buffer.from(r.file_hash, 'base64'),
      });
      let found: MasterchainBlockSignatures;
      try {
        found = await source.masterchainBlockSignatures(ref(key), ref(b), AbortSignal.timeout(req.tf.timeoutMs));
      } catch (e) {
        throw proofApiError(e);
      }
      const b64 = (x: Uint8Array) => Buffer.from(x).toString('base64');
      return {
        ok: true as const,
        result: {
          '@type': 'blocks.blockSignatures' as const,
          id: blockIdExt(b),
          signatures: found.signatures.map((s) => ({ '@type': 'blocks.signature' as const, node_id_short: b64(s.nodeIdShort), signature: b64(s.signature) })),
          '@extra': extra(),
        },
      };
    },
  );

  v2ReadOperations(operation, deps, opts);
  v2TokenOperations(operation, opts.tvm);

  r.post(
    JSON_RPC_PATH,
    {
      schema: {
        tags,
        operationId: 'api_v2_jsonRPC',
        summary: 'JSON-RPC (v2)',
        description:
          'Any v2 operation above as `{"jsonrpc": "2.0", "id": …, "method": "<operation name>", "params": {…}}`, the parameters named as in ' +
          'its query string (numbers may be sent as numbers). The reply is the operation\'s envelope plus `jsonrpc` and the echoed `id`; ' +
          'an unknown method or bad parameters are 422.',
        body: JsonRpcRequest,
        response: { 200: JsonRpcResponse, 422: JsonRpcResponse, 500: JsonRpcResponse, 504: JsonRpcResponse },
      },
    },
    async (req, reply) => {
      // A JSON text sent as text/plain (fetch's default for a string body) is read as JSON all the same.
      const raw = typeof req.body === 'string' ? parseJson(req.body) : req.body;
      const body = isObject(raw) ? raw : {};
      const id = body.id ?? null;
      // Every error from here on, thrown or not, gets the id and `jsonrpc` in app.ts's error body.
      req.tf.jsonRpc = { id };
      if (!isObject(raw)) throw unprocessable('Validation error: the body must be a JSON object');
      const params = body.params ?? {};
      if (!isObject(params)) throw unprocessable('Validation error: params must be an object');
      const direct = typeof body.method === 'string' ? opts.rpc?.get(body.method) : undefined;
      if (direct) return { ...(await direct(req, params)), jsonrpc: '2.0' as const, id };
      const m = typeof body.method === 'string' ? methods.get(body.method) : undefined;
      if (!m) throw unprocessable('Unknown method');
      let q: Record<string, unknown> = {};
      if (m.query) {
        const parsed = m.query.safeParse(queryOf(params));
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          throw unprocessable(`TypeError: ${issue.message}`);
        }
        q = parsed.data;
      }
      const out = { ...(await m.handle(req, q)), jsonrpc: '2.0' as const, id };
      return m.list ? deps.pages.send(reply, JsonRpcResponse, out, m.list) : out;
    },
  );
}

interface JsonRpcMethod {
  query: z.ZodType<Record<string, unknown>> | undefined;
  handle: (req: FastifyRequest, q: Record<string, unknown>) => Promise<{ ok: boolean } & Record<string, unknown>>;
  /** Where the answer holds a long list (V2Operation). */
  list?: V2ListPath;
}

/**
 * JSON-RPC params as the query string carries them: the v2 servers coerce numbers sent as strings and strings sent
 * as numbers alike (api-v2.md §1), so every scalar becomes its decimal text; null means absent.
 */
function queryOf(params: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined) continue;
    out[k] = Array.isArray(v) ? v.map(text) : typeof v === 'object' ? JSON.stringify(v) : text(v);
  }
  return out;
}

/**
 * A scalar's text. An integer beyond 2^53 prints as its exact decimal: JSON.parse keeps a shard id such as
 * -9223372036854775808 exactly (shard ids are multiples of large powers of two), which String() would round.
 */
function text(v: unknown): string {
  return typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v) ? BigInt(v).toString() : String(v);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
