import type { GatewayConfig } from '../../shared/runtime/config.js';

/**
 * The gateway's configuration is declared with every other key in shared/runtime/config.ts (one schema, one
 * README table); what is here reads it.
 */
export { gatewayConfigSchema, type GatewayConfig } from '../../shared/runtime/config.js';

/** Whether a configuration carries the gateway's keys (tonflow start loads this schema, the other roles do not). */
export function isGatewayConfig(c: object): c is GatewayConfig {
  return 'rpsWithoutKey' in c && 'host' in c;
}

/** The network user-friendly addresses are printed for. */
export function isTestnet(c: GatewayConfig): boolean {
  return c.source.type === 'liteserver' && c.source.network === 'testnet';
}
