import type { ReactNode } from 'react';
import { Alert, Stack } from '@mantine/core';

/** Why the last save failed (the server's info), above the fields; nothing while there is none. */
export function FormErrorBanner({ message, 'data-testid': testId = 'form-error' }: { message: string | null; 'data-testid'?: string }) {
  if (!message) return null;
  return (
    <Alert color="red" role="alert" data-testid={testId}>
      {message}
    </Alert>
  );
}

/**
 * A form of its own screen (not a modal): the browser's validation is off, as the server's field
 * errors show under the inputs, and the error banner stands above them.
 */
export function PageForm({ onSubmit, error, children }: { onSubmit: () => Promise<void>; error: string | null; children: ReactNode }) {
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      <Stack>
        <FormErrorBanner message={error} />
        {children}
      </Stack>
    </form>
  );
}
