import { useState, type FormEvent } from 'react';
import { Badge, Button, Card, Checkbox, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { AUDIT_ENTITIES, auditActionName, auditEntityName, PAGE_SIZES, type AuditEntry, type PageSize } from '@betdesk/contract';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { DateRangeFilter } from '@/components/data-table/date-range-filter.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { useAuditLog, type AuditFilter } from '../api/get-audit-log.ts';
import { AuditDiff } from './audit-diff.tsx';
import { EntityLink } from './entity-link.tsx';

const FILTER_KEYS = ['user_id', 'entity', 'entity_id', 'action', 'sensitive', 'from', 'to'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/** The filter, page and page size live in the URL so a view can be bookmarked and shared. */
function filterOf(params: URLSearchParams): AuditFilter & { page: number; perPage: PageSize } {
  const filter: Record<string, string | number> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filter[key] = value;
  }
  const page = Number(params.get('page') ?? 1);
  const perPage = Number(params.get('perPage') ?? 50);
  filter.page = Number.isInteger(page) && page > 0 ? page : 1;
  filter.perPage = (PAGE_SIZES as readonly number[]).includes(perPage) ? perPage : 50;
  return filter as AuditFilter & { page: number; perPage: PageSize };
}

/** A select's choices in words, sorted by them; the chosen value stays even when the trail lacks it. */
function choices(codes: readonly string[], chosen: string, name: (code: string) => string) {
  return [...new Set([...codes, ...(chosen ? [chosen] : [])])]
    .map((value) => ({ value, label: name(value) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

const columns: DataTableColumn<AuditEntry>[] = [
  { key: 'at', header: 'When', render: (e) => formatDateTime(e.at), width: 150, fit: true },
  { key: 'user_name', header: 'Who', render: (e) => e.user_name ?? <Text span c="dimmed">system</Text>, width: 140 },
  {
    key: 'action',
    header: 'Action',
    render: (e) => (
      <Badge variant="light" tt="none" title={e.action}>
        {auditActionName(e.action)}
      </Badge>
    ),
    width: 170,
  },
  { key: 'entity', header: 'Record', render: (e) => <EntityLink entity={e.entity} id={e.entity_id} />, width: 170 },
  { key: 'diff', header: 'Before → after', render: (e) => <AuditDiff before={e.before} after={e.after} />, minWidth: 280 },
];

/** /audit (admin): who changed what, when, from what to what; filtered and paged by the server. */
export function AuditPage() {
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params);
  const audit = useAuditLog(filter);
  const [draft, setDraft] = useState<Record<FilterKey, string>>(() =>
    Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) ?? ''])) as Record<FilterKey, string>,
  );
  const set = (key: FilterKey) => (value: string | null) => setDraft((d) => ({ ...d, [key]: value ?? '' }));

  const apply = (next: Record<string, string>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) if (value) search.set(key, value);
    setParams(search);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply({ ...draft, perPage: String(filter.perPage) });
  };
  const clear = () => {
    setDraft(Object.fromEntries(FILTER_KEYS.map((k) => [k, ''])) as Record<FilterKey, string>);
    apply({});
  };
  const goTo = (page: number, perPage: PageSize) =>
    apply({ ...Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) ?? ''])), page: String(page), perPage: String(perPage) });

  const data = audit.data;
  const total = data ? `${data.total_records.toLocaleString('en-KE')}${data.total_capped ? '+' : ''}` : '';
  return (
    <Stack>
      <Title order={1} size="h2">Audit log</Title>
      <Card withBorder component="form" onSubmit={submit} data-testid="audit-filters">
        <Group align="flex-end" wrap="wrap">
          <Select
            label="User"
            placeholder="Anyone"
            clearable
            searchable
            data={(data?.users ?? []).map((u) => ({ value: String(u.id), label: u.name }))}
            value={draft.user_id || null}
            onChange={set('user_id')}
            w={180}
          />
          <Select
            label="Record"
            placeholder="Any"
            clearable
            searchable
            data={choices([...AUDIT_ENTITIES, ...(data?.entities ?? [])], draft.entity, auditEntityName)}
            value={draft.entity || null}
            onChange={(v) => setDraft((d) => ({ ...d, entity: v ?? '', entity_id: v ? d.entity_id : '' }))}
            w={200}
            data-testid="audit-entity"
          />
          {draft.entity && (
            <TextInput label="Record id" value={draft.entity_id} onChange={(e) => set('entity_id')(e.currentTarget.value)} w={110} />
          )}
          <Select
            label="Action"
            placeholder="Any"
            clearable
            searchable
            data={choices(data?.actions ?? [], draft.action, auditActionName)}
            value={draft.action || null}
            onChange={set('action')}
            w={220}
            data-testid="audit-action"
          />
          <Checkbox
            label="Sensitive reads only"
            description="Password reveals, privacy exports"
            checked={draft.sensitive === '1'}
            onChange={(e) => set('sensitive')(e.currentTarget.checked ? '1' : null)}
            data-testid="audit-sensitive"
          />
          <DateRangeFilter
            from={draft.from || undefined}
            to={draft.to || undefined}
            onChange={(from, to) => setDraft((d) => ({ ...d, from: from ?? '', to: to ?? '' }))}
          />
          <Button type="submit">Apply</Button>
          <Button variant="default" onClick={clear}>
            Clear
          </Button>
        </Group>
      </Card>
      <Card withBorder>
          <Text size="sm" c="dimmed" mb="xs" data-testid="audit-total">
            {audit.isError ? 'The audit log could not be loaded.' : `${total} ${data?.total_records === 1 ? 'change' : 'changes'}`}
          </Text>
          <DataTable
            columns={columns}
            rows={data?.entries ?? []}
            rowKey={(e) => e.id}
            loading={audit.isFetching}
            estimatedRowHeight={72}
            paging={{
              page: filter.page,
              perPage: filter.perPage,
              totalRecords: data?.total_records ?? 0,
              capped: data?.total_capped ?? false,
              onPageChange: (page) => goTo(page, filter.perPage),
              onPerPageChange: (perPage) => goTo(1, perPage),
            }}
            emptyText="No change matches these filters"
            data-testid="audit-table"
          />
      </Card>
    </Stack>
  );
}
