import { type RowOf, table, text } from './columns.js';

/** `cells` (0025_cells.sql). Level-0 cell hash (hex) → the cell record (base64) of shared/ton/cells/cells.ts, key → value (EmbeddedRocksDB). */
export const cells = table('cells', {
  hash: text(),
  record: text(),
});

export type CellRow = RowOf<typeof cells.columns>;
