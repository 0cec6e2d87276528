import { int, type RowOf, table, text } from './columns.js';

/** `key_block_configs` (0021_key_block_configs.sql). A key block's config dictionary (`Hashmap 32 ^Cell`) as a BOC. */
export const keyBlockConfigs = table('key_block_configs', {
  mc_seqno: int('UInt32'),
  config_boc: text(),
});

export type KeyBlockConfigRow = RowOf<typeof keyBlockConfigs.columns>;
