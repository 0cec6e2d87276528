import { ApiError, notFound } from '../errors.js';
import { blocksOfMasterchainBlock, findBlocks, masterchainEnds, shardState } from '../repo/blocks.js';
import { BlocksResponse, IndexError, MasterchainInfo } from '../schemas/records.js';
import { BlocksQuery, MasterchainBlockSeqno, MasterchainBlockShardsQuery } from '../schemas/v3.js';
import { type App, type RouteDeps, zod } from './context.js';

const tags = ['Blockchain data'];
const errors = { 422: IndexError, 500: IndexError };
const notFoundErrors = { 404: IndexError, ...errors };

/**
 * masterchainInfo changes once per masterchain block (seconds apart) and is the most polled endpoint there is:
 * one answer is shared for up to this long, and concurrent requests wait for the same store read.
 */
const MASTERCHAIN_INFO_TTL_MS = 1000;

/** api-v3.md §1.1–1.4. */
export function blockRoutes(app: App, deps: RouteDeps): void {
  const r = zod(app);
  let info: { at: number; value: Promise<Awaited<ReturnType<typeof masterchainEnds>>> } | null = null;

  r.get(
    '/api/v3/masterchainInfo',
    {
      schema: {
        tags,
        operationId: 'api_v3_get_masterchain_info',
        summary: 'Get masterchain info',
        description: 'The first and last indexed masterchain blocks.',
        response: { 200: MasterchainInfo, 500: IndexError },
      },
    },
    async (req) => {
      const now = Date.now();
      if (!info || now - info.at >= MASTERCHAIN_INFO_TTL_MS) {
        const value = masterchainEnds(deps.db, req.tf);
        info = { at: now, value };
        // A failed read is not shared beyond the requests already waiting for it.
        value.catch(() => {
          if (info?.value === value) info = null;
        });
      }
      const ends = await info.value;
      if (!ends) throw new ApiError(500, 'no masterchain blocks indexed');
      // Only the two blocks: `lastHeader` is for the v2 routes, and responses are not filtered by their schema.
      return { first: ends.first, last: ends.last };
    },
  );

  r.get(
    '/api/v3/blocks',
    {
      schema: {
        tags,
        operationId: 'api_v3_get_blocks',
        summary: 'Get blocks',
        description: 'Blocks that match every given filter, by generation time.',
        querystring: BlocksQuery,
        response: { 200: BlocksResponse, ...errors },
      },
    },
    async (req) => {
      const q = req.query;
      const blocks = await findBlocks(deps.db, req.tf, q, { limit: q.limit, offset: q.offset, sort: q.sort });
      return { blocks };
    },
  );

  r.get(
    '/api/v3/masterchainBlockShardState',
    {
      schema: {
        tags,
        operationId: 'api_v3_get_masterchainBlockShardState',
        summary: 'Get masterchain block shard state',
        description: 'The shard blocks a masterchain block commits (its shard state), as full blocks. Equivalent to `/api/v2/shards`.',
        querystring: MasterchainBlockSeqno,
        response: { 200: BlocksResponse, ...notFoundErrors },
      },
    },
    async (req) => {
      const blocks = await shardState(deps.db, req.tf, req.query.seqno);
      if (blocks.length === 0) throw notFound('blocks not found');
      return { blocks };
    },
  );

  r.get(
    '/api/v3/masterchainBlockShards',
    {
      schema: {
        tags,
        operationId: 'api_v3_get_masterchainBlockShards',
        summary: 'Get masterchain block shards',
        description: 'All blocks committed by a masterchain block (itself included): the blocks since the previous one.',
        querystring: MasterchainBlockShardsQuery,
        response: { 200: BlocksResponse, ...notFoundErrors },
      },
    },
    async (req) => {
      const q = req.query;
      const blocks = await blocksOfMasterchainBlock(deps.db, req.tf, q.seqno, { limit: q.limit, offset: q.offset });
      if (blocks.length === 0) throw notFound('blocks not found');
      return { blocks };
    },
  );
}

