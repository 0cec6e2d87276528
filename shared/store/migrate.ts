import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NonRetryableError } from '../runtime/errors.js';
import type { Store } from './store.js';

/**
 * Forward-only schema migrations (house style "Schema / DDL"): `migrations/NNNN_snake_name.sql`, applied in
 * number order, each recorded in `schema_migrations` with the SHA-256 of its file. A file is never edited once
 * applied anywhere: a changed checksum stops the migrator instead of leaving databases that claim the same
 * version with different schemas (the upgrade breakage of user-issues.md #8).
 *
 * Statements must be idempotent (`IF NOT EXISTS` everywhere): a crash between a statement and the record of its
 * file re-runs the whole file. Run one migrator at a time (the deploy's migrate job); there is no lock.
 */

/** One migration file. */
export interface Migration {
  version: number;
  name: string;
  file: string;
  checksum: string;
  statements: string[];
}

/** Applied versions as recorded in `schema_migrations`. */
interface AppliedRow {
  version: number;
  name: string;
  checksum: string;
}

const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/;

/**
 * Where the migrations live: beside this module when running from source, or back in the source tree when running
 * the compiled `dist/shared/store/migrate.js` (tsc does not copy `.sql` files).
 */
export function defaultMigrationsDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const beside = path.join(here, 'migrations');
  if (existsSync(beside)) return beside;
  const source = path.resolve(here, '..', '..', '..', 'shared', 'store', 'migrations');
  return existsSync(source) ? source : beside;
}

/**
 * Splits a migration into statements at `;` ending a line. Whole-line `--` comments are dropped first so that a
 * semicolon in a comment cannot split a statement; the DDL itself must not put `;` at the end of a line
 * inside a string literal.
 */
export function splitStatements(sql: string): string[] {
  const code = sql
    .split(/\r?\n/)
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n');
  return code
    .split(/;[ \t]*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Reads and validates the migration files of `dir`, in version order. */
export function loadMigrations(dir: string = defaultMigrationsDir()): Migration[] {
  const out: Migration[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.sql')) continue;
    const m = FILE_NAME.exec(file);
    if (!m) throw new NonRetryableError('MIGRATION_BAD_NAME', `migration ${file}: name must be NNNN_snake_name.sql`);
    const text = readFileSync(path.join(dir, file), 'utf8');
    const version = Number(m[1]);
    if (out.some((x) => x.version === version)) {
      throw new NonRetryableError('MIGRATION_DUPLICATE', `migration ${file}: version ${version} is used twice`);
    }
    const statements = splitStatements(text);
    if (statements.length === 0) throw new NonRetryableError('MIGRATION_EMPTY', `migration ${file}: no statements`);
    out.push({ version, name: m[2]!, file, checksum: createHash('sha256').update(text).digest('hex'), statements });
  }
  return out.sort((a, b) => a.version - b.version);
}

/**
 * Deadline of one migration statement. Far above the store's command deadline: a migration may rewrite a column of
 * every part (0006 materializes one), which takes as long as the table is large; a statement cut off by a deadline
 * is re-run whole by the next attempt, so a deadline shorter than the work would never let it finish.
 */
export const MIGRATION_STATEMENT_TIMEOUT_MS = 24 * 3600 * 1000;

/** Options of {@link migrate}. */
export interface MigrateOptions {
  /** Migration directory; default {@link defaultMigrationsDir}. */
  dir?: string;
  /** Deadline of each statement; default {@link MIGRATION_STATEMENT_TIMEOUT_MS}. */
  statementTimeoutMs?: number;
  logger?: { info(obj: object, msg: string): void };
}

export interface MigrateResult {
  /** Files applied by this run, in order. */
  applied: string[];
  /** Newest version now in the database (0 when there are no migrations). */
  version: number;
}

/**
 * Applies the pending migrations of `opts.dir` to the store's database, in order, recording each one. Refuses
 * (non-retryable) when an applied file changed, disappeared, or a new file is numbered below an applied one.
 */
export async function migrate(store: Store, opts: MigrateOptions = {}): Promise<MigrateResult> {
  const migrations = loadMigrations(opts.dir);
  await store.command(
    `CREATE TABLE IF NOT EXISTS schema_migrations
     (
         version UInt32,
         name String,
         checksum String,
         applied_at DateTime64(3, 'UTC') DEFAULT now64(3)
     )
     ENGINE = ReplacingMergeTree
     ORDER BY version`,
  );
  const applied = await store.query<AppliedRow>('SELECT version, name, checksum FROM schema_migrations FINAL ORDER BY version');

  for (const row of applied) {
    const file = migrations.find((m) => m.version === row.version);
    if (!file) {
      throw new NonRetryableError(
        'MIGRATION_MISSING',
        `migration ${row.version} (${row.name}) is applied in ${store.database} but its file is gone`,
      );
    }
    if (file.checksum !== row.checksum || file.name !== row.name) {
      throw new NonRetryableError(
        'MIGRATION_CHECKSUM_MISMATCH',
        `migration ${file.file} changed after it was applied to ${store.database} ` +
          `(recorded ${row.name} sha256 ${row.checksum}, file sha256 ${file.checksum}); add a new migration instead`,
      );
    }
  }

  const newest = applied.reduce((v, r) => Math.max(v, r.version), 0);
  const pending = migrations.filter((m) => !applied.some((r) => r.version === m.version));
  const late = pending.find((m) => m.version < newest);
  if (late) {
    throw new NonRetryableError(
      'MIGRATION_OUT_OF_ORDER',
      `migration ${late.file} is numbered below the applied version ${newest}; migrations are forward-only`,
    );
  }

  const done: string[] = [];
  for (const m of pending) {
    const timeoutMs = opts.statementTimeoutMs ?? MIGRATION_STATEMENT_TIMEOUT_MS;
    for (const statement of m.statements) await store.command(statement, undefined, { timeoutMs });
    await store.insert('schema_migrations', [{ version: m.version, name: m.name, checksum: m.checksum }]);
    opts.logger?.info({ migration: m.file, database: store.database }, 'migration applied');
    done.push(m.file);
  }
  return { applied: done, version: migrations.reduce((v, m) => Math.max(v, m.version), newest) };
}
