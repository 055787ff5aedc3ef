import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const virtualId = '\0betdesk-kenya-phone';

/**
 * The contract parses phones with libphonenumber-js's mobile metadata: 98 kB of JSON for every
 * country, about 30 kB of gzip in the first load. Betdesk only accepts Kenyan numbers
 * (normaliseKenyanPhone answers null for any other country), so the browser build gets the same
 * parser with Kenya's metadata only; the API keeps the full library.
 */
export function kenyaOnlyPhoneMetadata() {
  return {
    name: 'betdesk-kenya-phone',
    enforce: 'pre' as const,
    resolveId(source: string) {
      return source === 'libphonenumber-js/mobile' ? virtualId : null;
    },
    load(id: string) {
      if (id !== virtualId) return null;
      const require = createRequire(import.meta.url);
      const all = JSON.parse(readFileSync(require.resolve('libphonenumber-js/metadata.mobile.json'), 'utf8')) as {
        version: number;
        countries: Record<string, unknown>;
        nonGeographic?: Record<string, unknown>;
      };
      const kenya = {
        version: all.version,
        country_calling_codes: { '254': ['KE'] },
        countries: { KE: all.countries.KE },
        nonGeographic: {},
      };
      return [
        "import { parsePhoneNumberFromString as parseWith } from 'libphonenumber-js/core';",
        `const metadata = ${JSON.stringify(kenya)};`,
        'export function parsePhoneNumberFromString(text, defaultCountry) { return parseWith(text, defaultCountry, metadata); }',
        'export default parsePhoneNumberFromString;',
      ].join('\n');
    },
  };
}
