import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound, unprocessable } from '../errors.js';
import { hasMasterchainBlock } from '../repo/blocks.js';
import { findMessages } from '../repo/messages.js';
import {
  type TxCursor,
  type TxFilter,
  type TxKey,
  adjacentTransactionKeys,
  findTransactionKeys,
  loadTransactions,
  transactionAddresses,
  transactionKeysByMessage,
  txOrder,
} from '../repo/transactions.js';
import { IndexError, MessagesResponse, TransactionsResponse } from '../schemas/records.js';
import {
  AdjacentTransactionsQuery,
  MessagesQuery,
  TransactionsByMasterchainBlockQuery,
  TransactionsByMessageQuery,
  TransactionsQuery,
} from '../schemas/v3.js';
import { type App, type RouteDeps, book, decodeCursor, emptyMetadata, encodeCursor, setNextCursor, zod } from './context.js';

const tags = ['Blockchain data'];
const errors = { 422: IndexError, 500: IndexError };
const notFoundErrors = { 404: IndexError, ...errors };
/** api-v3.md §1.5–1.9. */
export function transactionRoutes(app: App, deps: RouteDeps): void {
  const r = zod(app);

  /** The TransactionsResponse of a page of keys. */
  async function respond(req: FastifyRequest, reply: FastifyReply, keys: readonly TxKey[]) {
    const { transactions, codes } = await loadTransactions(deps.db, req.tf, keys);
    const body = { transactions, address_book: await book(deps, req, transactionAddresses(transactions), codes) };
    return deps.pages.send(reply, TransactionsResponse, body, 'transactions');
  }

  async function mcBlockMustExist(req: FastifyRequest, seqno: number): Promise<void> {
    if (!(await hasMasterchainBlock(deps.db, req.tf, seqno))) throw notFound(`masterchain block ${seqno} not found`);
  }

  r.get(
    '/api/v3/transactions',
    {
      schema: {
        tags,
        operationId: 'api_v3_get_transactions',
        summary: 'Get transactions',
        description:
          'Transactions that match every given filter. Ordered by `lt` (by `now` then `lt` with a utime window, by hash with `hash`). ' +
          'Beyond TON Center: keyset pagination with `cursor` and the `X-Next-Cursor` response header.',
        querystring: TransactionsQuery,
        response: { 200: TransactionsResponse, ...notFoundErrors },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const filter: TxFilter = {
        ...(q.account ? { accounts: q.account } : {}),
        ...(q.hash !== undefined ? { hash: q.hash } : {}),
        ...(q.lt !== undefined ? { lt: q.lt } : {}),
        ...(q.start_lt !== undefined ? { start_lt: q.start_lt } : {}),
        ...(q.end_lt !== undefined ? { end_lt: q.end_lt } : {}),
        ...(q.start_utime !== undefined ? { start_utime: q.start_utime } : {}),
        ...(q.end_utime !== undefined ? { end_utime: q.end_utime } : {}),
        ...(q.mc_seqno !== undefined ? { mc_seqno: q.mc_seqno } : {}),
        ...(q.workchain !== undefined ? { workchain: q.workchain } : {}),
        ...(q.shard !== undefined ? { shard: q.shard } : {}),
        ...(q.seqno !== undefined ? { seqno: q.seqno } : {}),
      };
      if (q.mc_seqno !== undefined) await mcBlockMustExist(req, q.mc_seqno);
      return transactionsPage(req, reply, filter, { limit: q.limit, offset: q.offset, sort: q.sort, cursor: q.cursor });
    },
  );

  async function transactionsPage(
    req: FastifyRequest,
    reply: FastifyReply,
    filter: TxFilter,
    page: { limit: number; offset: number; sort: 'asc' | 'desc'; cursor?: string | undefined },
  ) {
    const order = txOrder(filter);
    let cursor: TxCursor | undefined;
    if (page.cursor !== undefined) {
      const c = decodeCursor(page.cursor, 'transactions', page.sort, order);
      if (typeof c.now !== 'number' || typeof c.lt !== 'string' || !/^\d+$/.test(c.lt) || typeof c.a !== 'string') throw unprocessable('invalid cursor');
      cursor = { now: c.now, lt: c.lt, account: c.a };
    }
    const { keys, next } = await findTransactionKeys(deps.db, req.tf, filter, {
      limit: page.limit,
      offset: page.offset,
      sort: page.sort,
      ...(cursor ? { cursor } : {}),
    });
    setNextCursor(reply, next ? encodeCursor('transactions', page.sort, order, { now: next.now, lt: next.lt, a: next.account }) : null);
    return respond(req, reply, keys);
  }

  r.get(
    '/api/v3/transactionsByMasterchainBlock',
    {
      schema: {
        tags,
        operationId: 'api_v3_get_transactions_by_masterchain_block',
        summary: 'Get transactions by masterchain block',
        description: 'Transactions of a masterchain block and all the shard blocks it commits, by `lt`.',
        querystring: TransactionsByMasterchainBlockQuery,
        response: { 200: TransactionsResponse, ...notFoundErrors },
      },
    },
    async (req, reply) => {
      const q = req.query;
      await mcBlockMustExist(req, q.seqno);
      const { keys } = await findTransactionKeys(deps.db, req.tf, { mc_seqno: q.seqno }, { limit: q.limit, offset: q.offset, sort: q.sort });
      return respond(req, reply, keys);
    },
  );

  r.get(
    '/api/v3/transactionsByMessage',
    {
      schema: {
        tags,
        operationId: 'api_v3_get_transactions_by_message',
        summary: 'Get transactions by message',
        description: 'The transactions that sent or received a message: by its hash (raw or normalized), body hash or opcode.',
        querystring: TransactionsByMessageQuery,
        response: { 200: TransactionsResponse, ...errors },
      },
    },
    async (req, reply) => {
      // TransactionsByMessageQuery refuses a request without msg_hash, body_hash or opcode.
      const q = req.query;
      const keys = await transactionKeysByMessage(
        deps.db,
        req.tf,
        {
          ...(q.msg_hash !== undefined ? { msg_hash: q.msg_hash } : {}),
          ...(q.body_hash !== undefined ? { body_hash: q.body_hash } : {}),
          ...(q.opcode !== undefined ? { opcode: q.opcode } : {}),
          ...(q.direction !== undefined ? { direction: q.direction } : {}),
        },
        { limit: q.limit, offset: q.offset, sort: q.sort },
      );
      return respond(req, reply, keys);
    },
  );

  r.get(
    '/api/v3/adjacentTransactions',
    {
      schema: {
        tags,
        operationId: 'api_v3_get_adjacent_transactions',
        summary: 'Get adjacent transactions',
        description: 'The parent transaction (`direction=in`), the children (`out`) or both of a transaction, by `lt` ascending.',
        querystring: AdjacentTransactionsQuery,
        response: { 200: TransactionsResponse, ...notFoundErrors },
      },
    },
    async (req, reply) => {
      const q = req.query;
      // Any direction other than in/out means both, as the Go handler only tests for those two.
      const direction = q.direction === 'unmatched' ? undefined : q.direction;
      const keys = q.hash === undefined ? [] : await adjacentTransactionKeys(deps.db, req.tf, q.hash, direction);
      if (keys.length === 0) throw notFound('adjacent transactions not found');
      return respond(req, reply, keys);
    },
  );

  r.get(
    '/api/v3/messages',
    {
      schema: {
        tags,
        operationId: 'api_v3_get_messages',
        summary: 'Get messages',
        description:
          'Messages that match every given filter, one row per message with the receiving (`in_msg_tx_hash`) and sending ' +
          '(`out_msg_tx_hash`) transaction. Beyond TON Center: keyset pagination with `cursor` and the `X-Next-Cursor` response header.',
        querystring: MessagesQuery,
        response: { 200: MessagesResponse, ...errors },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const hashes = [...(q.msg_hash ?? []), ...(q.hash !== undefined ? [q.hash] : [])];
      const byTime = q.start_utime !== undefined || q.end_utime !== undefined;
      const order = byTime ? 'created_at' : 'created_lt';
      let cursor: { key: string; hash: string } | undefined;
      if (q.cursor !== undefined) {
        const c = decodeCursor(q.cursor, 'messages', q.sort, order);
        if (typeof c.key !== 'string' || !/^\d+$/.test(c.key) || typeof c.h !== 'string') throw unprocessable('invalid cursor');
        cursor = { key: c.key, hash: c.h };
      }
      // A direction no message side has matches nothing (TON Center compares it literally).
      if (q.direction === 'unmatched') return { messages: [], address_book: {}, metadata: emptyMetadata() };
      const { messages, next } = await findMessages(
        deps.db,
        req.tf,
        {
          ...(hashes.length ? { msg_hashes: hashes } : {}),
          ...(q.body_hash !== undefined ? { body_hash: q.body_hash } : {}),
          ...(q.source !== undefined ? { source: q.source } : {}),
          ...(q.destination !== undefined ? { destination: q.destination } : {}),
          ...(q.opcode !== undefined ? { opcode: q.opcode } : {}),
          ...(q.start_utime !== undefined ? { start_utime: q.start_utime } : {}),
          ...(q.end_utime !== undefined ? { end_utime: q.end_utime } : {}),
          ...(q.start_lt !== undefined ? { start_lt: q.start_lt } : {}),
          ...(q.end_lt !== undefined ? { end_lt: q.end_lt } : {}),
          ...(q.direction !== undefined ? { direction: q.direction } : {}),
          ...(q.exclude_externals !== undefined ? { exclude_externals: q.exclude_externals } : {}),
          ...(q.only_externals !== undefined ? { only_externals: q.only_externals } : {}),
        },
        { limit: q.limit, offset: q.offset, sort: q.sort, ...(cursor ? { cursor } : {}) },
      );
      setNextCursor(reply, next ? encodeCursor('messages', q.sort, order, { key: next.key, h: next.hash }) : null);
      const addresses = messages.flatMap((m) => [m.source, m.destination]);
      const body = { messages, address_book: await book(deps, req, addresses), metadata: emptyMetadata() };
      return deps.pages.send(reply, MessagesResponse, body, 'messages');
    },
  );
}
