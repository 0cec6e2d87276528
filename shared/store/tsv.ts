/**
 * Rows → ClickHouse TabSeparated text, the cheapest body ClickHouse parses for an insert (bench/RESULTS.md, ingest).
 * Pure and infrastructure-free, so the decode workers encode their rows where they are made (services/indexer):
 * a buffer crosses threads for free, while the row objects cost more to clone than to encode.
 */

/** A plain ClickHouse identifier (database, table, column). */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Rows already encoded for one table: TabSeparated `body`, one line per row, with the columns it fills. */
export interface EncodedRows {
  columns: string[];
  /** ClickHouse type of each column, as `system.columns` gives it. */
  types: string[];
  body: Uint8Array;
  rows: number;
}

/**
 * The keys of `rows` when every row has the same keys in the same order and each is a plain identifier (they become
 * the statement's column list); null otherwise.
 */
export function rowShape(rows: readonly object[]): string[] | null {
  const columns = Object.keys(rows[0]!);
  if (columns.length === 0 || !columns.every((c) => IDENTIFIER.test(c))) return null;
  for (let i = 1; i < rows.length; i++) {
    const keys = Object.keys(rows[i]!);
    if (keys.length !== columns.length) return null;
    for (let c = 0; c < keys.length; c++) if (keys[c] !== columns[c]) return null;
  }
  return columns;
}

/** A value that its column's text encoder cannot represent: the insert goes as JSON instead. */
export class EncodeMismatch extends Error {}

/** One column's value → its TabSeparated field (top level) or its quoted form (inside arrays, maps, tuples). */
export type FieldEncoder = (v: unknown) => string;

/** The TabSeparated text of `rows` (shaped as {@link rowShape} checks), or null when a value does not fit its column's encoder. */
export function tsvBody(rows: readonly object[], columns: readonly string[], encoders: readonly FieldEncoder[]): string | null {
  // One string appended to, rather than an array of lines joined: the engine's concatenation defers the copy to the
  // single flattening that encoding it as UTF-8 does anyway, where the lines and their join copied every line twice
  // more (bench/RESULTS.md, design measurements).
  let out = '';
  const n = columns.length;
  const first = encoders[0]!;
  try {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as Record<string, unknown>;
      // Values in key order, which rowShape checked is `columns` for every row: no lookup by name per field.
      const values = Object.values(row);
      if (values.length !== n) throw new EncodeMismatch();
      let line = first(values[0]);
      for (let c = 1; c < n; c++) line += '\t' + encoders[c]!(values[c]);
      out += line + '\n';
    }
  } catch (e) {
    if (e instanceof EncodeMismatch) return null;
    throw e;
  }
  return out;
}

const encoderCache = new Map<string, FieldEncoder | null>();

/**
 * The TabSeparated encoder of a ClickHouse column type, or null for a type this module does not encode (the insert
 * then goes as JSON). Covers what tonflow's tables use: integers, floats, decimals, Bool, String, FixedString, Enum,
 * and Nullable, LowCardinality, Array, Map and Tuple of those. Escaping follows ClickHouse's TabSeparated format:
 * a top-level string escapes backslash, tab, newline, CR and NUL; nested values use the quoted form (strings in
 * single quotes, NULL for null), which never contains a raw tab or newline.
 */
export function fieldEncoder(type: string): FieldEncoder | null {
  let enc = encoderCache.get(type);
  if (enc === undefined) {
    enc = buildEncoder(type.trim(), false);
    encoderCache.set(type, enc);
  }
  return enc;
}

const INTEGER_OR_FLOAT = /^(U?Int(8|16|32|64|128|256)|Float(32|64)|Decimal(32|64|128|256)?)$/;

function buildEncoder(type: string, quoted: boolean): FieldEncoder | null {
  const open = type.indexOf('(');
  const name = open < 0 ? type : type.slice(0, open);
  const inner = open < 0 ? '' : type.slice(open + 1, type.lastIndexOf(')'));
  if (INTEGER_OR_FLOAT.test(name)) return encodeNumber;
  switch (name) {
    case 'String':
    case 'FixedString':
      return quoted ? encodeQuotedString : encodeTsvString;
    case 'Enum8':
    case 'Enum16':
      return (v) => (typeof v === 'number' ? String(v) : quoted ? encodeQuotedString(v) : encodeTsvString(v));
    case 'Bool':
      return encodeBool;
    case 'LowCardinality':
      return buildEncoder(inner.trim(), quoted);
    case 'Nullable': {
      const e = buildEncoder(inner.trim(), quoted);
      if (!e) return null;
      const none = quoted ? 'NULL' : '\\N';
      return (v) => (v === null || v === undefined ? none : e(v));
    }
    case 'Array': {
      const e = buildEncoder(inner.trim(), true);
      if (!e) return null;
      return (v) => {
        if (!Array.isArray(v)) throw new EncodeMismatch();
        return `[${v.map(e).join(',')}]`;
      };
    }
    case 'Map': {
      const [k, val] = splitTopLevel(inner);
      const ke = k === undefined ? null : buildEncoder(k, true);
      const ve = val === undefined ? null : buildEncoder(val, true);
      if (!ke || !ve) return null;
      return (v) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new EncodeMismatch();
        return `{${Object.entries(v).map(([a, b]) => `${ke(a)}:${ve(b)}`).join(',')}}`;
      };
    }
    case 'Tuple': {
      const parts = splitTopLevel(inner).map((el) => {
        const named = /^`?([A-Za-z_][A-Za-z0-9_]*)`?\s+(\S[\s\S]*)$/.exec(el);
        return named ? { name: named[1]!, enc: buildEncoder(named[2]!, true) } : { name: null, enc: buildEncoder(el, true) };
      });
      if (parts.some((p) => !p.enc)) return null;
      return (v) => {
        if (Array.isArray(v)) {
          if (v.length !== parts.length) throw new EncodeMismatch();
          return `(${parts.map((p, i) => p.enc!(v[i])).join(',')})`;
        }
        if (typeof v !== 'object' || v === null || parts.some((p) => p.name === null)) throw new EncodeMismatch();
        const o = v as Record<string, unknown>;
        return `(${parts.map((p) => p.enc!(o[p.name!])).join(',')})`;
      };
    }
    default:
      return null;
  }
}

/** Splits `a, b(c, d), 'e,f'` at its top-level commas. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === "'") quote = false;
    } else if (ch === "'") quote = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = s.slice(start).trim();
  if (last !== '') out.push(last);
  return out;
}

function encodeNumber(v: unknown): string {
  if (typeof v === 'string' || typeof v === 'bigint' || (typeof v === 'number' && Number.isFinite(v))) return String(v);
  throw new EncodeMismatch();
}

function encodeBool(v: unknown): string {
  if (v === true) return 'true';
  if (v === false) return 'false';
  throw new EncodeMismatch();
}

const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' };

function encodeTsvString(v: unknown): string {
  if (typeof v !== 'string') throw new EncodeMismatch();
  // One native replaceAll per character rather than a replace callback per match: JSON texts (transaction documents,
  // descriptions) carry dozens of backslashes and no control character (bench/RESULTS.md, ingest). Each character is
  // looked for with `includes`, a native one-character search, rather than one character-class regular expression over
  // every string: hashes, addresses, BOCs and JSON texts, nearly all of what is written, hold none of them
  // (bench/RESULTS.md, design measurements).
  // Backslashes first: the control characters' escapes add backslashes that must stay single.
  let out = v.includes('\\') ? v.replaceAll('\\', '\\\\') : v;
  if (out.includes('\t')) out = out.replaceAll('\t', '\\t');
  if (out.includes('\n')) out = out.replaceAll('\n', '\\n');
  if (out.includes('\r')) out = out.replaceAll('\r', '\\r');
  if (out.includes('\0')) out = out.replaceAll('\0', '\\0');
  return out;
}

const QUOTED_ESCAPES: Record<string, string> = { ...TSV_ESCAPES, "'": "\\'" };
const QUOTED_SPECIAL_ALL = /[\\'\t\n\r\0]/g;

function encodeQuotedString(v: unknown): string {
  if (typeof v !== 'string') throw new EncodeMismatch();
  return `'${v.replace(QUOTED_SPECIAL_ALL, (c) => QUOTED_ESCAPES[c]!)}'`;
}

/**
 * `rows` as TabSeparated for a table whose columns have the ClickHouse types `types` (name → type), or null when
 * they do not fit (different shapes, a column the table lacks, a type or a value without a text encoding here):
 * such rows go to the store as they are.
 */
export function encodeRows(rows: readonly object[], types: ReadonlyMap<string, string>): EncodedRows | null {
  if (rows.length === 0) return null;
  const columns = rowShape(rows);
  if (!columns) return null;
  const encoders: FieldEncoder[] = [];
  for (const c of columns) {
    const type = types.get(c);
    const enc = type === undefined ? null : fieldEncoder(type);
    if (!enc) return null;
    encoders.push(enc);
  }
  const text = tsvBody(rows, columns, encoders);
  if (text === null) return null;
  return { columns, types: columns.map((c) => types.get(c)!), body: utf8.encode(text), rows: rows.length };
}

const utf8 = new TextEncoder();
