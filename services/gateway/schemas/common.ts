import { z } from 'zod';
import { AddressParseError, parseAddress } from '../../../shared/ton/address.js';
import { ParamError } from '../errors.js';
import type { Direction, Sort } from '../repo/records.js';

/**
 * Query parameters read exactly as TON Center reads them (api-v3.md §0.1, §0.3, §0.6). Each parameter is a zod
 * schema whose transform does the parsing, so the schema that validates a request is also the one the OpenAPI
 * document is generated from: `.meta()` states the documented type (integer, array of strings, enum…), the
 * transform implements the wire behaviour (repeated keys, empty = absent, hex/base64 hashes, opcode and shard
 * quirks). A value that does not parse becomes a zod issue carrying TON Center's status (422, or the 500/401 of
 * its quirks); app.ts renders the first one as `{"error": …}`. Nothing unparsed ever reaches SQL.
 */

/** Builds the schema of one parameter; it receives the parameter's name for its error messages. */
export type ParamFactory<T extends z.ZodType = z.ZodType> = (name: string) => T;

/** `z.object` of parameter factories, each called with its key. */
export function query<S extends Record<string, ParamFactory>>(shape: S): z.ZodObject<{ [K in keyof S]: ReturnType<S[K]> }> {
  const out: Record<string, z.ZodType> = {};
  for (const [k, f] of Object.entries(shape)) out[k] = f(k);
  return z.object(out) as unknown as z.ZodObject<{ [K in keyof S]: ReturnType<S[K]> }>;
}

/** Go's `strconv.ParseBool` set (api-v3.md §0.1). */
const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** The values of a key: fast-querystring gives a string, or an array for a repeated key. Empty values are absent. */
function values(v: unknown): string[] {
  return all(v).filter((x) => x !== '');
}

function all(v: unknown): string[] {
  return (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).map((x) => String(x));
}

/**
 * The value of a single-valued key: the last one sent, as gorilla/schema (Fiber's query decoder) takes
 * `values[len(values)-1]`; empty is absent (Fiber's ZeroEmpty), even after a non-empty one.
 */
function single(v: unknown): string | undefined {
  const last = all(v).at(-1);
  return last === '' ? undefined : last;
}

/** A `direction` parameter: `unmatched` is any other value, which no message side has (the data layer's type). */
export type { Direction };

/** How Fiber/gorilla-schema's text for a value that does not convert begins. */
export const CONVERSION_ERROR = 'failed to decode: schema: error converting value for ';

/** Fiber/gorilla-schema's text for a value that does not convert. */
export const conversionError = (name: string, index?: number): ParamError =>
  new ParamError(`${CONVERSION_ERROR}${index === undefined ? '' : `index ${index} of `}"${name}"`);

/**
 * gorilla/schema's `MultiError.Error()`: every field that failed to convert is one entry, printed as one of them and
 * the count of the others. (Go picks that one by map order, so at random; here it is the first in the schema.)
 */
export function conversionErrors(first: string, others: number): string {
  if (others <= 0) return first;
  return others === 1 ? `${first} (and 1 other error)` : `${first} (and ${others} other errors)`;
}

type Meta = Record<string, unknown> & { description: string };

/**
 * Documented defaults by parameter schema. zod drops `default` from the input JSON schema of a transforming
 * schema (a default describes its output), so app.ts puts these back into the OpenAPI parameters.
 */
export const docDefaults = new WeakMap<z.ZodType, unknown>();

/**
 * Parameters documented as required. Their schemas accept a missing key (so that the endpoint's own error, with
 * TON Center's status and text, is what a client sees), which zod would document as optional.
 */
export const docRequired = new WeakSet<z.ZodType>();

function issue(ctx: z.core.$RefinementCtx, e: unknown): never {
  if (e instanceof ParamError) {
    ctx.addIssue({ code: 'custom', message: e.message, params: { status: e.status } });
    return z.NEVER;
  }
  throw e;
}

/**
 * An optional single-valued parameter: the last value of the key ({@link single}), parsed; absent when the key
 * is missing or empty. `meta` is the OpenAPI schema of the parameter (type, format, enum…) and its description.
 */
export function optional<T>(meta: Meta, parse: (raw: string, name: string) => T): ParamFactory<z.ZodOptional<z.ZodType<T>>> {
  return (name) =>
    z
      .any()
      .transform((v, ctx): T => {
        const value = single(v);
        if (value === undefined) return undefined as T;
        try {
          return parse(value, name);
        } catch (e) {
          return issue(ctx, e);
        }
      })
      .optional()
      .meta(meta);
}

/**
 * A parameter that is always present after parsing: `parse` gets `undefined` when the key is missing or empty and
 * either supplies the default or throws the endpoint's "required" error. Shown as required unless `meta.default`.
 */
export function withDefault<T>(meta: Meta, parse: (raw: string | undefined, name: string) => T): ParamFactory<z.ZodType<T>> {
  return (name) => {
    // .optional() inside: a missing key reaches the transform as undefined, and parse decides.
    const schema = z
      .any()
      .optional()
      .transform((v, ctx): T => {
        try {
          return parse(single(v), name);
        } catch (e) {
          return issue(ctx, e);
        }
      })
      .meta(meta);
    if ('default' in meta) docDefaults.set(schema, meta.default);
    else docRequired.add(schema);
    return schema;
  };
}

/**
 * A repeated-key array parameter (`?a=X&a=Y`; a comma-separated value is split too, a harmless superset of the
 * Go server, unless `verbatim`: the values as sent). `required` supplies the error for a missing key; otherwise
 * absent is `undefined`.
 */
export function list<T>(
  meta: Meta,
  parse: (raw: string, name: string, index: number) => T,
  opts: { required?: () => ParamError; verbatim?: boolean } = {},
): ParamFactory<z.ZodType<T[] | undefined>> {
  return (name) => {
    const schema = z
      .any()
      .optional()
      .transform((v, ctx): T[] | undefined => {
        try {
          const items = opts.verbatim ? values(v) : values(v).flatMap((s) => s.split(',')).filter((s) => s !== '');
          if (items.length === 0) {
            if (opts.required) throw opts.required();
            return undefined;
          }
          return items.map((s, i) => parse(s, name, i));
        } catch (e) {
          return issue(ctx, e);
        }
      })
      .meta({ type: 'array', items: { type: 'string' }, ...meta });
    if (opts.required) docRequired.add(schema);
    return schema;
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Value parsers
// ---------------------------------------------------------------------------------------------------------------

const INT = /^[+-]?\d+$/;
const UINT = /^\+?\d+$/;

/** A decimal integer in [min, max] (Go strconv.ParseInt with a bit size); the Fiber error text otherwise. */
export function parseInteger(raw: string, name: string, min: number, max: number, index?: number): number {
  if (!INT.test(raw)) throw conversionError(name, index);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw conversionError(name, index);
  return n;
}

export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;
const UINT32_MAX = 4294967295;
const INT64_MAX = (1n << 63n) - 1n;

/** A non-negative 64-bit decimal (lt values), as the canonical decimal string ClickHouse binds for UInt64. */
export function parseLt(raw: string, name: string): string {
  if (!UINT.test(raw)) throw conversionError(name);
  const v = BigInt(raw);
  if (v > INT64_MAX) throw conversionError(name);
  return v.toString();
}

/** Unix time: an unsigned integer; a float string is accepted and truncated (api-v3.md §0.3). */
export function parseUtime(raw: string, name: string): number {
  // strconv.ParseFloat's decimal forms, exponents included (`1.7e9`), then truncated.
  if (!/^\+?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw)) throw conversionError(name);
  const n = Math.trunc(Number(raw));
  if (!Number.isSafeInteger(n) || n > UINT32_MAX) throw conversionError(name);
  return n;
}

/**
 * A shard id: hex (optionally `0x`-prefixed) tried first, else signed decimal (api-v3.md §0.3). Returned as the
 * decimal of the unsigned 64-bit value, the form of the store's UInt64 columns.
 */
export function parseShard(raw: string, name: string): string {
  const hex = /^(?:0[xX])?([0-9a-fA-F]{1,16})$/.exec(raw);
  if (hex) return BigInt('0x' + hex[1]!).toString();
  if (INT.test(raw)) {
    const v = BigInt(raw);
    if (v >= -(1n << 63n) && v <= INT64_MAX) return BigInt.asUintN(64, v).toString();
  }
  throw conversionError(name);
}

/**
 * A transaction/message/body/block hash: 64 hex digits (optionally `0x`), or 44 base64 / base64url characters.
 * Normalised to standard padded base64, the form the store keeps (api-v3.md §0.3).
 */
export function parseHash(raw: string, name: string, index?: number): string {
  const s = raw.trim();
  const hex = /^(?:0[xX])?([0-9a-fA-F]{64})$/.exec(s);
  if (hex) return Buffer.from(hex[1]!, 'hex').toString('base64');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(s) && (s.length === 44 || !s.endsWith('='))) {
    const bytes = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return bytes.toString('base64');
  }
  throw conversionError(name, index);
}

/**
 * An opcode: bare hex (tried first, so `"10"` is 0x10), `0x` hex, or signed 32-bit decimal (api-v3.md §0.3).
 * Returned as the signed int32 the store keeps.
 */
export function parseOpcode(raw: string, name: string): number {
  const hex = /^(?:0[xX])?([0-9a-fA-F]{1,8})$/.exec(raw);
  if (hex) return Number.parseInt(hex[1]!, 16) | 0;
  if (INT.test(raw)) {
    const n = Number(raw);
    if (Number.isSafeInteger(n) && n >= INT32_MIN && n <= INT32_MAX) return n;
  }
  throw conversionError(name);
}

/** Any address form, normalised to raw upper case (api-v3.md §0.3). */
export function parseAddressParam(raw: string, name: string, index?: number): string {
  try {
    return parseAddress(raw);
  } catch (e) {
    if (e instanceof AddressParseError) throw conversionError(name, index);
    throw e;
  }
}

export function parseBool(raw: string, name: string): boolean {
  if (TRUE.has(raw)) return true;
  if (FALSE.has(raw)) return false;
  throw conversionError(name);
}

// ---------------------------------------------------------------------------------------------------------------
// The parameters TON Center endpoints share
// ---------------------------------------------------------------------------------------------------------------

export type { Sort };

const int32Meta = (description: string): Meta => ({ type: 'integer', format: 'int32', description });

export const P = {
  int32: (description: string) => optional(int32Meta(description), (raw, name) => parseInteger(raw, name, INT32_MIN, INT32_MAX)),
  /** workchain / seqno style int32 that defaults to 0 when absent (TON Center's Go zero value). */
  int32Zero: (description: string) =>
    withDefault({ ...int32Meta(description) }, (raw, name) => (raw === undefined ? 0 : parseInteger(raw, name, INT32_MIN, INT32_MAX))),
  utime: (description: string) => optional({ type: 'integer', format: 'int32', minimum: 0, description }, parseUtime),
  lt: (description: string, min = true) =>
    optional({ type: 'integer', format: 'int64', ...(min ? { minimum: 0 } : {}), description }, parseLt),
  shard: (description: string) => optional({ type: 'string', description }, parseShard),
  hash: (description: string) => optional({ type: 'string', description }, (raw, name) => parseHash(raw, name)),
  hashes: (description: string) => list({ description }, (raw, name, i) => parseHash(raw, name, i)),
  address: (description: string) => optional({ type: 'string', description }, (raw, name) => parseAddressParam(raw, name)),
  /** An address, or the literal `null` (external side), which becomes `''` (the store's sentinel). */
  addressOrNull: (description: string) =>
    optional({ type: 'string', description }, (raw, name) => (raw === 'null' ? '' : parseAddressParam(raw, name))),
  addresses: (description: string, opts?: Parameters<typeof list>[2]) =>
    list({ description }, (raw, name, i) => parseAddressParam(raw, name, i), opts),
  opcode: (description: string) => optional({ type: 'string', description }, parseOpcode),
  bool: (description: string) => optional({ type: 'boolean', description }, parseBool),
  boolDefault: (description: string, def: boolean) =>
    withDefault({ type: 'boolean', default: def, description }, (raw, name) => (raw === undefined ? def : parseBool(raw, name))),
  /**
   * `in` / `out`; TON Center never refuses another value (`both` is common, the jetton and NFT endpoints document
   * it): its filters compare it literally and match nothing, and adjacentTransactions takes it as "both".
   */
  direction: (description: string) =>
    optional({ type: 'string', enum: ['in', 'out'], description }, (raw): Direction => (raw === 'in' || raw === 'out' ? raw : 'unmatched')),
  /**
   * `limit`: values < 1 become 1; above the maximum TON Center's builder fails with `limit is not allowed: <n> >
   * 1000`, which most endpoints re-wrap as HTTP 500 (`status`), some leave at 422 (api-v3.md §0.6).
   */
  limit: (opts: { default?: number; max?: number; status?: number } = {}) => {
    const def = opts.default ?? 10;
    const max = opts.max ?? 1000;
    return withDefault(
      {
        type: 'integer',
        format: 'int32',
        default: def,
        minimum: 1,
        maximum: max,
        description: 'Limit the number of rows to return. Use with `offset` to batch requests.',
      },
      (raw, name) => {
        if (raw === undefined) return def;
        const n = parseInteger(raw, name, INT32_MIN, INT32_MAX);
        if (n > max) throw new ParamError(`limit is not allowed: ${n} > ${max}`, opts.status ?? 500);
        return Math.max(1, n);
      },
    );
  },
  offset: () =>
    withDefault(
      { type: 'integer', format: 'int32', default: 0, minimum: 0, description: 'Skip the first N rows. Use with `limit` to batch requests.' },
      (raw, name) => (raw === undefined ? 0 : Math.max(0, parseInteger(raw, name, INT32_MIN, INT32_MAX))),
    ),
  /** `asc`/`desc`, also `a`/`d`, any case; anything else is TON Center's builder error, HTTP 500. */
  sort: (description: string, def: Sort = 'desc') =>
    withDefault({ type: 'string', enum: ['asc', 'desc'], default: def, description }, (raw): Sort => {
      if (raw === undefined) return def;
      const s = raw.toLowerCase();
      if (s === 'asc' || s === 'a') return 'asc';
      if (s === 'desc' || s === 'd') return 'desc';
      throw new ParamError('wrong value for sort parameter', 500);
    }),
  cursor: () =>
    optional(
      {
        type: 'string',
        description:
          'tonflow extension: opaque keyset cursor from the `X-Next-Cursor` header of the previous page. Pages that follow a cursor ' +
          'never skip or repeat rows when new ones are inserted meanwhile (offset paging can); `offset` is ignored with it.',
      },
      (raw) => raw,
    ),
};
