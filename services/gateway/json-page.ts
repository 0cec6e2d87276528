import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * Large answers (a page of 1,000 transactions is 3-4 MB of JSON) built without holding the event loop. Stringifying
 * such a page at once, then writing it as one string (encoded to UTF-8 in one go), takes the thread for tens of ms
 * on an idle core and far longer on a loaded one, and every other request (masterchainInfo) waits behind it. Here
 * the page's list is stringified a slice of records at a time, the loop getting a turn between slices, and the text
 * is sent as a stream of those pieces with its Content-Length. The bytes are those of `JSON.stringify(body)` (and, with
 * response validation on, of the zod serializer's output): the list is spliced into the stringified remainder of
 * the body at the place the list had.
 */

/** Records stringified between two turns of the event loop; also the size up to which a list is sent at once. */
export const RECORDS_PER_SLICE = 100;

/** Lets timers, I/O and other requests run before continuing a long piece of work. */
export const yieldToLoop = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** The stream of a sliced answer, with its pieces (kept for the response cache) and their length. */
export class JsonPageStream extends Readable {
  private next = 0;

  constructor(
    readonly pieces: readonly Buffer[],
    readonly bytes: number,
  ) {
    super();
  }

  override _read(): void {
    this.push(this.next < this.pieces.length ? this.pieces[this.next++]! : null);
  }
}

export interface JsonPages {
  /**
   * Sends `body` with its list `body[key]` sliced when the list is longer than {@link RECORDS_PER_SLICE}; a shorter
   * one goes the usual way (returned for the route's serializer). `key` may be a path to a list inside nested objects
   * (`['result', 'transactions']` of a v2 envelope); a list whose schema the path does not reach through objects (a
   * JSON-RPC envelope's `result: unknown`) is encoded as the route's schema encodes it there: as it is.
   */
  send<T extends Record<string, unknown>>(
    reply: FastifyReply,
    schema: z.ZodObject,
    body: T,
    key: (keyof T & string) | readonly [string, ...string[]],
  ): Promise<T | FastifyReply>;
}

/**
 * A placeholder for the list while the rest of the body is stringified: random per answer, because part of a body
 * may come from the client (a JSON-RPC `id` is echoed), and no such part may be taken for the list's place.
 */
const hole = (): string => `\u0000tonflow-list-${randomBytes(12).toString('hex')}\u0000`;

/** The value at `path` inside `value` (undefined where the path leaves objects). */
function valueAt(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (const k of path) v = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** `value` with `v` at `path` (an existing key: the key keeps its place), copied along the path only. */
function withValueAt(value: unknown, path: readonly string[], v: unknown): Record<string, unknown> {
  const o = value as Record<string, unknown>;
  const [k, ...rest] = path as [string, ...string[]];
  return { ...o, [k]: rest.length === 0 ? v : withValueAt(o[k], rest, v) };
}

/** The schema of the list's elements at `path` of `schema`, undefined where the path leaves object schemas. */
function elementSchema(schema: z.ZodType, path: readonly string[]): z.ZodType | undefined {
  const unwrap = (s: z.ZodType): z.ZodType => (s instanceof z.ZodOptional || s instanceof z.ZodNullable ? unwrap(s.unwrap() as z.ZodType) : s);
  let s: z.ZodType | undefined = schema;
  for (const k of path) {
    const o = unwrap(s);
    s = o instanceof z.ZodObject ? (o.shape[k] as z.ZodType | undefined) : undefined;
    if (!s) return undefined;
  }
  const list = unwrap(s);
  return list instanceof z.ZodArray ? (list.element as z.ZodType) : undefined;
}

/**
 * `check(sent, encoded)`: with response validation on, called for each record and the remainder of the body with what
 * the route built and the zod serializer made of it (the gateway's strict serializer refuses keys a schema lacks).
 */
export function createJsonPages(opts: { validate: boolean; check?: (sent: unknown, encoded: unknown) => void }): JsonPages {
  const encodeWith = (schema: z.ZodType | undefined, value: unknown): unknown => {
    if (!opts.validate || !schema) return value;
    const r = z.safeEncode(schema, value);
    if (r.error) throw new Error(`response does not match its schema: ${r.error.message}`);
    opts.check?.(value, r.data);
    return r.data;
  };
  return {
    async send(reply, schema, body, key) {
      const path = typeof key === 'string' ? [key] : key;
      const list = valueAt(body, path);
      if (!Array.isArray(list) || list.length <= RECORDS_PER_SLICE) return body;
      const item = elementSchema(schema, path);
      const rest = encodeWith(schema, withValueAt(body, path, []));
      const mark = hole();
      const [before, after] = JSON.stringify(withValueAt(rest, path, mark)).split(JSON.stringify(mark)) as [string, string];
      const pieces: Buffer[] = [Buffer.from(`${before}[`, 'utf8')];
      for (let i = 0; i < list.length; i += RECORDS_PER_SLICE) {
        if (i > 0) await yieldToLoop();
        const slice = list.slice(i, i + RECORDS_PER_SLICE).map((v) => JSON.stringify(encodeWith(item, v)));
        pieces.push(Buffer.from((i > 0 ? ',' : '') + slice.join(','), 'utf8'));
      }
      pieces.push(Buffer.from(`]${after}`, 'utf8'));
      const bytes = pieces.reduce((n, p) => n + p.length, 0);
      return reply.type('application/json; charset=utf-8').header('content-length', bytes).send(new JsonPageStream(pieces, bytes));
    },
  };
}
