import { Alert, Button, Group, List, Modal, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { betCategoryLabel, type SmsTipsEstimate } from '@betdesk/contract';
import { paths } from '@/config/paths.ts';
import { formatMoney } from '@/lib/format.ts';
import { getSmsTips } from '../api/get-sms-tips.ts';
import { queryKeys } from '@/lib/query-keys.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-KE')} ${n === 1 ? one : many}`;

/** "This sends 2 SMS (4 parts, about KES 3.20) to Daily 2 Odds subscribers." */
export function sendSentence(tip: SmsTipsEstimate['tips'][number]): string {
  const category = betCategoryLabel({ name: tip.bet_category, code: tip.code });
  return `This sends ${tip.recipients.toLocaleString('en-KE')} SMS (${plural(tip.estimated_parts, 'part')}, about ${formatMoney(tip.estimated_cost)}) to ${category} subscribers.`;
}

/** Asks before a save that sends SMS: one line per changed category, with its count, parts and cost. */
export function ConfirmSmsTips({
  estimate,
  sending,
  onConfirm,
  onCancel,
}: {
  estimate: SmsTipsEstimate | null;
  sending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal opened={estimate !== null} onClose={onCancel} title="Send the SMS tips?" centered data-testid="sms-tips-confirm">
      {estimate && (
        <Stack gap="sm">
          <List spacing="xs">
            {estimate.tips.map((tip) => (
              <List.Item key={tip.bet_category_id} data-testid={`sms-tips-confirm-${tip.code}`}>
                {sendSentence(tip)}
              </List.Item>
            ))}
          </List>
          {estimate.tips.length > 1 && (
            <Text size="sm" fw={600} data-testid="sms-tips-confirm-total">
              In all: {estimate.recipients.toLocaleString('en-KE')} SMS, {plural(estimate.estimated_parts, 'part')}, about{' '}
              {formatMoney(estimate.estimated_cost)}.
            </Text>
          )}
          <Text size="xs" c="dimmed">
            Each subscriber receives a text once; saving the same text again sends nothing.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel} data-autofocus>
              Cancel
            </Button>
            <Button onClick={onConfirm} loading={sending} data-testid="sms-tips-send">
              Send {plural(estimate.recipients, 'SMS', 'SMS')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/**
 * After a save: how far each sent tip has gone, refreshed every 2 s until nothing is queued. It
 * scrolls itself into view when it appears, so the answer to "Send N SMS" is never off screen.
 */
export function SmsTipsProgress({ categories }: { categories: number[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  const tips = useQuery({
    queryKey: queryKeys.tips.smsTipsProgress(),
    queryFn: getSmsTips,
    refetchInterval: (query) =>
      query.state.data?.posts.some((tip) => categories.includes(tip.bet_category_id) && tip.delivery.queued > 0) === false
        ? false
        : 2_000,
  });
  const shown = tips.data?.posts.filter((tip) => categories.includes(tip.bet_category_id)) ?? [];
  return (
    <Alert ref={box} color="blue" title="Sending SMS tips" role="status" data-testid="sms-tips-progress">
      <Stack gap="xs">
        {shown.map((tip) => {
          const { queued, sent, delivered, failed } = tip.delivery;
          const total = queued + sent + delivered + failed;
          const done = total - queued;
          return (
            <div key={tip.bet_category_id} data-testid={`sms-tips-progress-${tip.code}`}>
              <Text size="sm">
                {betCategoryLabel({ name: tip.bet_category, code: tip.code })}: {done.toLocaleString('en-KE')} of{' '}
                {total.toLocaleString('en-KE')} handed to the gateway ({delivered.toLocaleString('en-KE')} delivered,{' '}
                {failed.toLocaleString('en-KE')} failed, {queued.toLocaleString('en-KE')} waiting)
              </Text>
              <Progress value={total === 0 ? 100 : (done / total) * 100} aria-label={`${tip.bet_category} sent`} mt={4} />
            </div>
          );
        })}
        <Text size="sm">
          <Link to={paths.tips.viewSmsTips}>View SMS tips</Link>
        </Text>
      </Stack>
    </Alert>
  );
}
