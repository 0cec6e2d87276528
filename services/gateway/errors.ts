/**
 * The gateway's error catalogue. TON Center's bodies are not the house `{code, message}`: every v3 error is
 * `{"error": "<message>"}` with the status code TON Center uses for that case (api-v3.md §0.7), v2 errors are
 * `{"ok": false, "error", "code"}` (api-v2.md §1), and the gateway-level key and rate-limit errors have their own
 * documented bodies (auth-limits.md §3). Handlers throw {@link ApiError}; the one error handler in app.ts renders it.
 */

/** An error with the HTTP status and message a client must see. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** A complete body that replaces the API's default error shape (auth and rate-limit errors). */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const notFound = (message: string): ApiError => new ApiError(404, message);
export const unprocessable = (message: string): ApiError => new ApiError(422, message);

/** A query parameter that does not parse: TON Center answers 422 with the parser's text (or 500/401 for its quirks). */
export class ParamError extends Error {
  constructor(
    message: string,
    readonly status = 422,
  ) {
    super(message);
    this.name = 'ParamError';
  }
}

/** The body of an unknown API key (auth-limits.md §3). */
export const unknownKeyBody = { ok: false, code: 401, error: 'API key does not exist' } as const;

/**
 * The body of a rate-limited request: the documented `{"ok": false, "result": "Ratelimit exceed", "code": 429}`,
 * plus `error` so that clients reading either key understand it (auth-limits.md §3, recommendation).
 */
export const rateLimitBody = { ok: false, result: 'Ratelimit exceed', code: 429, error: 'Ratelimit exceeded' } as const;
