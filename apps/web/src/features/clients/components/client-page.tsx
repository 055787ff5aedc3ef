import { useState, type ReactNode } from 'react';
import { Anchor, Avatar, Badge, Box, Button, Card, Group, PasswordInput, SimpleGrid, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { BonusPaymentForm, ClientMessage, localPhone, smsPages, type Bet, type Client, type CustomerLanguage } from '@betdesk/contract';
import { LoadState } from '@/components/load-state.tsx';
import { FormModal, MoneyField } from '@/components/form-modal/index.ts';
import { EnterProfitModal } from '@/components/enter-profit-modal.tsx';
import { NewBetModal } from '@/components/new-bet-modal.tsx';
import { PersonMessages } from '@/components/person-messages/person-messages.tsx';
import { SmsComposer } from '@/components/sms-composer/sms-composer.tsx';
import { SmsOptOut } from '@/components/sms-opt-out/sms-opt-out.tsx';
import { TaxIdentityCard } from '@/components/tax-identity/tax-identity-card.tsx';
import { RequestPaymentButton } from '@/components/request-payment/index.ts';
import { HistoryLink } from '@/components/history-link.tsx';
import { LanguageChoice } from '@/components/language-choice.tsx';
import { useSession } from '@/lib/auth.ts';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format.ts';
import { useClient } from '../api/get-client.ts';
import { useClientOpenBets } from '../api/get-client-open-bets.ts';
import { useRecordBonusPayment } from '../api/record-bonus-payment.ts';
import { useSendMessage } from '../api/send-message.ts';
import { useSetClientLanguage } from '../api/set-client-language.ts';
import { ClientFormModal } from './client-form-modal.tsx';

type Dialog = 'message' | 'bet' | 'edit' | 'bonus-payment' | null;

/** /clients/{client_id}: profile, counts as links, platform passwords, money figures and actions. */
export function ClientPage() {
  const clientId = Number(useParams().client_id);
  const shown = useClient(clientId);
  const { isAdmin } = useSession();
  const [dialog, setDialog] = useState<Dialog>(null);
  if (!shown.data) {
    return <LoadState failed={shown.isError} what="client" />;
  }
  const { client, passwords } = shown.data;
  const base = `/clients/${client.id}`;
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Group>
          <Avatar src={client.photo} size="lg" radius="xl" color="teal">
            {client.name.slice(0, 1)}
          </Avatar>
          <div>
            <Title order={1} size="h2" data-testid="client-name-title">
              {client.name}
            </Title>
            <Text c="dimmed" size="sm">
              Client since {formatDate(client.joined_on)}
            </Text>
          </div>
        </Group>
        <Group>
          <Button onClick={() => setDialog('message')} data-testid="send-message">
            Send Message
          </Button>
          <RequestPaymentButton payer={{ clientId }} />
          {client.status === 1 && (
            <Button variant="light" onClick={() => setDialog('bet')}>
              New Bet
            </Button>
          )}
          {isAdmin && client.pending_bonus > 0 && (
            <Button variant="light" color="green" onClick={() => setDialog('bonus-payment')} data-testid="record-bonus-payment">
              Record bonus payment
            </Button>
          )}
          {isAdmin && (
            <Button variant="default" onClick={() => setDialog('edit')} data-testid="edit-client">
              Edit client
            </Button>
          )}
          <HistoryLink entity="client" entityId={clientId} />
        </Group>
      </Group>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            Profile
          </Title>
          <Table variant="vertical" withRowBorders={false}>
            <Table.Tbody>
              <Row label="Phone">{localPhone(client.phone)}</Row>
              <Row label="Email">{client.email ?? '—'}</Row>
              <Row label="Last login">{formatDateTime(client.last_login) || 'Never'}</Row>
              <Row label="Subscription status">
                <Badge color={client.status === 1 ? 'green' : 'red'} data-testid="client-status">
                  {client.status === 1 ? 'Active' : 'Inactive'}
                </Badge>
              </Row>
              <Row label="Maximum stake">{client.maximum_stake === null ? 'No limit' : formatMoney(client.maximum_stake)}</Row>
              <Row label="Unpaid bonus">
                <Text span c={client.pending_bonus > 0 ? 'red' : undefined} fw={600} data-testid="client-pending-bonus">
                  {formatMoney(client.pending_bonus)}
                </Text>
              </Row>
              <Row label="Paid bonus">{formatMoney(client.paid_bonus)}</Row>
              <Row label="Account balance">{formatMoney(client.account_balance)}</Row>
            </Table.Tbody>
          </Table>
          <ClientLanguage clientId={client.id} language={client.language} />
        </Card>
        <Stack>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              Activity
            </Title>
            <Group gap="xl">
              <Count to={`${base}/subscriptions`} label="Subscriptions" value={client.total_subscriptions} />
              <Count to={`${base}/bets`} label="Bets" value={client.total_bets} />
              <Count to={`${base}/bonuses`} label="Bonuses" value={client.total_bonuses} />
              <Count to={`${base}/paid-bonuses`} label="Bonus payments" value={formatMoney(client.paid_bonus)} />
            </Group>
          </Card>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              Bet passwords
            </Title>
            {passwords.length === 0 ? (
              <Text c="dimmed" size="sm">
                No betting platform passwords on file.
              </Text>
            ) : (
              <Stack gap="xs">
                {passwords.map((p) => (
                  <Group key={p.id} grow>
                    <Text fw={500}>{p.platform}</Text>
                    <PasswordInput value={p.password} readOnly aria-label={`${p.platform} password`} />
                  </Group>
                ))}
              </Stack>
            )}
          </Card>
        </Stack>
      </SimpleGrid>
      <ClientOpenBets clientId={client.id} />
      <TaxIdentityCard buyer={{ clientId: client.id }} />
      <SmsOptOut person={{ clientId: client.id }} />
      <PersonMessages person={{ clientId: client.id }} />

      <SendMessageModal client={client} opened={dialog === 'message'} onClose={() => setDialog(null)} />
      <NewBetModal client={dialog === 'bet' ? { id: client.id, name: client.name } : null} onClose={() => setDialog(null)} />
      <BonusPaymentModal client={client} opened={dialog === 'bonus-payment'} onClose={() => setDialog(null)} />
      <ClientFormModal opened={dialog === 'edit'} onClose={() => setDialog(null)} client={shown.data} />
    </Stack>
  );
}

/** The client's open bets, each with Enter Profit: staff close a client's bets from their page. */
function ClientOpenBets({ clientId }: { clientId: number }) {
  const open = useClientOpenBets(clientId);
  const [closing, setClosing] = useState<Bet | null>(null);
  const bets = open.data?.list ?? [];
  return (
    <Card withBorder data-testid="client-open-bets">
      <Title order={2} size="h4" mb="sm">
        Open bets
      </Title>
      {open.isError ? (
        <Text c="red" size="sm">The open bets could not be loaded.</Text>
      ) : bets.length === 0 ? (
        <Text c="dimmed" size="sm">{open.isLoading ? 'Loading…' : 'No open bets.'}</Text>
      ) : (
        <Stack gap="xs">
          {bets.map((b) => (
            <Group key={b.bet_id} justify="space-between" wrap="nowrap" data-testid="client-open-bet">
              <div>
                <Text size="sm" fw={500}>
                  {b.description}
                </Text>
                <Text size="xs" c="dimmed">
                  Stake {formatMoney(b.stake)}, opened {formatDateTime(b.opened_on)}
                </Text>
              </div>
              <Button size="xs" onClick={() => setClosing(b)} data-testid="enter-profit">
                Enter Profit
              </Button>
            </Group>
          ))}
          {(open.data?.total_records ?? 0) > bets.length && (
            <Anchor component={Link} to={`/clients/${clientId}/bets`} size="sm">
              All {open.data?.total_records} open bets
            </Anchor>
          )}
        </Stack>
      )}
      <EnterProfitModal bet={closing} onClose={() => setClosing(null)} />
    </Card>
  );
}

/** The language the client reads their SMS in (receipts, reminders), as they asked staff to set it. */
function ClientLanguage({ clientId, language }: { clientId: number; language: CustomerLanguage }) {
  const save = useSetClientLanguage(clientId);
  return (
    <Box mt="sm" maw={320}>
      <LanguageChoice language={language} save={save} data-testid="client-language" />
    </Box>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={180}>{label}</Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

function Count({ to, label, value }: { to: string; label: string; value: ReactNode }) {
  return (
    <Anchor component={Link} to={to} underline="never">
      <Text fz={22} fw={700}>
        {value}
      </Text>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Anchor>
  );
}

function SendMessageModal({ client, opened, onClose }: { client: Client; opened: boolean; onClose: () => void }) {
  const send = useSendMessage();
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Send Message"
      schema={ClientMessage}
      defaultValues={{ id: client.id, name: client.name, phone: client.phone, message: '' }}
      submit={send.mutateAsync}
      submitLabel="Send"
      data-testid="send-message-modal"
    >
      {({ form, errorOf }) => {
        const message = form.watch('message') ?? '';
        return (
          <>
            <TextInput label="To" readOnly value={`${client.name} (${localPhone(client.phone)})`} />
            <Textarea label="Message" required autosize minRows={4} error={errorOf('message')} {...form.register('message')} data-testid="message-text" />
            <Text size="xs" c="dimmed">
              SMS pages: {smsPages(message)} | Characters: {message.length}
            </Text>
            <SmsComposer text={message} onReplaceLookalikes={(fixed) => form.setValue('message', fixed, { shouldDirty: true })} />
          </>
        );
      }}
    </FormModal>
  );
}

function BonusPaymentModal({ client, opened, onClose }: { client: Client; opened: boolean; onClose: () => void }) {
  const pay = useRecordBonusPayment();
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Record bonus payment"
      schema={BonusPaymentForm}
      defaultValues={{ client_id: client.id, amount: client.pending_bonus, description: '' }}
      submit={pay.mutateAsync}
      submitLabel="Record payment"
      data-testid="bonus-payment-modal"
    >
      {({ form, errorOf }) => (
        <>
          <Text size="sm">
            Unpaid bonus of {client.name}: <b>{formatMoney(client.pending_bonus)}</b>. The payment settles the oldest bonuses first.
          </Text>
          <MoneyField form={form} errorOf={errorOf} name="amount" label="Amount (KES)" required min={0} data-testid="bonus-payment-amount" />
          <TextInput label="Description" placeholder="e.g. Cash at the office" required error={errorOf('description')} {...form.register('description')} data-testid="bonus-payment-description" />
        </>
      )}
    </FormModal>
  );
}
