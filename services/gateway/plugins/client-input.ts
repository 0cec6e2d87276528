import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Guards against request shapes that reach code written for well-formed input: JSON nested deep enough to
 * overflow the stack of any recursive walk over it (JSON.stringify, zod, the error handler), and request lines
 * the router cannot decode. Both are the client's doing, so both are 4xx answers in the API's `{"error"}` shape,
 * logged at info at most.
 */

/**
 * Deepest JSON a request body may nest. TON Center's own bodies nest a few levels (a runGetMethod stack entry
 * holds a list of tuples); recursion over ~5,000 levels overflows Node's default stack.
 */
export const MAX_JSON_DEPTH = 64;

/** A body that is not what its content type says: the client's error, 400 (JSON-RPC turns it into its 422). */
function badBody(message: string): FastifyError {
  const err = new Error(message) as FastifyError;
  err.statusCode = 400;
  err.code = 'FST_ERR_CTP_INVALID_JSON_BODY';
  return err;
}

/**
 * How deep `text` nests, counted without recursion: brackets inside strings do not count. Stops as soon as the
 * depth passes `limit`.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}

/**
 * Replaces the JSON body parser with one that refuses nesting beyond {@link MAX_JSON_DEPTH} before parsing, and
 * otherwise parses as Fastify's own (prototype-poisoning checks included).
 */
export function limitJsonDepth(app: FastifyInstance, maxDepth = MAX_JSON_DEPTH): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (typeof body === 'string' && jsonDepthExceeds(body, maxDepth)) {
      done(badBody(`JSON nested deeper than ${maxDepth} levels`), undefined);
      return;
    }
    void parse(req, body as string, done);
  });
}

/**
 * Fastify's `frameworkErrors`: a path that does not percent-decode (`/api/v3/%E0%A4%A`) fails in the router,
 * before any hook. Answered like every other error, with the CORS header the hooks would have added (a browser
 * client must be able to read why its request failed).
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  const message = err.code === 'FST_ERR_BAD_URL' ? 'invalid percent-encoding in the request path' : 'Bad Request';
  req.log.info({ code: err.code, url: req.url }, 'request refused before routing');
  // No route matched, so the API is told by the raw path: v2's envelope (api-v2.md §1) or v3's `{"error"}`.
  const body = req.url.startsWith('/api/v2/') ? { ok: false, error: message, code: status } : { error: message };
  void reply.code(status).header('access-control-allow-origin', '*').send(body);
}
