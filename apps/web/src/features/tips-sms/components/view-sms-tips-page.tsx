import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { betCategoryLabel } from '@betdesk/contract';
import { LoadState } from '@/components/load-state.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { useSmsTips } from '../api/get-sms-tips.ts';

const deliveryColours = { queued: 'gray', sent: 'blue', delivered: 'green', failed: 'red' } as const;

/** /tips/posts/view-sms-tips: each category's current SMS tip, read-only, with its delivery counts. */
export function ViewSmsTipsPage() {
  const tips = useSmsTips();
  return (
    <Stack>
      <Title order={1} size="h2">SMS Tips</Title>
      {!tips.data && <LoadState failed={tips.isError} what="page" />}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {tips.data?.posts.map((tip) => (
          <Card withBorder key={tip.bet_category_id} data-testid={`sms-tip-${tip.code}`}>
            <Stack gap="xs">
              <Group justify="space-between">
                <Text fw={700}>{betCategoryLabel({ name: tip.bet_category, code: tip.code })}</Text>
                <Text size="xs" c="dimmed">
                  {tip.updated_at ? `Saved ${formatDateTime(tip.updated_at)}` : 'No tip yet'}
                </Text>
              </Group>
              <Text style={{ whiteSpace: 'pre-wrap' }}>{tip.content || '—'}</Text>
              <Group gap="xs">
                {(Object.keys(deliveryColours) as (keyof typeof deliveryColours)[]).map((status) => (
                  <Badge key={status} color={deliveryColours[status]} variant="light" data-testid={`delivery-${status}`}>
                    {status}: {tip.delivery[status]}
                  </Badge>
                ))}
              </Group>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
