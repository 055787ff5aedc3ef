import type { Config } from '../../config.ts';
import { apiFootballFeed } from './api-football.ts';
import { sharedFakeApiFootball } from './fake-api-football.ts';
import type { SportsFeed } from './feed.ts';

/** The feed SPORTS_FEED_PROVIDER names (decision 070), or null: Betdesk then works on typed legs. */
export function createSportsFeed(config: Config): SportsFeed | null {
  const f = config.sportsFeed;
  if (!f) return null;
  if (f.kind === 'api-football') return apiFootballFeed({ baseUrl: f.baseUrl, apiKey: f.apiKey });
  // The demo: the in-process fake answers, started when first used.
  let real: Promise<SportsFeed> | null = null;
  const feed = () => (real ??= sharedFakeApiFootball().then((fake) => apiFootballFeed({ baseUrl: fake.url, apiKey: fake.apiKey })));
  let last: SportsFeed | null = null;
  const use = async () => (last = await feed());
  return {
    provider: 'api-football',
    fixtures: async (q) => (await use()).fixtures(q),
    fixturesById: async (ids) => (await use()).fixturesById(ids),
    prices: async (id) => (await use()).prices(id),
    lastQuota: () => last?.lastQuota() ?? null,
  };
}
