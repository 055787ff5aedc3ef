import { useState } from 'react';
import { Button, Group, Select, Text } from '@mantine/core';
import { useSmsBacklog } from '@/components/sms-gateway-alert.tsx';
import { confirmTrash } from '@/components/confirm-trash.tsx';
import { useResendByCause } from '../api/resend-by-cause.ts';

/** Admins: resend every failed message of one gateway cause (each once), after asking. */
export function ResendByCause() {
  const causes = (useSmsBacklog(true).data?.causes ?? []).filter((c) => c.failed > 0);
  const [cause, setCause] = useState<string | null>(null);
  const resend = useResendByCause();
  const chosen = causes.find((c) => c.cause === cause) ?? null;
  if (causes.length === 0) return null;

  const resendAfterConfirm = async () => {
    if (!chosen) return;
    const confirmed = await confirmTrash({
      title: `Send ${chosen.failed} failed SMS again?`,
      message: `Every message that failed with ${chosen.cause} and was not resent yet is queued again, once.`,
      confirmLabel: 'Yes, resend them',
    });
    if (!confirmed) return;
    // The server's notice ("4 failed messages queued again") is shown by the HTTP layer.
    await resend.mutateAsync(chosen.cause);
    setCause(null);
  };

  return (
    <Group gap="xs" align="end" mb="md" data-testid="sms-resend-by-cause">
      <Select
        label="Resend failed messages by cause"
        placeholder="Choose a cause"
        data={causes.map((c) => ({ value: c.cause, label: `${c.cause} (${c.failed})` }))}
        value={cause}
        onChange={setCause}
        w={260}
        data-testid="sms-cause-select"
      />
      <Button
        color="orange"
        disabled={!chosen}
        loading={resend.isPending}
        onClick={() => void resendAfterConfirm().catch(() => {})}
        data-testid="sms-resend-cause"
      >
        Resend all
      </Button>
      {chosen && (
        <Text size="xs" c="dimmed">
          {chosen.failed} message{chosen.failed === 1 ? '' : 's'}
        </Text>
      )}
    </Group>
  );
}
