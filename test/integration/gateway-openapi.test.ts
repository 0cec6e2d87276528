import { readFileSync } from 'node:fs';
import path from 'node:path';
// ajv (fastify's own validator) and yaml (@fastify/swagger's) come with the gateway's dependencies.
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tableRow } from '../../services/actions/stage.js';
import { createClassifier, parseCorpusTrace } from '../../shared/ton/actions/index.js';
import { describeFixtures, fixturesDir } from '../helpers/fixtures.js';
import { type GatewayFixture, createGatewayFixture, get } from '../helpers/gateway.js';

/*
 * Conformance with the published TON Center OpenAPI document (../shared/reference/toncenter-api-v3.openapi.yaml):
 * every in-scope GET path answers 200 with a body that validates against the path's 200 response schema, and
 * our own /api/v3/doc.json offers each of them with (at least) every parameter the published one names.
 *
 * Relaxed only where api-v3.md documents the published spec as wrong about the wire:
 *  - nullability: the 3.0 document marks nothing nullable, but pointer fields are emitted as `null` (§0.4);
 *  - Message.opcode is a `"0x%08x"` string (§0.4, "spec types it as integer — wrong");
 *  - Transaction.finality is a string (§0.4, "spec says integer enum 0/1/2 — wrong on the wire");
 *  - masterchainBlockShardState and masterchainBlockShards return `{blocks}` (§1.3, §1.4; the spec names
 *    TransactionsResponse for both).
 * On top of the published schemas, objects are closed (no property the spec does not name), so a misspelt
 * field fails here.
 */

const SPEC = path.join(fixturesDir, '..', 'reference', 'toncenter-api-v3.openapi.yaml');

/** The GET paths of the published document this gateway serves (api-v3.md §1.1–1.9 without pendingTransactions, §2 without metadata, §3.1, §8.1–8.2). */
const IN_SCOPE = [
  '/api/v3/accountStates',
  '/api/v3/actions',
  '/api/v3/addressBook',
  '/api/v3/addressInformation',
  '/api/v3/adjacentTransactions',
  '/api/v3/blocks',
  '/api/v3/masterchainBlockShardState',
  '/api/v3/masterchainBlockShards',
  '/api/v3/masterchainInfo',
  '/api/v3/messages',
  '/api/v3/topAccountsByBalance',
  '/api/v3/transactions',
  '/api/v3/transactionsByMasterchainBlock',
  '/api/v3/transactionsByMessage',
  '/api/v3/walletInformation',
  '/api/v3/walletStates',
];

type Json = Record<string, any>;

/** Applies the documented relaxations and closes objects, recursively. */
function relax(schema: Json, name?: string): Json {
  if (schema.$ref) return { anyOf: [{ $ref: schema.$ref.replace('#/components/schemas/', '#/definitions/') }, { type: 'null' }] };
  const out: Json = { ...schema };
  delete out.example;
  delete out['x-enum-varnames'];
  if (out.type === 'object' && out.properties) {
    out.properties = Object.fromEntries(Object.entries(out.properties as Json).map(([k, v]) => [k, relax(v as Json, k)]));
    if (out.additionalProperties === undefined) out.additionalProperties = false;
  } else if (out.additionalProperties && typeof out.additionalProperties === 'object') {
    out.additionalProperties = relax(out.additionalProperties as Json);
  }
  if (out.items) out.items = relax(out.items as Json);
  if (name === 'opcode' && out.type === 'integer') out.type = 'string';
  if (out.type) out.type = [out.type, 'null'];
  if (out.enum) out.enum = [...(out.enum as unknown[]), null];
  return out;
}

function definitions(spec: Json): Json {
  const defs: Json = {};
  for (const [name, s] of Object.entries(spec.components.schemas as Json)) defs[name] = relax(s as Json);
  // api-v3.md §0.4: finality is a string on the wire.
  defs.FinalityState = { type: ['string', 'null'], enum: ['pending', 'confirmed', 'finalized', null] };
  return defs;
}

describeFixtures('gateway: conformance with the published OpenAPI document', () => {
  let fx: GatewayFixture;
  let spec: Json;
  let ajv: Ajv;
  const queries = new Map<string, string>();

  beforeAll(async () => {
    fx = await createGatewayFixture();
    spec = parseYaml(readFileSync(SPEC, 'utf8')) as Json;
    ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'https://spec.test/spec.json', definitions: definitions(spec) });

    // Parameters that make each path answer 200 on the fixture store.
    const elector = '-1:3333333333333333333333333333333333333333333333333333333333333333';
    const wallet = fx.blocks.flatMap((b) => b.rows.latest_account_states).find((s) => s.code_hash === '/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA=')!;
    const linked = (await get(fx.app, '/api/v3/messages?start_lt=1&limit=200')).body.messages.find(
      (m: { in_msg_tx_hash?: string; out_msg_tx_hash?: string }) => m.in_msg_tx_hash && m.out_msg_tx_hash,
    );
    // The key block's shard tips (MANIFEST), stored so that masterchainBlockShardState has something to return.
    const template = fx.blocks.find((b) => b.decoded.block.seqno === 52111590)!.rows.blocks[0]!;
    await fx.store.insert('blocks', [
      { ...template, shard: '2305843009213693952', seqno: 52077744, mc_block_seqno: 46991999 },
      { ...template, shard: '6917529027641081856', seqno: 52097945, mc_block_seqno: 46991999 },
    ]);
    const enc = encodeURIComponent;
    queries.set('/api/v3/accountStates', `address=${elector}&address=${wallet.account}`);
    // The actions of one of TON Center's recorded traces (a jetton transfer), classified and stored as the action stage does.
    const recorded = JSON.parse(readFileSync(path.join(fixturesDir, 'action-corpus', 'traces', 'PAP4CeUFvg7ixzz5-0eFHrR2vahRZh8wPqAIZdV-c5g=.json'), 'utf8'));
    const { trace, repo } = parseCorpusTrace(recorded);
    await fx.store.insert('actions', createClassifier(repo).classify(trace).map(tableRow));
    queries.set('/api/v3/actions', 'limit=10&include_accounts=true');
    queries.set('/api/v3/addressBook', `address=${elector}&address=${wallet.account}&address=garbage`);
    queries.set('/api/v3/addressInformation', `address=${elector}`);
    queries.set('/api/v3/adjacentTransactions', `hash=${enc(linked.in_msg_tx_hash)}`);
    queries.set('/api/v3/blocks', 'limit=20');
    queries.set('/api/v3/masterchainBlockShardState', 'seqno=46991999');
    queries.set('/api/v3/masterchainBlockShards', 'seqno=17734191');
    queries.set('/api/v3/masterchainInfo', '');
    queries.set('/api/v3/messages', 'limit=100');
    queries.set('/api/v3/topAccountsByBalance', 'limit=20');
    queries.set('/api/v3/transactions', 'limit=100&workchain=0&shard=8000000000000000&seqno=40484416');
    queries.set('/api/v3/transactionsByMasterchainBlock', 'seqno=24374597');
    queries.set('/api/v3/transactionsByMessage', `msg_hash=${enc(linked.hash)}`);
    queries.set('/api/v3/walletInformation', `address=${wallet.account}`);
    queries.set('/api/v3/walletStates', `address=${wallet.account}&address=${elector}`);
  });

  afterAll(async () => {
    await fx?.close();
  });

  it('lists every in-scope path', () => {
    const gets = Object.entries(spec.paths as Json)
      .filter(([, p]) => (p as Json).get)
      .map(([url]) => url);
    for (const p of IN_SCOPE) expect(gets).toContain(p);
  });

  it('answers each in-scope GET path with a body valid against its published response schema', async () => {
    for (const url of IN_SCOPE) {
      const op = spec.paths[url].get as Json;
      let schema = relax(op.responses['200'].content['application/json'].schema as Json);
      // api-v3.md §1.3/§1.4: the spec names TransactionsResponse for both, the wire is {blocks: Block[]}.
      if (url === '/api/v3/masterchainBlockShardState' || url === '/api/v3/masterchainBlockShards') schema = relax({ $ref: '#/components/schemas/BlocksResponse' });
      const validate = ajv.compile({
        $id: `https://spec.test/resp${url}`,
        ...JSON.parse(JSON.stringify(schema).replaceAll('#/definitions/', 'https://spec.test/spec.json#/definitions/')),
      });
      const q = queries.get(url)!;
      const r = await get(fx.app, `${url}${q ? `?${q}` : ''}`);
      expect({ url, status: r.status }).toEqual({ url, status: 200 });
      const ok = validate(r.body);
      expect({ url, errors: ok ? [] : validate.errors!.slice(0, 5) }).toEqual({ url, errors: [] });
      // Not vacuous: each answer carries data.
      const size = Array.isArray(r.body) ? r.body.length : Object.values(r.body as Json).filter((v) => (Array.isArray(v) ? v.length > 0 : v !== null)).length;
      expect({ url, empty: size === 0 }).toEqual({ url, empty: false });
    }
  });

  it('answers a malformed address with {"error": ...} on every path that takes one', async () => {
    for (const url of IN_SCOPE) {
      const params = ((spec.paths[url].get as Json).parameters ?? []) as Array<{ name: string }>;
      for (const p of params.filter((x) => ['address', 'account', 'source', 'destination', 'exclude_account'].includes(x.name))) {
        if (url === '/api/v3/addressBook') continue; // echoes unparsable input as a null entry (api-v3.md §2.3)
        const r = await get(fx.app, `${url}?${p.name}=not-an-address`);
        expect({ url, param: p.name, status: r.status >= 400 && r.status < 500, keys: Object.keys(r.body), error: typeof r.body.error }).toEqual({
          url,
          param: p.name,
          status: true,
          keys: ['error'],
          error: 'string',
        });
      }
    }
  });

  it('documents each in-scope path in /api/v3/doc.json with every published parameter', async () => {
    const doc = (await get(fx.app, '/api/v3/doc.json')).body as Json;
    for (const url of IN_SCOPE) {
      const ours = doc.paths[url]?.get as Json | undefined;
      expect({ url, documented: ours !== undefined }).toEqual({ url, documented: true });
      const published = ((spec.paths[url].get as Json).parameters ?? []).map((p: Json) => p.name).sort();
      const names = ((ours!.parameters ?? []) as Json[]).map((p) => p.name);
      expect({ url, missing: published.filter((n: string) => !names.includes(n)) }).toEqual({ url, missing: [] });
      for (const p of (spec.paths[url].get as Json).parameters ?? []) {
        const mine = (ours!.parameters as Json[]).find((x) => x.name === p.name)!;
        expect({ url, name: p.name, required: mine.required === true, type: mine.schema.type }).toEqual({
          url,
          name: p.name,
          required: p.required === true,
          type: p.schema.type,
        });
        // api-v3.md §8.1/8.2: use_v2 is documented as default true, the server's default is the index (false).
        if (p.schema.default !== undefined && p.name !== 'use_v2') expect({ url, name: p.name, default: mine.schema.default }).toEqual({ url, name: p.name, default: p.schema.default });
      }
      expect(Object.keys(ours!.responses)).toContain('200');
      // Generated clients name their methods after these.
      expect({ url, operationId: ours!.operationId }).toEqual({ url, operationId: (spec.paths[url].get as Json).operationId });
    }
    expect(doc.components.schemas.Transaction).toBeDefined();
    // OpenAPI 3.0.3 widens only the `type` beside `nullable`: the fields the server sends as null must admit null by
    // themselves, read by a validator that applies `nullable` that way (ajv), and still say `nullable` for generators.
    const strict = new Ajv({ strict: false, validateSchema: false });
    strict.addSchema(doc, 'doc.json');
    const fields = [['Transaction', 'in_msg'], ['Message', 'message_content'], ['Message', 'init_state'], ['Block', 'masterchain_block_ref'], ['AccountState', 'account_status']] as const;
    for (const [name, field] of fields) {
      expect({ name, field, ...(doc.components.schemas[name].properties[field] as Json) }).toMatchObject({ name, field, nullable: true });
      const accepts = strict.compile({ $ref: `doc.json#/components/schemas/${name}/properties/${field}` });
      expect({ name, field, acceptsNull: accepts(null) }).toEqual({ name, field, acceptsNull: true });
    }
  });
});
