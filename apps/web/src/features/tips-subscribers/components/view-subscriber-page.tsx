import { useState } from 'react';
import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { localPhone, type CustomerLanguage, type SubscriberSubscription } from '@betdesk/contract';
import { DataTable, StatusBadge, WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';
import { PersonMessages } from '@/components/person-messages/person-messages.tsx';
import { SmsOptOut } from '@/components/sms-opt-out/sms-opt-out.tsx';
import { LanguageChoice } from '@/components/language-choice.tsx';
import { LoadState } from '@/components/load-state.tsx';
import { RequestPaymentButton } from '@/components/request-payment/index.ts';
import { TaxInvoiceLink } from '@/components/tax-invoice-link.tsx';
import { TaxIdentityCard } from '@/components/tax-identity/tax-identity-card.tsx';
import { formatDate, formatDateTime, formatDuration, formatMoney } from '@/lib/format.ts';
import { useSubscriber } from '../api/get-subscriber.ts';
import { useSetLanguage } from '../api/set-language.ts';
import { AutoRenewalsCard } from './auto-renewals-card.tsx';
import { SendSmsModal } from './send-sms-modal.tsx';

const columns: DataTableColumn<SubscriberSubscription>[] = [
  { key: 'done_on', header: 'Done On', render: (s) => formatDateTime(s.done_on), width: WIDTH.dateTime, fit: true },
  { key: 'duration', header: 'Duration', render: (s) => formatDuration(s.duration), width: WIDTH.duration, fit: true },
  { key: 'expiry_date', header: 'Expiry Date', render: (s) => formatDateTime(s.expiry_date), width: WIDTH.dateTime, fit: true },
  { key: 'bets', header: 'Bets', card: 'title' },
  { key: 'status', header: 'Status', render: (s) => <StatusBadge status={s.status_name} />, width: WIDTH.status, fit: true },
  { key: 'invoice', header: 'Tax invoice', render: (s) => <TaxInvoiceLink invoice={s.invoice} testId={`subscription-invoice-${s.id}`} />, width: WIDTH.ref, fit: true },
];

function Fact({ label, value }: { label: string; value: string | number }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Stack>
  );
}

/** The language the person reads their SMS and USSD screens in, as they asked staff to set it. */
function SubscriberLanguage({ subscriberId, language }: { subscriberId: number; language: CustomerLanguage }) {
  const save = useSetLanguage(subscriberId);
  return <LanguageChoice language={language} save={save} data-testid="subscriber-language" />;
}

/** /tips/subscribers/view/{subscriber_id}: facts, subscriptions and the Send SMS modal. */
export function ViewSubscriberPage() {
  const subscriberId = Number(useParams().subscriber_id);
  const { data, isError } = useSubscriber(subscriberId);
  const [sending, setSending] = useState(false);
  if (!data) return <LoadState failed={isError} what="subscriber" />;
  const { subscriber } = data;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">{subscriber.name}</Title>
        <Group>
          <RequestPaymentButton payer={{ subscriberId }} />
          <Button onClick={() => setSending(true)}>Send SMS</Button>
        </Group>
      </Group>
      <Card withBorder>
        <SimpleGrid cols={{ base: 2, md: 7 }}>
          <Fact label="Name" value={subscriber.name} />
          <Fact label="Phone" value={localPhone(subscriber.phone)} />
          <Fact label="Joined on" value={formatDate(subscriber.joined_on)} />
          <Fact label="Subscriptions" value={subscriber.number_of_subscriptions} />
          <Fact label="Account balance" value={formatMoney(subscriber.account_balance)} />
          <Fact
            label="Last portal sign-in"
            value={subscriber.last_portal_sign_in ? formatDateTime(subscriber.last_portal_sign_in) : 'Never'}
          />
          <SubscriberLanguage subscriberId={subscriber.id} language={subscriber.language} />
        </SimpleGrid>
      </Card>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Subscriptions
        </Title>
        <DataTable columns={columns} rows={subscriber.subscriptions} rowKey={(s) => s.id} label="Subscriptions" data-testid="subscriber-subscriptions" />
      </Card>
      <AutoRenewalsCard subscriberId={subscriber.id} />
      <TaxIdentityCard buyer={{ subscriberId: subscriber.id }} />
      <SmsOptOut person={{ subscriberId: subscriber.id }} />
      <PersonMessages person={{ subscriberId: subscriber.id }} />
      <SendSmsModal subscriberId={subscriber.id} opened={sending} onClose={() => setSending(false)} />
    </Stack>
  );
}
