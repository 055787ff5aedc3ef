import type { ReactNode } from 'react';
import { Button, type ButtonProps } from '@mantine/core';

interface RowMutation<Variables> {
  isPending: boolean;
  variables: Variables | undefined;
  mutate: (variables: Variables) => void;
}

type RowMutationButtonProps<Variables> = Omit<ButtonProps, 'loading'> & {
  /** The mutation the button runs, shared by every row of the list. */
  mutation: RowMutation<Variables>;
  /** What it runs with for this row (the row's id). */
  of: Variables;
  children: ReactNode;
  'data-testid'?: string;
};

/** A row's button that runs the list's mutation for that row, spinning only while that row's call is in flight. */
export function RowMutationButton<Variables>({ mutation, of, ...button }: RowMutationButtonProps<Variables>) {
  return <Button {...button} loading={mutation.isPending && mutation.variables === of} onClick={() => mutation.mutate(of)} />;
}
