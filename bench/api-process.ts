/**
 * One API process of the ingestion scenario (bench/run.ts --api-processes): the API as `npm run serve`
 * runs it, in a process of its own, so that the bench's client (its requests, their JSON and hashes)
 * does not share the API's event loop. Started by `fork`; tells its parent its address over IPC and
 * closes when the parent disconnects. It queues its jobs (the nudges after a payment's commit) in
 * pg-boss as an API process of the cluster does, with no worker taking them; BENCH_JOBS=none makes
 * the nudges no-ops, as the bench did before (decision 052).
 */
import { bootApi } from './run.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL must name the bench database');
const api = await bootApi(url, { migrate: false, jobs: process.env.BENCH_JOBS === 'none' ? 'none' : 'send' });
process.send?.({ base: api.base });
process.on('disconnect', () => {
  void api.close().finally(() => process.exit(0));
});
