import { readFileSync } from 'node:fs';
import http from 'node:http';

/**
 * The client side of `bench heavy-reads`, run as a child process of the gateway's (its own event loop, so its
 * timings are not the gateway's stalls). Reads a {@link HeavySpec} as JSON on stdin, writes a {@link HeavyOutput}
 * as JSON on stdout.
 *
 * It sends `concurrency` heavy requests at once, each on its own connection; a 503 is sent again after its
 * Retry-After (what a well-behaved client does), up to `maxAttempts`. Meanwhile it asks for a light path one
 * request at a time, back to back, and samples the gateway's resident set size from /proc every 10 ms: the
 * gateway's own timers would stall exactly when the figures matter.
 */

export interface HeavySpec {
  url: string;
  /** One heavy path per concurrent request. */
  heavy: string[];
  /** The light path asked for meanwhile (masterchainInfo). */
  light: string;
  /** The gateway's pid, for its RSS. */
  pid: number;
  maxAttempts: number;
}

export interface HeavyOutput {
  /** Heavy requests answered 200 in the end, and those that never were (errors or attempts exhausted). */
  heavy_ok: number;
  heavy_failed: number;
  /** 503 answers along the way (each was sent again after Retry-After). */
  heavy_503: number;
  /** From the first request to the last heavy answer. */
  seconds: number;
  /** Per heavy request, first send to its 200. */
  heavy_p50_ms: number;
  heavy_max_ms: number;
  light_requests: number;
  light_non200: number;
  light_p50_ms: number;
  light_p99_ms: number;
  light_max_ms: number;
  /** The gateway's RSS before the heavy requests, and the highest sampled while they ran, MiB. */
  rss_before_mib: number;
  rss_peak_mib: number;
  /** Bytes of heavy answers received. */
  heavy_bytes: number;
}

function rssMib(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

function get(agent: http.Agent, url: string): Promise<{ status: number; bytes: number; retryAfter: number }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, retryAfter: Number(res.headers['retry-after'] ?? 1) }));
      res.on('error', () => resolve({ status: 0, bytes, retryAfter: 1 }));
    });
    req.on('error', () => resolve({ status: 0, bytes: 0, retryAfter: 1 }));
  });
}

const pct = (sorted: number[], p: number): number => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!);
const r1 = (x: number): number => Math.round(x * 10) / 10;

export async function runHeavyClient(spec: HeavySpec): Promise<HeavyOutput> {
  const heavyAgent = new http.Agent({ keepAlive: true, maxSockets: spec.heavy.length });
  const lightAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const before = rssMib(spec.pid);
  let peak = before;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssMib(spec.pid));
    } catch {
      // The gateway exited: the run fails below.
    }
  }, 10);

  let done = false;
  const light: number[] = [];
  let lightNon200 = 0;
  const lightLoop = (async () => {
    while (!done) {
      const t = performance.now();
      const r = await get(lightAgent, spec.url + spec.light);
      light.push(performance.now() - t);
      if (r.status !== 200) lightNon200++;
    }
  })();

  const start = performance.now();
  let n503 = 0;
  let bytes = 0;
  const heavyTimes: number[] = [];
  let failed = 0;
  await Promise.all(
    spec.heavy.map(async (p) => {
      const t = performance.now();
      for (let attempt = 1; attempt <= spec.maxAttempts; attempt++) {
        const r = await get(heavyAgent, spec.url + p);
        if (r.status === 200) {
          bytes += r.bytes;
          heavyTimes.push(performance.now() - t);
          return;
        }
        if (r.status !== 503) break;
        n503++;
        await new Promise((resolve) => setTimeout(resolve, r.retryAfter * 1000));
      }
      failed++;
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  done = true;
  await lightLoop;
  clearInterval(sampler);
  heavyAgent.destroy();
  lightAgent.destroy();
  heavyTimes.sort((a, b) => a - b);
  light.sort((a, b) => a - b);
  return {
    heavy_ok: heavyTimes.length,
    heavy_failed: failed,
    heavy_503: n503,
    seconds: r1(seconds),
    heavy_p50_ms: Math.round(pct(heavyTimes, 0.5)),
    heavy_max_ms: Math.round(heavyTimes.at(-1) ?? 0),
    light_requests: light.length,
    light_non200: lightNon200,
    light_p50_ms: r1(pct(light, 0.5)),
    light_p99_ms: r1(pct(light, 0.99)),
    light_max_ms: r1(light.at(-1) ?? 0),
    rss_before_mib: Math.round(before),
    rss_peak_mib: Math.round(peak),
    heavy_bytes: bytes,
  };
}

async function main(): Promise<void> {
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  const out = await runHeavyClient(JSON.parse(input) as HeavySpec);
  process.stdout.write(JSON.stringify(out));
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main().catch((e: unknown) => {
    process.stderr.write(`heavy-reads client: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  });
}
