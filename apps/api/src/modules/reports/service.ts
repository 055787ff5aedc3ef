/** What the reports module offers the rest of the API: keeping the retention summaries (decision 043). */
export { rebuildRetentionSummaries, summariseMarked } from './retention-summary-store.ts';
export { moneyBridge, moneyBridgeDays } from './bridge.ts';
