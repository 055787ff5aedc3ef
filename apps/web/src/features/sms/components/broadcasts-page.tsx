import { useState } from 'react';
import { Alert, Button, Card, Group, List, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  BROADCAST_SEGMENT_LABELS,
  getCatalogue,
  type Broadcast,
  type BroadcastAudience,
  type BroadcastSegment,
} from '@betdesk/contract';
import { DataTable, useTableState, type DataTableColumn } from '@/components/data-table/index.ts';
import { SmsComposer } from '@/components/sms-composer/sms-composer.tsx';
import { formatDateTime, formatDuration, formatMoney } from '@/lib/format.ts';
import { callEndpoint, isHttpError } from '@/lib/http.ts';
import { useBroadcasts } from '../api/get-broadcasts.ts';
import { useOptOutText } from '../api/get-opt-out-text.ts';
import { usePreviewBroadcast } from '../api/preview-broadcast.ts';
import { useSendBroadcast } from '../api/send-broadcast.ts';
import { queryKeys } from '@/lib/query-keys.ts';

const segmentOptions = Object.entries(BROADCAST_SEGMENT_LABELS).map(([value, label]) => ({ value, label }));

const columns: DataTableColumn<Broadcast>[] = [
  { key: 'created_on', header: 'Sent On', render: (b) => formatDateTime(b.created_on), width: 150, fit: true },
  {
    key: 'segment',
    header: 'To',
    width: 220,
    render: (b) =>
      `${BROADCAST_SEGMENT_LABELS[b.segment as BroadcastSegment] ?? b.segment}${b.bet_category ? `: ${b.bet_category}` : ''}${
        b.lapsed_days ? ` (${formatDuration(b.lapsed_days)})` : ''
      }`,
  },
  {
    key: 'message',
    header: 'Message',
    render: (b) => (
      <Text size="sm" lineClamp={2} title={b.message}>
        {b.message}
      </Text>
    ),
  },
  { key: 'approval_reference', header: 'Approval Ref.', width: 140, render: (b) => b.approval_reference ?? '' },
  { key: 'recipients', header: 'Recipients', align: 'right', width: 90, fit: true },
  { key: 'queued', header: 'Queued', align: 'right', width: 70, fit: true, render: (b) => b.counts.queued },
  { key: 'held', header: 'Held', align: 'right', width: 70, fit: true, render: (b) => b.counts.held },
  { key: 'sent', header: 'Sent', align: 'right', width: 70, fit: true, render: (b) => b.counts.sent },
  { key: 'delivered', header: 'Delivered', align: 'right', width: 80, fit: true, render: (b) => b.counts.delivered },
  { key: 'failed', header: 'Failed', align: 'right', width: 70, fit: true, render: (b) => b.counts.failed },
];

const emptyForm = { segment: '', bet_category_id: '', lapsed_days: '' as number | string, message: '', language: 'en' as 'en' | 'sw', approval_reference: '' };

const languageOptions = [
  { value: 'en', label: 'English' },
  { value: 'sw', label: 'Kiswahili' },
];

/**
 * /sms/broadcasts (admins): one promotional text to a segment. Preview first (recipients after
 * opt-outs, parts, cost, whether the window holds it); Send queues it once per form: the key sent with
 * it makes a double click or a retry a no-op. A broadcast costing more than the setting
 * `broadcast_cost_confirm_kes` asks first, with the figure, and sends the confirmed cost. The
 * responsible-gambling lines of its language are added at the end and counted (decision 061); the
 * preview names the banned claims a text holds, and Send is refused by the server (the refusal is
 * kept for Reports → Promotions blocked), the words shown under the message.
 */
export function BroadcastsPage() {
  const table = useTableState();
  const list = useBroadcasts(table.page, table.perPage);
  const catalogue = useQuery({ queryKey: queryKeys.catalogue.all, queryFn: () => callEndpoint(getCatalogue) });
  const preview = usePreviewBroadcast();
  const send = useSendBroadcast();
  const [form, setForm] = useState(emptyForm);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [notice, setNotice] = useState<string | null>(null);
  const optOutText = useOptOutText();
  // The recipients of the last preview stay known while the audience does: the composer's cost follows the text.
  const [counted, setCounted] = useState<{ audience: string; recipients: number } | null>(null);
  const [confirming, setConfirming] = useState(false);
  // The lines the server adds in a language (the preview says them): the composer counts them as the text changes.
  const [appended, setAppended] = useState<Partial<Record<'en' | 'sw', string>>>({});
  const audienceKey = `${form.segment}|${form.bet_category_id}|${form.lapsed_days}`;

  const change = (patch: Partial<typeof emptyForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setKey(crypto.randomUUID());
    preview.reset();
    send.reset();
    setConfirming(false);
    setNotice(null);
  };
  const audience = (): BroadcastAudience => ({
    segment: form.segment as BroadcastSegment,
    message: form.message,
    language: form.language,
    ...(form.bet_category_id ? { bet_category_id: Number(form.bet_category_id) } : {}),
    ...(form.lapsed_days !== '' ? { lapsed_days: Number(form.lapsed_days) } : {}),
  });
  /** Sends once per form; over the cost limit with the figure the sender confirmed (the server checks it again). */
  const sendNow = (confirmedCost?: number) =>
    send.mutate(
      {
        ...audience(),
        idempotency_key: key,
        ...(form.approval_reference.trim() ? { approval_reference: form.approval_reference.trim() } : {}),
        ...(confirmedCost !== undefined ? { confirmed_cost: confirmedCost } : {}),
      },
      {
        onSuccess: (result) => {
          setNotice(`${result.info}: ${result.broadcast.recipients} recipients`);
          setForm(emptyForm);
          setKey(crypto.randomUUID());
          setConfirming(false);
          preview.reset();
        },
        // The segment grew past the confirmed figure: preview again to see the new one.
        onError: () => setConfirming(false),
      },
    );
  const failure = preview.error ?? send.error;
  const errorOf = (field: string) => (isHttpError(failure) ? failure.errors?.[field]?.[0] : undefined);
  const needsCategory = form.segment.startsWith('category');

  return (
    <Stack>
      <Title order={1} size="h2">Broadcasts</Title>
      <Card withBorder>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select
              label="Send to"
              data={segmentOptions}
              value={form.segment || null}
              onChange={(v) => change({ segment: v ?? '' })}
              error={errorOf('segment')}
              data-testid="broadcast-segment"
            />
            {needsCategory && (
              <Select
                label="Bet category"
                data={(catalogue.data?.bet_categories ?? []).map((c) => ({ value: String(c.id), label: `${c.name} (${c.code})` }))}
                value={form.bet_category_id || null}
                onChange={(v) => change({ bet_category_id: v ?? '' })}
                error={errorOf('bet_category_id')}
              />
            )}
            {form.segment === 'category-lapsed' && (
              <NumberInput
                label="Lapsed within (days)"
                min={1}
                value={form.lapsed_days}
                onChange={(v) => change({ lapsed_days: v })}
                error={errorOf('lapsed_days')}
              />
            )}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select
              label="Language"
              description="The responsible-gambling lines are added in it"
              data={languageOptions}
              value={form.language}
              allowDeselect={false}
              onChange={(v) => change({ language: v === 'sw' ? 'sw' : 'en' })}
              error={errorOf('language')}
              data-testid="broadcast-language"
            />
            <TextInput
              label="Advert approval reference"
              description="The regulator's approval of this campaign, kept with the broadcast"
              value={form.approval_reference}
              onChange={(e) => change({ approval_reference: e.currentTarget.value })}
              error={errorOf('approval_reference')}
              maxLength={100}
              data-testid="broadcast-approval-reference"
            />
          </SimpleGrid>
          <Textarea
            label="Message"
            autosize
            minRows={3}
            value={form.message}
            onChange={(e) => change({ message: e.currentTarget.value })}
            error={errorOf('message')}
            description="The responsible-gambling lines and the opt-out text are added at the end. Promotional messages go only inside the promotional window."
          />
          <SmsComposer
            text={form.message}
            onReplaceLookalikes={(message) => change({ message })}
            optOutText={optOutText.data}
            appendedText={appended[form.language] || undefined}
            recipients={counted?.audience === audienceKey ? counted.recipients : null}
            recipientsHint="Preview to count the recipients and the cost."
          />
          {isHttpError(failure) && !failure.errors && <Alert color="red">{failure.info}</Alert>}
          {preview.data && preview.data.blocked.length > 0 && (
            <Alert color="red" title="This text cannot be sent" data-testid="broadcast-blocked">
              <Text size="sm">It makes a claim gambling promotion may not make. Reword it:</Text>
              <List size="sm">
                {preview.data.blocked.map((b) => (
                  <List.Item key={b.word}>
                    <Text span fw={600}>
                      “{b.word}”
                    </Text>
                    : {b.rule}
                  </List.Item>
                ))}
              </List>
            </Alert>
          )}
          {preview.data && (
            <Alert color="blue" data-testid="broadcast-preview">
              <Text size="sm">
                {preview.data.recipients} recipient{preview.data.recipients === 1 ? '' : 's'}; left out:{' '}
                {preview.data.no_consent} without marketing consent, {preview.data.opted_out} opted out,{' '}
                {preview.data.self_excluded} self-excluded.{' '}
                {preview.data.parts} SMS part{preview.data.parts === 1 ? '' : 's'} each: about{' '}
                {preview.data.estimated_parts} parts, {formatMoney(preview.data.estimated_cost)}.
              </Text>
              <Text size="sm">
                {preview.data.held_until
                  ? `Held until the promotional window opens: ${formatDateTime(preview.data.held_until)}.`
                  : 'Goes now.'}
              </Text>
              <Text size="xs" c="dimmed" mt={4}>
                {preview.data.message}
              </Text>
            </Alert>
          )}
          {confirming && preview.data && (
            <Alert color="orange" title="Confirm the cost" data-testid="broadcast-confirm">
              <Text size="sm">
                This broadcast costs about {formatMoney(preview.data.estimated_cost)} ({preview.data.recipients} recipients ×{' '}
                {preview.data.parts} SMS part{preview.data.parts === 1 ? '' : 's'}), more than the{' '}
                {formatMoney(preview.data.cost_limit)} above which a broadcast is confirmed.
              </Text>
              <Group mt="xs">
                <Button color="orange" loading={send.isPending} onClick={() => sendNow(preview.data!.estimated_cost)}>
                  Confirm {formatMoney(preview.data.estimated_cost)} and send
                </Button>
                <Button variant="default" onClick={() => setConfirming(false)}>
                  Cancel
                </Button>
              </Group>
            </Alert>
          )}
          {notice && <Alert color="green">{notice}</Alert>}
          <Group>
            <Button
              variant="light"
              loading={preview.isPending}
              onClick={() =>
                preview.mutate(audience(), {
                  onSuccess: (p) => {
                    setCounted({ audience: audienceKey, recipients: p.recipients });
                    setAppended((a) => ({ ...a, [form.language]: p.appended }));
                  },
                })
              }
            >
              Preview
            </Button>
            <Button
              disabled={!preview.data || preview.data.recipients === 0 || confirming}
              loading={send.isPending && !confirming}
              onClick={() => (preview.data?.needs_confirmation ? setConfirming(true) : sendNow())}
            >
              Send
            </Button>
          </Group>
        </Stack>
      </Card>
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={list.data?.broadcasts ?? []}
          rowKey={(b) => b.id}
          loading={list.isFetching}
          emptyText="No broadcasts yet."
          paging={table.paging(list.data?.total_records ?? 0)}
          data-testid="broadcasts-table"
        />
      </Card>
    </Stack>
  );
}
