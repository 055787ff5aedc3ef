import { Card, Stack, Tabs, Text, Title } from '@mantine/core';
import { useCatalogue } from '../api/get-catalogue.ts';
import { BetCategoriesPanel } from './bet-categories-panel.tsx';
import { PlansPanel } from './plans-panel.tsx';
import { PostCategoriesPanel } from './post-categories-panel.tsx';

/**
 * /catalogue (admin): the reference data a business sells from. A fresh install starts empty; the
 * admin adds bet categories, then their packages under Tips Prices, post categories and plans.
 */
export function CataloguePage() {
  const catalogue = useCatalogue();
  const data = catalogue.data;
  const loading = catalogue.isFetching;
  return (
    <Stack>
      <Title order={1} size="h2">Catalogue</Title>
      {catalogue.isError && <Text c="red">The catalogue could not be loaded.</Text>}
      <Card withBorder>
        <Tabs defaultValue="bet-categories" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="bet-categories">Bet categories ({data?.bet_categories.length ?? 0})</Tabs.Tab>
            <Tabs.Tab value="post-categories">Post categories ({data?.post_categories.length ?? 0})</Tabs.Tab>
            <Tabs.Tab value="plans">Bet4Me plans ({data?.plans.length ?? 0})</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="bet-categories">
            <BetCategoriesPanel rows={data?.bet_categories ?? []} loading={loading} />
          </Tabs.Panel>
          <Tabs.Panel value="post-categories">
            <PostCategoriesPanel rows={data?.post_categories ?? []} loading={loading} />
          </Tabs.Panel>
          <Tabs.Panel value="plans">
            <PlansPanel rows={data?.plans ?? []} loading={loading} />
          </Tabs.Panel>
        </Tabs>
      </Card>
    </Stack>
  );
}
