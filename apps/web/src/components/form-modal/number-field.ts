import type { FieldPath, FieldValues, PathValue, UseFormReturn } from 'react-hook-form';

/**
 * Binds a Mantine NumberInput to a form field and keeps what was typed: a blank input stays '' (the
 * schema then says the amount is required) and an unfinished one ('-', '1.') stays text, never 0.
 */
export function numberFieldProps<T extends FieldValues, Out>(form: UseFormReturn<T, unknown, Out>, name: FieldPath<T>) {
  const current: unknown = form.watch(name);
  return {
    value: typeof current === 'number' || typeof current === 'string' ? current : '',
    onChange: (value: number | string) =>
      form.setValue(name, value as PathValue<T, FieldPath<T>>, { shouldValidate: form.formState.isSubmitted }),
  };
}
