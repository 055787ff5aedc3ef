import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { ReadRouting } from './db/replica.ts';
import type { Jobs } from './jobs/jobs.ts';
import type { SmsGateway } from './integrations/sms/gateway.ts';
import type { SportsFeed } from './integrations/sports-feed/feed.ts';

/** What the routes and services of a running app share. Built once in main (or per test). */
export interface AppDeps {
  config: Config;
  database: Database;
  db: Db;
  jobs: Jobs;
  sms: SmsGateway;
  /** The second aggregator (SMS_FAILOVER_PROVIDER, decision 062); absent or null: none. */
  smsFailover?: SmsGateway | null;
  /** The sports-data feed (SPORTS_FEED_PROVIDER, decision 070); absent or null: none, legs are typed. */
  sportsFeed?: SportsFeed | null;
  /** DATABASE_REPLICA_URL's routing of reading work (decision 073); absent or null: everything on the primary. */
  reads?: ReadRouting | null;
}
