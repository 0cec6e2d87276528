import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JsonPageStream } from '../json-page.js';

/**
 * What a gateway holds at once under heavy reads. A page of 1,000 transactions is a 3-4 MB answer built from as
 * many records, and the memory it needs (the store's rows, the records, the JSON text) is held until the last byte
 * left; two hundred such requests at once held gigabytes and kept the event loop busy for seconds, so that
 * `masterchainInfo` waited behind them. Here a request asking for many rows ("heavy") runs only when one of a few
 * slots is free; a bounded number wait for one, in arrival order; the rest, and every heavy request while the
 * responses being sent already hold too many bytes, are refused at once with 503 and `Retry-After`. Light requests
 * (masterchainInfo, single records, health) never wait here.
 */

export interface LoadSheddingOptions {
  /** A request asking for more rows than this (`limit`, also in JSON-RPC params) is heavy. */
  heavyRows: number;
  /** Heavy requests served at once. */
  heavyInFlight: number;
  /** Heavy requests waiting for a slot; one more is refused (503). */
  heavyQueue: number;
  /** Bytes of responses being sent at once beyond which heavy requests are refused (503). */
  responseBytesInFlight: number;
  /**
   * Least seconds a refused client is told to wait (`Retry-After`); more when the heavy requests already admitted
   * will take longer than that to drain (their recent mean duration), up to a minute.
   */
  retryAfterS: number;
  /** The error body of the request's API (v3 `{"error"}`, v2 envelope). */
  errorBody: (req: FastifyRequest, status: number, message: string) => Record<string, unknown>;
  /** Counts refusals by reason. */
  onShed?: (reason: 'queue_full' | 'bytes_in_flight') => void;
}

export interface LoadSheddingState {
  /** Heavy requests running, waiting; response bytes being sent. */
  readonly running: number;
  readonly waiting: number;
  readonly bytesInFlight: number;
}

/** How many rows a request asks for: `limit` of the query, or of JSON-RPC params; 0 when it names none. */
export function requestedRows(req: FastifyRequest): number {
  const q = req.query as Record<string, unknown> | undefined;
  const body = req.body as { params?: Record<string, unknown> } | undefined;
  const limit = q?.limit ?? (body !== null && typeof body === 'object' ? body.params?.limit : undefined);
  const n = Number(Array.isArray(limit) ? limit[0] : limit);
  return Number.isFinite(n) ? n : 0;
}

/** Runs `fn` once when the response ends, however it ends (sent, failed, or the client went away). */
function onEnd(reply: FastifyReply, fn: () => void): void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    fn();
  };
  reply.raw.once('finish', once);
  reply.raw.once('close', once);
}

/**
 * Registers the admission hooks on `app`: a preHandler (so that validation failures and response-cache hits, both
 * cheap, never take a slot; register it after the cache's hook) and an onSend that counts response bytes.
 */
export function loadShedding(app: FastifyInstance, opts: LoadSheddingOptions): LoadSheddingState {
  let running = 0;
  let bytesInFlight = 0;
  /** Mean duration of recent heavy requests, ms (exponentially weighted): what a place in the queue costs. */
  let meanMs = 0;
  const retryAfter = (): number =>
    Math.min(60, Math.max(opts.retryAfterS, Math.ceil((meanMs * (running + queue.length)) / opts.heavyInFlight / 1000)));
  const queue: Array<{ grant: () => void; gone: () => boolean }> = [];

  const finished = (startedAt: number): void => {
    const ms = performance.now() - startedAt;
    meanMs = meanMs === 0 ? ms : 0.8 * meanMs + 0.2 * ms;
    release();
  };

  const release = (): void => {
    running--;
    while (queue.length > 0) {
      const next = queue.shift()!;
      if (next.gone()) continue;
      running++;
      next.grant();
      return;
    }
  };

  const refuse = async (req: FastifyRequest, reply: FastifyReply, reason: 'queue_full' | 'bytes_in_flight'): Promise<void> => {
    opts.onShed?.(reason);
    const after = retryAfter();
    req.log.info({ reason, running, waiting: queue.length, bytesInFlight, retryAfterS: after }, 'heavy request refused');
    await reply
      .code(503)
      .header('retry-after', String(after))
      .send(opts.errorBody(req, 503, `server is busy, too many large requests in progress; retry after ${after} s`));
  };

  app.addHook('preHandler', async (req, reply) => {
    if (reply.sent || requestedRows(req) <= opts.heavyRows) return;
    if (bytesInFlight > opts.responseBytesInFlight) return refuse(req, reply, 'bytes_in_flight');
    if (running < opts.heavyInFlight) {
      running++;
      const startedAt = performance.now();
      onEnd(reply, () => finished(startedAt));
      return;
    }
    if (queue.length >= opts.heavyQueue) return refuse(req, reply, 'queue_full');
    let left = false;
    let granted = false;
    let startedAt = 0;
    await new Promise<void>((resolve) => {
      queue.push({
        grant: () => {
          granted = true;
          startedAt = performance.now();
          resolve();
        },
        gone: () => left,
      });
      // A client that leaves while waiting gives up its place; one that leaves while served frees its slot.
      onEnd(reply, () => {
        if (granted) finished(startedAt);
        else {
          left = true;
          resolve();
        }
      });
    });
    if (left) throw Object.assign(new Error('client closed the connection while waiting'), { statusCode: 499 });
  });

  app.addHook('onSend', async (_req, reply, payload) => {
    // UTF-16 units of a string: its bytes for the ASCII JSON we send, without a scan of megabytes.
    const n =
      typeof payload === 'string'
        ? payload.length
        : Buffer.isBuffer(payload)
          ? payload.length
          : payload instanceof JsonPageStream
            ? payload.bytes
            : 0;
    if (n > 0) {
      bytesInFlight += n;
      onEnd(reply, () => {
        bytesInFlight -= n;
      });
    }
    return payload;
  });

  return {
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
    get bytesInFlight() {
      return bytesInFlight;
    },
  };
}
