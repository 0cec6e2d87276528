import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiError } from '../errors.js';
import { type AddressBook, addressBook } from '../repo/address-book.js';
import type { masterchainEnds } from '../repo/blocks.js';
import type { Db, Req } from '../repo/db.js';
import type { JsonPages } from '../json-page.js';

/** The fastify instance routes are registered on (each module switches it to the zod type provider). */
export type App = FastifyInstance;

/** `app` with zod-typed route schemas. */
export const zod = (app: App) => app.withTypeProvider<ZodTypeProvider>();

/** Per-request settings from TON Center's control headers / query keys (api-v3.md §0.2). */
export interface RequestContext extends Req {
  noAddressBook: boolean;
  noMetadata: boolean;
  /** Set while the response may be cached (response-cache.ts): its key and the store version it was computed at. */
  cache?: { key: string; version: number };
  /** Set on `POST /api/v2/jsonRPC`: error bodies echo the request's id (api-v2.md §1). */
  jsonRpc?: { id: unknown };
}

declare module 'fastify' {
  interface FastifyRequest {
    tf: RequestContext;
  }
}

/** What every route module receives. */
export interface RouteDeps {
  db: Db;
  /** Sends long lists in slices (json-page.ts). */
  pages: JsonPages;
  /** The first and last indexed masterchain blocks (repo/blocks.ts masterchainEnds), shared while the store is unchanged (versioned-reads.ts). */
  head(req: Req): Promise<MasterchainEnds>;
}

export type MasterchainEnds = Awaited<ReturnType<typeof masterchainEnds>>;

/**
 * The address book of a response, or `{}` with X-No-Address-Book. `known`: latest code hashes the request already
 * read (account → code hash), which need no statement of their own.
 */
export function book(
  deps: RouteDeps,
  req: FastifyRequest,
  addresses: Iterable<string | null | undefined>,
  known?: ReadonlyMap<string, string | null>,
): Promise<AddressBook> {
  if (req.tf.noAddressBook) return Promise.resolve({});
  return addressBook(deps.db, req.tf, addresses, known);
}

/** `metadata` is `{}` until token indexing exists (it is also `{}` with X-No-Metadata). */
export const emptyMetadata = (): Record<string, never> => ({});

// ---------------------------------------------------------------------------------------------------------------
// Keyset cursors (tonflow extension, user-issues.md #5 / TON Center issue #86)
// ---------------------------------------------------------------------------------------------------------------

/** The response header carrying the cursor of the next page (absent on the last page). */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/**
 * Cursors are opaque to clients: base64url JSON naming the endpoint, the order and the sort they continue, and the
 * sort key of the last row. A cursor used with another endpoint, order or sort is refused (422) rather than
 * silently continuing a different listing.
 */
export function encodeCursor(kind: string, sort: string, order: string, key: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ v: 1, k: kind, s: sort, o: order, ...key })).toString('base64url');
}

export function decodeCursor(raw: string, kind: string, sort: string, order: string): Record<string, unknown> {
  let c: Record<string, unknown>;
  try {
    c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new ApiError(422, 'invalid cursor');
  }
  if (typeof c !== 'object' || c === null || c.v !== 1 || c.k !== kind) throw new ApiError(422, 'invalid cursor');
  // Cursor numbers are seqnos and unix times: a client's forged 2^53 would fail only when bound to a statement.
  if (Object.values(c).some((v) => typeof v === 'number' && !Number.isSafeInteger(v))) throw new ApiError(422, 'invalid cursor');
  if (c.s !== sort || c.o !== order) throw new ApiError(422, 'cursor does not match the sort order or filters of this request');
  return c;
}

export function setNextCursor(reply: FastifyReply, cursor: string | null): void {
  if (cursor !== null) reply.header(NEXT_CURSOR_HEADER, cursor);
}
