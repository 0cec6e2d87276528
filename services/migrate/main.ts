import { configFlags, loadConfig, parseFlags, tonflowConfigSchema } from '../../shared/runtime/config.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { migrate } from '../../shared/store/migrate.js';
import { openStore } from '../common/wiring.js';

/** Composition root of `tonflow migrate`: applies pending migrations and exits (the Kubernetes migrate Job). */
export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { flags } = parseFlags(argv, configFlags(tonflowConfigSchema));
  const config = loadConfig(tonflowConfigSchema, { env, flags });
  const logger = createLogger({ service: 'migrate', level: config.logLevel });
  const store = await openStore(config, logger);
  try {
    const result = await migrate(store, { logger });
    logger.info({ applied: result.applied, version: result.version }, 'migrations applied');
    return 0;
  } finally {
    await store.close();
  }
}
