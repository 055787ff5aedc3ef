/**
 * The subscriber portal's page-weight budget (decision 021): every portal page works without
 * JavaScript and loads at most 50 kB of gzip JavaScript. Its pages are rendered by the API and load
 * only the scripts under apps/api/src/modules/portal/assets (the browser test checks that no page
 * loads any other); this sums their gzip size.
 *
 *   node --import tsx scripts/portal-weight.ts          # print the sizes
 *   node --import tsx scripts/portal-weight.ts --check  # and fail over the budget (npm run e2e)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const PORTAL_JS_BUDGET_BYTES = 50 * 1024;

const assets = fileURLToPath(new URL('../apps/api/src/modules/portal/assets', import.meta.url));

function main(): number {
  const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
  let total = 0;
  for (const name of scripts) {
    const bytes = gzipSync(readFileSync(join(assets, name)), { level: 9 }).length;
    total += bytes;
    console.log(`portal ${name}: ${(bytes / 1024).toFixed(1)} kB gzip`);
  }
  console.log(`portal JavaScript: ${(total / 1024).toFixed(1)} kB gzip of ${PORTAL_JS_BUDGET_BYTES / 1024} kB allowed`);
  if (process.argv.includes('--check') && total > PORTAL_JS_BUDGET_BYTES) {
    console.error('The portal loads more JavaScript than its budget allows.');
    return 1;
  }
  return 0;
}

process.exit(main());
