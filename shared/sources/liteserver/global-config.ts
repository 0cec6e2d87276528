/** TON global configs: the bundled mainnet and testnet ones, a file or URL override, and what the source takes from them. */
import { readFile } from 'node:fs/promises';
import { NonRetryableError, UpstreamUnavailableError } from '../../runtime/errors.js';
import { isRecord, type LiteserverEndpoint, type TonNetwork } from './types.js';

/** What the source needs from a global config. */
export interface ParsedGlobalConfig {
  liteservers: LiteserverEndpoint[];
  /** Root hash of the masterchain zero state, when the config names it: liteservers reporting another are dropped. */
  zeroStateRootHash: Uint8Array | null;
}

/**
 * Validates a global config object and extracts the liteservers. Throws one {@link NonRetryableError}
 * (`LITESERVER_CONFIG_INVALID`) listing every problem.
 */
export function parseGlobalConfig(config: unknown): ParsedGlobalConfig {
  const issues: string[] = [];
  const liteservers: LiteserverEndpoint[] = [];
  const list = isRecord(config) ? config.liteservers : undefined;
  if (!Array.isArray(list) || list.length === 0) {
    issues.push('liteservers: expected a non-empty array');
  } else {
    list.forEach((entry: unknown, i) => {
      const at = `liteservers[${i}]`;
      if (!isRecord(entry)) return void issues.push(`${at}: expected an object`);
      const { ip, port, id } = entry;
      if (typeof ip !== 'number' || !Number.isInteger(ip) || ip < -0x80000000 || ip > 0xffffffff) {
        issues.push(`${at}.ip: expected an IPv4 address as a 32-bit integer`);
      }
      if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) issues.push(`${at}.port: expected 1..65535`);
      const key = isRecord(id) && typeof id.key === 'string' ? Buffer.from(id.key, 'base64') : null;
      if (!key || key.length !== 32) issues.push(`${at}.id.key: expected a base64 ed25519 public key (32 bytes)`);
      else if (isRecord(id) && id['@type'] !== undefined && id['@type'] !== 'pub.ed25519') issues.push(`${at}.id.@type: only pub.ed25519 is supported`);
      if (issues.length === 0 && typeof ip === 'number' && typeof port === 'number' && key) {
        liteservers.push({ host: ipv4(ip), port, publicKey: new Uint8Array(key) });
      }
    });
  }
  let zeroStateRootHash: Uint8Array | null = null;
  const zs = isRecord(config) && isRecord(config.validator) ? config.validator.zero_state : undefined;
  if (isRecord(zs) && typeof zs.root_hash === 'string') {
    const h = Buffer.from(zs.root_hash, 'base64');
    if (h.length === 32) zeroStateRootHash = new Uint8Array(h);
    else issues.push('validator.zero_state.root_hash: expected 32 bytes of base64');
  }
  if (issues.length > 0) throw new NonRetryableError('LITESERVER_CONFIG_INVALID', `invalid global config:\n  ${issues.join('\n  ')}`);
  return { liteservers, zeroStateRootHash };
}

/** A global config stores IPv4 addresses as signed 32-bit integers, most significant byte first. */
function ipv4(ip: number): string {
  const u = ip >>> 0;
  return `${u >>> 24}.${(u >>> 16) & 255}.${(u >>> 8) & 255}.${u & 255}`;
}

/**
 * The public global config of `network`, as bundled in `shared/sources/global-config/` (a snapshot of
 * ton.org's `global.config.json` / `testnet-global.config.json`; liteservers change, so deployments should pass a
 * fresh one with `--liteserver-config`).
 */
export async function bundledGlobalConfig(network: TonNetwork): Promise<unknown> {
  // tsc does not copy JSON files to dist/, so the compiled module falls back to the source tree next to it.
  const candidates = [
    new URL(`../global-config/${network}.json`, import.meta.url),
    new URL(`../../../../shared/sources/global-config/${network}.json`, import.meta.url),
  ];
  for (const url of candidates) {
    try {
      return JSON.parse(await readFile(url, 'utf8')) as unknown;
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'ENOENT') throw e;
    }
  }
  throw new NonRetryableError('LITESERVER_CONFIG_INVALID', `bundled global config for ${network} not found`);
}

/**
 * Reads a global config from a file path or an http(s) URL (the `--liteserver-config` value) and parses the JSON.
 * Validation happens in {@link createLiteserverSource}.
 */
export async function loadGlobalConfig(location: string, opts: { signal?: AbortSignal } = {}): Promise<unknown> {
  let text: string;
  try {
    if (/^https?:\/\//i.test(location)) {
      const res = await fetch(location, { signal: opts.signal ?? AbortSignal.timeout(30_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      text = await res.text();
    } else {
      text = await readFile(location, 'utf8');
    }
  } catch (e) {
    throw new UpstreamUnavailableError('LITESERVER_CONFIG_UNREADABLE', `cannot read global config ${location}: ${(e as Error).message}`, { cause: e });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new NonRetryableError('LITESERVER_CONFIG_INVALID', `global config ${location} is not JSON: ${(e as Error).message}`, { cause: e });
  }
}
