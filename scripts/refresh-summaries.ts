/**
 * npm run db:refresh-summaries
 * Rebuilds the day summaries (totals, dashboard figures, reports) from the base rows, for data loaded
 * straight into the tables with triggers off: an import from the old system, a restore, the bench
 * generator. Writers wait while it runs. Stop the server first when on the embedded PGlite.
 */
import { databaseOptions, loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { refreshSummaries } from '../apps/api/src/db/summaries.ts';
import { rebuildRetentionSummaries } from '../apps/api/src/modules/reports/service.ts';

const config = loadConfig();
const database = await openDatabase(databaseOptions(config));
try {
  await database.migrate();
  const started = Date.now();
  const rebuilt = await refreshSummaries(database.db);
  console.log(`Summaries rebuilt: ${rebuilt} day rows in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  const retentionStarted = Date.now();
  const subscribers = await rebuildRetentionSummaries(database.db);
  console.log(`Retention summaries rebuilt: ${subscribers} subscribers in ${((Date.now() - retentionStarted) / 1000).toFixed(1)} s.`);
} finally {
  await database.close();
}
