import { useState } from 'react';
import { Button, Card, NumberInput, Stack, Switch, Text, Textarea, Title } from '@mantine/core';
import type { Setting } from '@betdesk/contract';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { FormModal, numberFieldProps } from '@/components/form-modal/index.ts';
import { SmsComposer } from '@/components/sms-composer/sms-composer.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { useSettings } from '../api/get-settings.ts';
import { updateSettingInputSchema, useUpdateSetting } from '../api/update-setting.ts';
import { useFeedState } from '../api/get-feed-state.ts';
import { useSyncFixtures } from '../api/sync-feed-fixtures.ts';

/** 'bonus_rate_percent' -> 'Bonus rate percent'. */
function labelOf(key: string): string {
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A page of text (the portal's terms, privacy notice) shows its start in the table; Edit shows it all. */
const SHOWN_MAX = 280;

function shownValue(value: Setting['value'], reason: string | null = null): string {
  if (typeof value === 'boolean') return value ? 'On' : reason ? `Off: ${reason}` : 'Off';
  if (value === '') return '(empty: not shown)';
  const text = String(value);
  return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX).trimEnd()}…` : text;
}

const columns = (edit: (setting: Setting) => void): DataTableColumn<Setting>[] => [
  {
    key: 'key',
    header: 'Setting',
    width: 260,
    render: (s) => (
      <Stack gap={2}>
        <Text fw={600} size="sm">
          {labelOf(s.key)}
        </Text>
        <Text size="xs" c="dimmed">
          {s.description}
        </Text>
      </Stack>
    ),
  },
  {
    key: 'value',
    header: 'Value',
    width: 320,
    render: (s) => (
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid={`setting-value-${s.key}`}>
        {shownValue(s.value, s.reason)}
      </Text>
    ),
  },
  {
    key: 'updated_at',
    header: 'Last change',
    width: 180,
    render: (s) => (
      <Text size="sm">
        {s.updated_by_name ? `${formatDateTime(s.updated_at)} by ${s.updated_by_name}` : 'Default'}
      </Text>
    ),
  },
  {
    key: 'edit',
    header: '',
    width: 90,
    align: 'right',
    render: (s) => (
      <Button size="compact-sm" variant="light" onClick={() => edit(s)} data-testid={`edit-setting-${s.key}`}>
        Edit
      </Button>
    ),
  },
];

/** The subscriber portal's settings (business name, support phone ...) are a group of their own. */
const isPortalSetting = (s: Setting) => s.key.startsWith('portal_');

/** The sports-data feed (decision 070): its provider, the quota its last answer reported, a sync on demand. */
function FeedCard() {
  const state = useFeedState();
  const sync = useSyncFixtures();
  const s = state.data;
  if (!s) return null;
  return (
    <Card withBorder data-testid="feed-state">
      <Title order={2} size="h4">Sports-data feed</Title>
      {s.provider === null ? (
        <Text size="sm" c="dimmed">
          No feed is configured (SPORTS_FEED_PROVIDER): ticket legs are typed and marked not verified.
        </Text>
      ) : (
        <Stack gap={4} mt="xs">
          <Text size="sm">
            {s.provider} · {s.fixtures} fixtures kept · last sync {s.last_sync_at ? formatDateTime(s.last_sync_at) : 'never'}
          </Text>
          <Text size="sm" data-testid="feed-quota">
            Requests left: {s.requests_remaining_day ?? '–'} today, {s.requests_remaining_minute ?? '–'} this minute
            {s.backing_off_until && ` · waiting after too many requests until ${formatDateTime(s.backing_off_until)}`}
          </Text>
          <div>
            <Button size="xs" variant="light" onClick={() => void sync.mutateAsync().catch(() => {})} loading={sync.isPending}>
              Sync fixtures now
            </Button>
          </div>
        </Stack>
      )}
    </Card>
  );
}

/** /settings (admin): the business constants of BUSINESS-RULES.md, each edited in a modal. */
export function SettingsPage() {
  const settings = useSettings();
  const update = useUpdateSetting();
  const [editing, setEditing] = useState<Setting | null>(null);
  const all = settings.data?.settings ?? [];
  return (
    <Stack>
      <Title order={1} size="h2">Settings</Title>
      <Card withBorder>
        <DataTable
          columns={columns(setEditing)}
          rows={all.filter((s) => !isPortalSetting(s))}
          rowKey={(s) => s.key}
          loading={settings.isFetching}
          emptyText={settings.isError ? 'The settings could not be loaded.' : 'No settings.'}
          label="Settings"
          data-testid="settings-table"
        />
      </Card>
      <FeedCard />
      <Title order={2} size="h3">Portal</Title>
      <Text size="sm" c="dimmed">
        The subscriber portal at /portal. Which post categories are free tips is set on the Catalogue screen.
      </Text>
      <Card withBorder>
        <DataTable
          columns={columns(setEditing)}
          rows={all.filter(isPortalSetting)}
          rowKey={(s) => s.key}
          loading={settings.isFetching}
          emptyText={settings.isError ? 'The settings could not be loaded.' : 'No settings.'}
          label="Portal settings"
          data-testid="portal-settings-table"
        />
      </Card>
      <FormModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? labelOf(editing.key) : 'Edit setting'}
        schema={updateSettingInputSchema}
        defaultValues={{ key: editing?.key ?? '', value: editing?.value ?? '', reason: editing?.reason ?? '' }}
        submit={update.mutateAsync}
        data-testid="setting-modal"
      >
        {({ form, errorOf }) => {
          const kind = typeof editing?.value;
          if (kind === 'boolean') {
            const off = form.watch('value') === false;
            return (
              <>
                <Switch
                  label={editing?.description}
                  checked={!off}
                  onChange={(event) => form.setValue('value', event.currentTarget.checked)}
                  error={errorOf('value')}
                  data-testid="setting-input"
                />
                {editing?.safeguard && off && (
                  <Textarea
                    label="Why is this safeguard off?"
                    description="At least 10 characters. Kept with the setting and in the audit log."
                    required
                    autosize
                    minRows={2}
                    error={errorOf('reason')}
                    {...form.register('reason')}
                    data-testid="setting-reason"
                  />
                )}
              </>
            );
          }
          if (kind === 'number') {
            return (
              <NumberInput
                label="Value"
                description={editing?.description}
                required
                allowDecimal={false}
                error={errorOf('value')}
                {...numberFieldProps(form, 'value')}
                data-testid="setting-input"
              />
            );
          }
          const value = form.watch('value');
          return (
            <>
              <Textarea
                label="Value"
                description={editing?.description}
                required
                autosize
                minRows={3}
                error={errorOf('value')}
                {...form.register('value')}
                data-testid="setting-input"
              />
              {editing?.sms && (
                <SmsComposer
                  text={typeof value === 'string' ? value : ''}
                  appendedText={editing.appended}
                  onReplaceLookalikes={(fixed) => form.setValue('value', fixed, { shouldDirty: true })}
                />
              )}
            </>
          );
        }}
      </FormModal>
    </Stack>
  );
}
