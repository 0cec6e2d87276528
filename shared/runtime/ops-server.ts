/**
 * The ops endpoints every service exposes on its own port (TONFLOW_OPS_PORT), apart from the API, so probes
 * and scrapes neither pass through the gateway's rate limits nor compete with its traffic (opentonapi serves
 * metrics on a separate port too). Plain node:http: three fixed routes need no framework, and the follower and
 * the indexer should not load fastify (house-style rule 4 keeps each library behind one adapter).
 *
 * - `GET /health`  liveness: the process answers. 200 `{"status":"ok"}`.
 * - `GET /ready`   readiness (rule 9): 503 `{"status":"starting"}` until `ready()` says so (caught up, connected),
 *                  then 200 `{"status":"ready"}`. Kubernetes routes traffic only to ready pods.
 * - `GET /metrics` Prometheus exposition text.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NonRetryableError } from './errors.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

/** Options of `createOpsServer`. */
export interface OpsServerOptions {
  /** 0 binds a free port (tests); `listen()` resolves with the bound one. */
  port: number;
  /** Default `0.0.0.0`: Kubernetes probes target the pod IP, not localhost (fastify Recommendations.md#kubernetes). */
  host?: string;
  metrics: Pick<Metrics, 'text' | 'contentType'>;
  /** Readiness; a throw or rejection counts as not ready (and is logged). */
  ready: () => boolean | Promise<boolean>;
  logger: Logger;
}

/** A started-on-demand ops HTTP server. */
export interface OpsServer {
  /** Starts listening; resolves with the bound port. */
  listen(): Promise<number>;
  /** Stops listening and drops open (keep-alive) connections, so a scraper cannot hold shutdown up. */
  close(): Promise<void>;
}

/** Creates the ops server; call `listen()` to bind and register `close()` with the shutdown. */
export function createOpsServer(options: OpsServerOptions): OpsServer {
  const { metrics, ready, logger } = options;
  const host = options.host ?? '0.0.0.0';

  type Headers = http.OutgoingHttpHeaders;
  const send = (res: http.ServerResponse, status: number, body: string, type: string, extra: Headers = {}): void => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...extra });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  };
  const json = (res: http.ServerResponse, status: number, value: unknown, extra?: Headers): void =>
    send(res, status, JSON.stringify(value), 'application/json; charset=utf-8', extra);

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://ops').pathname;
    const route = path === '/health' || path === '/ready' || path === '/metrics' ? path : undefined;
    if (route === undefined) {
      json(res, 404, { code: 'NOT_FOUND', message: `no route ${path}; try /health, /ready or /metrics` });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      json(res, 405, { code: 'METHOD_NOT_ALLOWED', message: `${req.method} ${route}: use GET` }, { allow: 'GET, HEAD' });
      return;
    }
    if (route === '/health') {
      json(res, 200, { status: 'ok' });
    } else if (route === '/ready') {
      let isReady = false;
      try {
        isReady = await ready();
      } catch (err) {
        logger.warn({ err }, 'readiness check failed');
      }
      json(res, isReady ? 200 : 503, { status: isReady ? 'ready' : 'starting' });
    } else {
      send(res, 200, await metrics.text(), metrics.contentType);
    }
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      logger.error({ err, url: req.url }, 'ops request failed');
      // Masked like every 5xx (house-style error pattern): the details are in the log.
      if (!res.headersSent) json(res, 500, { code: 'INTERNAL', message: 'internal error' });
      else res.destroy();
    });
  });
  // Probes are tiny; a client that trickles headers should not hold a socket for Node's default 60 s.
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;

  return {
    listen: () =>
      new Promise<number>((resolve, reject) => {
        const onError = (err: NodeJS.ErrnoException): void =>
          reject(
            new NonRetryableError(
              'OPS_LISTEN_FAILED',
              `ops server cannot listen on ${host}:${options.port}: ${err.code ?? err.message}`,
              { cause: err },
            ),
          );
        server.once('error', onError);
        server.listen(options.port, host, () => {
          server.off('error', onError);
          const { port } = server.address() as AddressInfo;
          logger.info({ host, port }, 'ops server listening');
          resolve(port);
        });
      }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
