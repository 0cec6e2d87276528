/**
 * How a table module (this folder) declares its columns: name → ClickHouse type as `DESCRIBE TABLE` prints it, plus
 * the TypeScript type of the column's values in the JSON formats the store speaks (Store.query, Store.insert):
 * 64-bit and wider integers as decimal strings (`output_format_json_quote_64bit_integers`), Map keys as strings.
 * A table's row type is derived from its columns ({@link RowOf}), so the name, the type and the TypeScript shape of a
 * column are written once; tables.test.ts holds every module to the table its migrations create.
 */

export interface Column<T, Written extends boolean = true> {
  /** The ClickHouse type as DESCRIBE prints it, whitespace collapsed (`Array(Tuple(a Int32, b UInt64))`). */
  readonly type: string;
  /** False for a MATERIALIZED column: ClickHouse computes it, no writer sends it. */
  readonly written: Written;
  /** Never set: carries the value type T. */
  readonly value?: T;
}

const column = <T>(type: string): Column<T> => ({ type, written: true });

/** Int8..Int32, UInt8..UInt32: a JSON number. */
export const int = (type: 'Int8' | 'Int32' | 'UInt8' | 'UInt16' | 'UInt32'): Column<number> => column<number>(type);
/** UInt64 and wider: a decimal string. */
export const bigUint = (type: 'UInt64' | 'UInt128' | 'UInt256'): Column<string> => column<string>(type);
/** String, FixedString(n), LowCardinality(String). */
export const text = (type = 'String'): Column<string> => column<string>(type);
/** A base64 hash as the API prints it (0001_blocks.sql conventions). */
export const hash44 = (): Column<string> => column<string>('FixedString(44)');
export const bool = (): Column<boolean> => column<boolean>('Bool');
/** `Map(UInt32, UInt256)`: extra currencies, `{"<id>": "<amount>"}`. */
export const extraCurrencies = (): Column<Record<string, string>> => column<Record<string, string>>('Map(UInt32, UInt256)');
/** `Enum8('in' = 1, 'out' = 2)`: a message side. */
export const direction = (): Column<'in' | 'out'> => column<'in' | 'out'>("Enum8('in' = 1, 'out' = 2)");
/** Any other type, with the shape of its values given. */
export const typed = <T>(type: string): Column<T> => column<T>(type);

export function nullable<T>(c: Column<T>): Column<T | null> {
  return { type: c.type.startsWith('LowCardinality(') ? `LowCardinality(Nullable(${c.type.slice(15, -1)}))` : `Nullable(${c.type})`, written: true };
}

/** A MATERIALIZED column: in the table, never in a row a writer sends. */
export function materialized<T>(c: Column<T>): Column<T, false> {
  return { type: c.type, written: false };
}

export type Columns = Readonly<Record<string, Column<unknown, boolean>>>;

/** The row a writer sends and a `SELECT *`-like read returns: every written column with its value type. */
export type RowOf<C extends Columns> = {
  -readonly [K in keyof C as C[K] extends Column<unknown, true> ? K : never]: C[K] extends Column<infer T, boolean> ? T : never;
};

export interface Table<Name extends string, C extends Columns> {
  readonly name: Name;
  /** Every column of the table, in table order (DESCRIBE's), materialized ones included. */
  readonly columns: C;
  /** The names of the columns a writer sends, in table order. */
  readonly written: ReadonlyArray<keyof RowOf<C> & string>;
}

export function table<const Name extends string, const C extends Columns>(name: Name, columns: C): Table<Name, C> {
  const written = Object.keys(columns).filter((k) => columns[k]!.written) as Array<keyof RowOf<C> & string>;
  return { name, columns, written };
}

/** `a, b, c`: a SELECT list of columns (names are plain identifiers, checked by the type of `names`). */
export function selectList<R>(names: ReadonlyArray<keyof R & string>): string {
  return names.join(', ');
}
