import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Open-loop HTTP load at a fixed rate, run as a child process of `bench api` (its own event loop and CPU time).
 * Reads a {@link LoadSpec} as JSON on stdin and writes a {@link LoadOutput} as JSON on stdout.
 *
 * Request i is due at start + i / rate, whatever happened to the ones before (the schedule never waits for
 * answers), and its latency runs from that due time, not from when it was actually sent: a generator or server
 * that falls behind shows up in the latencies instead of silently lowering the rate (coordinated omission, as
 * wrk2 measures it). Requests go out evenly spaced over keep-alive connections, opened as concurrency needs, up to
 * `connections`. Why not autocannon's `overallRate`: it paces each of its connections separately and the requests
 * leave in bursts, and against a handler that only returns a constant string its p99 was tens of times that of
 * evenly spaced requests (bench/RESULTS.md, api).
 */

export interface LoadSpec {
  url: string;
  /** Paths drawn at random, one per request (GET). */
  paths: string[];
  /** When given, POSTs drawn at random instead of `paths`: a path and its JSON body. */
  posts?: Array<{ path: string; body: string }>;
  rate: number;
  seconds: number;
  /** Most requests in flight (keep-alive sockets). */
  connections: number;
}

export interface LoadOutput {
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Longest this process's event loop was late while the run lasted: how late requests left because of the generator itself. */
  loop_delay_max_ms: number;
  /**
   * p99 of the time the server reports it spent on each answered request (its `Server-Timing: app;dur=…`; 0 when it
   * sends none): a latency tail far above it was spent outside the handler (waiting for the server's event loop,
   * the sockets, this process).
   */
  server_p99: number;
  /** Answers the gateway's response cache gave (`x-cache: hit`). */
  cache_hits: number;
  /** p99 of the answers the response cache did not give (ms from their due time; 0 when there were none). */
  miss_p99: number;
}

/** The `app;dur=` of a Server-Timing header in ms (Go's Duration text, services/gateway/server-timing.ts); null without one. */
export function serverMs(header: string | string[] | undefined): number | null {
  const m = /app;dur=([\d.]+)(ns|\u00c2\u00b5s|\u00b5s|ms|s)\b/.exec(Array.isArray(header) ? header.join(',') : (header ?? ''));
  if (!m) return null;
  const scale: Record<string, number> = { ns: 1e-6, '\u00c2\u00b5s': 1e-3, '\u00b5s': 1e-3, ms: 1, s: 1e3 };
  return Number(m[1]) * scale[m[2]!]!;
}

const TIMEOUT_MS = 10_000;
/** After the last request is due, how long answers are still waited for. */
const GRACE_MS = 2_000;

export function runLoadHere(spec: LoadSpec): Promise<LoadOutput> {
  const target = new URL(spec.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  const interval = 1000 / spec.rate;
  const total = Math.max(1, Math.round(spec.rate * spec.seconds));
  const latencies: number[] = [];
  const serverTimes: number[] = [];
  const missLatencies: number[] = [];
  let cacheHits = 0;
  let sent = 0;
  let settled = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  const start = performance.now() + 10;
  let lastDone = start;
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();

  return new Promise((resolve) => {
    // Requests still unanswered when the run ends (a server slower than the rate falls behind by more and more):
    // cut off and counted as timeouts, with their wait so far as latency, a lower bound.
    const pending = new Map<http.ClientRequest, number>();
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(deadline);
      const now = performance.now();
      for (const [req, due] of pending) {
        latencies.push(now - due);
        timeouts++;
        req.destroy();
      }
      pending.clear();
      agent.destroy();
      loop.disable();
      latencies.sort((a, b) => a - b);
      serverTimes.sort((a, b) => a - b);
      missLatencies.sort((a, b) => a - b);
      const q = (p: number): number => (latencies.length === 0 ? 0 : round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!));
      resolve({
        requests: settled,
        rps: settled / (Math.max(lastDone - start, spec.seconds * 1000) / 1000),
        p50: q(0.5),
        p90: q(0.9),
        p99: q(0.99),
        max: latencies.length === 0 ? 0 : round(latencies[latencies.length - 1]!),
        non2xx,
        errors,
        timeouts,
        loop_delay_max_ms: round(loop.max / 1e6),
        server_p99: serverTimes.length === 0 ? 0 : round(serverTimes[Math.min(serverTimes.length - 1, Math.floor(0.99 * serverTimes.length))]!),
        cache_hits: cacheHits,
        miss_p99: missLatencies.length === 0 ? 0 : round(missLatencies[Math.min(missLatencies.length - 1, Math.floor(0.99 * missLatencies.length))]!),
      });
    };
    const settle = (req: http.ClientRequest): void => {
      if (finished || !pending.delete(req)) return;
      lastDone = performance.now();
      if (++settled === total) finish();
    };
    const deadline = setTimeout(finish, 10 + spec.seconds * 1000 + GRACE_MS);
    const fire = (due: number): void => {
      const post = spec.posts?.length ? spec.posts[Math.floor(Math.random() * spec.posts.length)]! : undefined;
      const path = post?.path ?? spec.paths[Math.floor(Math.random() * spec.paths.length)]!;
      let timedOut = false;
      const options: http.RequestOptions = { agent, host: target.hostname, port: target.port, path, timeout: TIMEOUT_MS };
      if (post) {
        options.method = 'POST';
        options.headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(post.body) };
      }
      const req = http.request(options, (res) => {
        res.resume();
        res.on('end', () => {
          if (finished) return;
          if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode > 299) non2xx++;
          const latency = performance.now() - due;
          latencies.push(latency);
          if (res.headers['x-cache'] === 'hit') cacheHits++;
          else missLatencies.push(latency);
          const server = serverMs(res.headers['server-timing']);
          if (server !== null) serverTimes.push(server);
          settle(req);
        });
      });
      req.end(post?.body);
      pending.set(req, due);
      req.on('timeout', () => {
        if (finished) return;
        timeouts++;
        timedOut = true;
        req.destroy(new Error('timeout'));
      });
      req.on('error', () => {
        if (finished) return;
        if (!timedOut) errors++;
        settle(req);
      });
    };
    const tick = (): void => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        fire(start + sent * interval);
        sent++;
      }
      if (sent < total && !finished) setTimeout(tick, Math.max(0, Math.min(1, start + sent * interval - performance.now())));
    };
    setTimeout(tick, 10);
  });
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** As a child process: spec on stdin, result on stdout. */
async function main(): Promise<void> {
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  const out = await runLoadHere(JSON.parse(input) as LoadSpec);
  process.stdout.write(JSON.stringify(out));
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) await main();
