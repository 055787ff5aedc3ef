import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { confirmTexts } from '@betdesk/contract';
import { withModals } from '@/lib/feedback.tsx';

export interface ConfirmTrashOptions {
  /** Defaults to the spec's 'Are you sure you want to do this!'. */
  message?: string;
  confirmLabel?: string;
  title?: string;
  /** Shown under the question: what the action will change. */
  details?: React.ReactNode;
}

/** Asks before trashing something; resolves true only when the user confirms. */
export function confirmTrash({
  message = confirmTexts.trash,
  confirmLabel = 'Yes',
  title,
  details,
}: ConfirmTrashOptions = {}): Promise<boolean> {
  return new Promise((resolve) => {
    withModals(() => modals.openConfirmModal({
      title,
      centered: true,
      children: (
        <>
          <Text size="sm">{message}</Text>
          {details}
        </>
      ),
      labels: { confirm: confirmLabel, cancel: 'Cancel' },
      confirmProps: { color: 'red', 'data-testid': 'confirm-trash' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    }));
  });
}
