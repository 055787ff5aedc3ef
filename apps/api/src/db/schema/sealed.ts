import { customType } from 'drizzle-orm/pg-core';

/** What a sealed value goes to the database as: itself (the marker below is what matters). */
function sealedToDriver(value: string): string {
  return value;
}

/**
 * A text column holding a value sealed with SECRETS_KEY (lib/crypto's encryptSecret). The column is
 * plain `text` in the database; the type is the schema's mark, which `npm run secrets:rotate` reads
 * to find every sealed column (db/sealed.ts), so a new one is rotated without being listed anywhere.
 * Name it `*_sealed`, as a sealed field inside a settings value is named (the rotation finds those
 * by the name).
 */
export const sealedText = customType<{ data: string; driverData: string }>({
  dataType: () => 'text',
  toDriver: sealedToDriver,
});

/** Whether a column of the schema was built with `sealedText`. */
export function isSealedColumn(column: unknown): boolean {
  return typeof column === 'object' && column !== null && (column as { mapTo?: unknown }).mapTo === sealedToDriver;
}

/** The name every sealed column and every sealed field of a settings value ends with. */
export const SEALED_SUFFIX = '_sealed';
