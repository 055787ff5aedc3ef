import { Alert, Badge, Button, Card, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { BackupFile } from '@betdesk/contract';
import { DataTable, type DataTableColumn } from '@/components/data-table/index.ts';
import { formatDateTime } from '@/lib/format.ts';
import { downloadBackupFile, useBackups, useCreateBackup } from '../api/backups.ts';

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const columns: DataTableColumn<BackupFile>[] = [
  { key: 'created_at', header: 'Made', width: 170, card: 'title', render: (b) => formatDateTime(b.created_at) },
  { key: 'size_bytes', header: 'Size', width: 100, align: 'right', render: (b) => size(b.size_bytes) },
  {
    key: 'file_sha256',
    header: 'SHA-256',
    render: (b) => (
      <Tooltip label={b.file_sha256}>
        <Text size="sm" ff="monospace" data-testid={`backup-sha-${b.name}`}>
          {b.file_sha256.slice(0, 16)}…
        </Text>
      </Tooltip>
    ),
  },
  {
    key: 'verified',
    header: 'Verified',
    width: 150,
    render: (b) => (
      <Group gap={4}>
        <Badge color={b.verified ? 'teal' : 'red'} variant="light" data-testid={`backup-verified-${b.name}`}>
          {b.verified ? 'Verified' : 'Not verified'}
        </Badge>
        {b.encrypted && <Badge variant="outline">Encrypted</Badge>}
      </Group>
    ),
  },
  {
    key: 'download',
    header: '',
    width: 120,
    align: 'right',
    render: (b) => (
      <Button size="compact-sm" variant="light" onClick={() => void downloadBackupFile(b.name).catch(() => {})} data-testid={`download-backup-${b.name}`}>
        Download
      </Button>
    ),
  },
];

/** /backups (admin): the backups in BACKUP_DIR, "Back up now" and downloads (decision 023). */
export function BackupsPage() {
  const backups = useBackups();
  const create = useCreateBackup();
  const data = backups.data;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">Backups</Title>
        <Button onClick={() => create.mutate()} loading={create.isPending} data-testid="backup-now">
          Back up now
        </Button>
      </Group>
      {data?.health.alert && (
        <Alert color="red" title="Backups need attention" data-testid="backup-alert">
          {data.health.alert}
        </Alert>
      )}
      {data && (
        <Text size="sm" c="dimmed" data-testid="backup-schedule">
          Scheduled daily at {data.schedule}; 7 daily and 4 weekly backups are kept{data.encrypted ? ', encrypted with BACKUP_KEY' : ''}.
          {data.health.last_ok_at ? ` Last good backup: ${formatDateTime(data.health.last_ok_at)}.` : ''}
        </Text>
      )}
      <Card withBorder>
        <DataTable
          columns={columns}
          rows={data?.backups ?? []}
          rowKey={(b) => b.name}
          loading={backups.isFetching}
          emptyText={backups.isError ? 'The backups could not be loaded.' : 'No backups yet.'}
          data-testid="backups-table"
        />
      </Card>
    </Stack>
  );
}
