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
   * one goes the usual way (returned for the route's serializer).
   */
  send<T extends Record<string, unknown>>(reply: FastifyReply, schema: z.ZodObject, body: T, key: keyof T & string): Promise<T | FastifyReply>;
}

/** A placeholder for the list while the rest of the body is stringified; no record holds this string. */
const HOLE = '\u0000tonflow-list\u0000';

/**
 * `check(sent, encoded)`: with response validation on, called for each record and the remainder of the body with what
 * the route built and the zod serializer made of it (the gateway's strict serializer refuses keys a schema lacks).
 */
export function createJsonPages(opts: { validate: boolean; check?: (sent: unknown, encoded: unknown) => void }): JsonPages {
  const encodeWith = (schema: z.ZodType, value: unknown): unknown => {
    if (!opts.validate) return value;
    const r = z.safeEncode(schema, value);
    if (r.error) throw new Error(`response does not match its schema: ${r.error.message}`);
    opts.check?.(value, r.data);
    return r.data;
  };
  return {
    async send(reply, schema, body, key) {
      const list = body[key];
      if (!Array.isArray(list) || list.length <= RECORDS_PER_SLICE) return body;
      const item = (schema.shape[key] as z.ZodArray).element as z.ZodType;
      const rest = encodeWith(schema, { ...body, [key]: [] }) as Record<string, unknown>;
      const [before, after] = JSON.stringify({ ...rest, [key]: HOLE }).split(JSON.stringify(HOLE)) as [string, string];
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
