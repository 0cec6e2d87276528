/** The pool of liteservers: one operation at a time on one liteserver, rotation, backoff, and verification failures counted. */
import { setTimeout as delay } from 'node:timers/promises';
import { NonRetryableError } from '../../runtime/errors.js';
import { Connection, type LiteserverConnection } from './connection.js';
import { BlockIntegrityError, IntegrityFailure, LiteserverAnswerError, type LiteserverEndpoint, type LiteserverStatus, LiteserverUnavailableError, type SourceLogger, WrongNetworkFailure } from './types.js';

interface PoolNode {
  readonly endpoint: LiteserverEndpoint;
  readonly address: string;
  conn: Connection | null;
  failures: number;
  retryAt: number;
  lastError: string | null;
  excluded: string | null;
}

interface PoolOptions {
  queryTimeoutMs: number;
  connectTimeoutMs: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
  pollIntervalMs: number;
  maxIntegrityFailures: number;
  logger: SourceLogger;
}

/**
 * Runs each operation on one liteserver at a time. It sticks to a liteserver while it works. A liteserver whose
 * connection fails, times out or serves bad bytes is skipped until its backoff (doubling per consecutive failure)
 * expires. One that answers "not found" is healthy but behind: the next one is asked, and when none has the block
 * the pool waits `pollIntervalMs` and asks again, for as long as it takes (a gap is never skipped).
 */
export class Pool {
  private readonly nodes: PoolNode[];
  private cursor = 0;

  constructor(
    endpoints: LiteserverEndpoint[],
    private readonly opts: PoolOptions,
  ) {
    this.nodes = endpoints.map((endpoint) => ({
      endpoint,
      address: `${endpoint.host}:${endpoint.port}`,
      conn: null,
      failures: 0,
      retryAt: 0,
      lastError: null,
      excluded: null,
    }));
    // Start at a random liteserver so that many followers on one config do not all load the first one.
    this.cursor = Math.floor(Math.random() * this.nodes.length);
  }

  status(): LiteserverStatus[] {
    return this.nodes.map((n) => ({ address: n.address, failures: n.failures, retryAt: n.retryAt, lastError: n.lastError, excluded: n.excluded }));
  }

  close(): void {
    for (const n of this.nodes) {
      n.conn?.close();
      n.conn = null;
    }
  }

  /**
   * Runs `op` until a liteserver completes it. `what` names the object for logs and errors.
   * @throws BlockIntegrityError after `maxIntegrityFailures` verification failures
   */
  async run<T>(
    what: string,
    op: (conn: LiteserverConnection) => Promise<T>,
    signal: AbortSignal,
    /** Told of each answer that failed verification with the bytes served (for the dead-letter topic). */
    onRejected?: (failure: IntegrityFailure & { served: NonNullable<IntegrityFailure['served']> }, liteserver: string) => void,
  ): Promise<T> {
    const askedThisRound = new Set<PoolNode>();
    let integrityFailures = 0;
    let waitingSince = 0;
    let lastWaitLog = 0;
    for (;;) {
      signal.throwIfAborted();
      const node = this.pick(askedThisRound);
      if (!node) {
        const usable = this.nodes.filter((n) => !n.excluded);
        if (usable.length === 0) {
          throw new NonRetryableError('LITESERVER_NONE_USABLE', `no usable liteserver left: ${this.nodes.map((n) => `${n.address} (${n.excluded})`).join(', ')}`);
        }
        if (askedThisRound.size > 0) {
          // Every liteserver that could be asked said it does not have it (yet): wait for the chain, then ask again.
          const now = Date.now();
          if (waitingSince === 0) waitingSince = now;
          if (now - lastWaitLog >= 30_000) {
            lastWaitLog = now;
            this.opts.logger.info({ block: what, waitingMs: now - waitingSince, asked: askedThisRound.size }, 'block not available on any liteserver yet, waiting');
          }
          askedThisRound.clear();
          await delay(this.opts.pollIntervalMs, undefined, { signal });
        } else {
          const wake = Math.min(...usable.map((n) => n.retryAt));
          await delay(Math.max(1, wake - Date.now()), undefined, { signal });
        }
        continue;
      }
      const conn = this.connection(node);
      try {
        const result = await abortable(op(conn), signal);
        this.succeeded(node);
        return result;
      } catch (e) {
        if (signal.aborted) throw e;
        if (e instanceof LiteserverAnswerError) {
          askedThisRound.add(node);
          this.advancePast(node);
          this.opts.logger.debug({ liteserver: node.address, block: what, err: e }, 'liteserver does not have the block');
        } else if (e instanceof IntegrityFailure) {
          integrityFailures++;
          this.failed(node, conn, e);
          this.opts.logger.warn({ liteserver: node.address, block: what, reason: e.message, integrityFailures }, 'liteserver served bytes that fail verification');
          if (e.served) onRejected?.(e as IntegrityFailure & { served: NonNullable<IntegrityFailure['served']> }, node.address);
          if (integrityFailures >= this.opts.maxIntegrityFailures) {
            throw new BlockIntegrityError(
              `${what}: ${integrityFailures} answers failed verification (last from ${node.address}: ${e.message}); the block was not yielded`,
            );
          }
        } else if (e instanceof WrongNetworkFailure) {
          node.excluded = e.message;
          node.conn?.close();
          node.conn = null;
          this.advancePast(node);
          this.opts.logger.warn({ liteserver: node.address, reason: e.message }, 'liteserver dropped: another network');
        } else if (e instanceof LiteserverUnavailableError) {
          this.failed(node, conn, e);
          this.opts.logger.warn({ liteserver: node.address, block: what, err: e, retryInMs: node.retryAt - Date.now() }, 'liteserver failed, trying another');
        } else {
          throw e;
        }
      }
    }
  }

  /** The sticky liteserver if usable, else the next usable one in config order. */
  private pick(skip: Set<PoolNode>): PoolNode | null {
    const now = Date.now();
    for (let k = 0; k < this.nodes.length; k++) {
      const i = (this.cursor + k) % this.nodes.length;
      const n = this.nodes[i]!;
      if (n.excluded || n.retryAt > now || skip.has(n)) continue;
      this.cursor = i;
      return n;
    }
    return null;
  }

  private connection(node: PoolNode): Connection {
    if (!node.conn || node.conn.isClosed) {
      node.conn = new Connection(node.endpoint, this.opts.queryTimeoutMs, this.opts.connectTimeoutMs);
    }
    return node.conn;
  }

  private succeeded(node: PoolNode): void {
    node.failures = 0;
    node.retryAt = 0;
    node.lastError = null;
  }

  /**
   * Backs `node` off. A transport failure also drops its connection; the other queries in flight on that connection
   * fail with it, and count as the same failure. A verification failure is a bad answer, not a bad connection:
   * queries in flight there go on (their answers are verified on their own).
   */
  private failed(node: PoolNode, conn: Connection, e: Error): void {
    const transport = !(e instanceof IntegrityFailure);
    if (transport && node.conn !== conn) return;
    node.failures++;
    const base = Math.min(this.opts.backoffMaxMs, this.opts.backoffInitialMs * 2 ** (node.failures - 1));
    // ±20 % jitter so that followers sharing a liteserver do not come back in lockstep.
    node.retryAt = Date.now() + Math.round(base * (0.8 + Math.random() * 0.4));
    node.lastError = e.message;
    if (transport) {
      node.conn = null;
      conn.close();
    }
    this.advancePast(node);
  }

  private advancePast(node: PoolNode): void {
    const i = this.nodes.indexOf(node);
    if (this.nodes[this.cursor] === node) this.cursor = (i + 1) % this.nodes.length;
  }
}

function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
