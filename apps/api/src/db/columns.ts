import { sql, type SQL } from 'drizzle-orm';

/**
 * A column that one module builds for another module's read (so that a look-up rides in a statement
 * made anyway), with its reader: the value comes back typed, read by the module that wrote the SQL,
 * with that module's defaults. The reading statement never sees what is inside.
 */
export interface TypedColumn<T> {
  sql: SQL;
  read(value: unknown): T;
}

/** A JSON value as the drivers answer it: parsed by node-postgres, a string from some PGlite paths. */
export function jsonValue(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/** Named columns as one JSON object. */
export const jsonObjectOf = (columns: Record<string, SQL>) =>
  sql`json_build_object(${sql.join(Object.entries(columns).map(([name, column]) => sql`${name}::text, ${column}`), sql`, `)})`;

/** Typed columns as one JSON object column, read back as the object of their values (each by its own reader). */
export function typedObjectOf<C extends Record<string, TypedColumn<unknown>>>(columns: C): TypedColumn<{ [K in keyof C]: ReturnType<C[K]['read']> }> {
  return {
    sql: jsonObjectOf(Object.fromEntries(Object.entries(columns).map(([name, column]) => [name, column.sql]))),
    read(value) {
      const found = (jsonValue(value) ?? {}) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(columns).map(([name, column]) => [name, column.read(found[name])])) as { [K in keyof C]: ReturnType<C[K]['read']> };
    },
  };
}
