import type { ReactNode } from 'react';
import { Text, TextInput } from '@mantine/core';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { ApprovalCodeForm } from '@betdesk/contract';
import { FormModal } from '@/components/form-modal/index.ts';

/**
 * An act of the two-person rule (a refund, admin rights) approved with the approver's own
 * authenticator code, even inside their session. What is being approved is said above the code;
 * the server's refusals show here (403 in the dialog, 422 under the code).
 */
export function ApproveWithCodeModal({
  opened,
  onClose,
  title,
  summary,
  approve,
  changes,
  submitLabel,
  testId,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** What the approver agrees to, or nothing while the dialog closes. */
  summary: ReactNode;
  approve: (code: string) => Promise<unknown>;
  /** The lists the approval changes (refetched once it succeeds). */
  changes: QueryKey;
  submitLabel: string;
  /** The dialog's test id; its code field's is the same with `-code` in place of `-modal`. */
  testId: `${string}-modal`;
}) {
  const queryClient = useQueryClient();
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={title}
      schema={ApprovalCodeForm}
      defaultValues={{ code: '' }}
      submit={(values) => approve(values.code)}
      onSaved={() => void queryClient.invalidateQueries({ queryKey: changes })}
      submitLabel={submitLabel}
      data-testid={testId}
    >
      {({ form, errorOf }) => (
        <>
          {summary && <Text size="sm">{summary}</Text>}
          <TextInput
            label="6-digit code from your authenticator app"
            required
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={8}
            error={errorOf('code')}
            {...form.register('code')}
            data-testid={testId.replace(/-modal$/, '-code')}
          />
        </>
      )}
    </FormModal>
  );
}
