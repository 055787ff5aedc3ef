import type { FastifyInstance } from 'fastify';
import { feedFixtures, feedState, syncFeedFixtures } from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as feed from './service.ts';

export function feedRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, feedFixtures, async ({ query }) => ({ fixtures: await feed.searchFixtures(deps.db, query) }));
  route(app, feedState, () => feed.feedState(deps));
  route(app, syncFeedFixtures, async () => {
    const { fixtures, synced } = await feed.syncFixtures(deps);
    if (!deps.sportsFeed) return { message: 'No sports-data feed is configured (SPORTS_FEED_PROVIDER)', fixtures: 0 };
    return { message: synced ? `${fixtures} fixtures synced` : 'The feed did not answer (or is backing off): try again later', fixtures };
  });
}
