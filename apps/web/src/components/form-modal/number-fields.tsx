import { NumberInput, type NumberInputProps } from '@mantine/core';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { DURATION_MAX_DAYS } from '@betdesk/contract';
import { numberFieldProps } from './number-field.ts';

/** A FormModal's form and errorOf, the field's name, and the input's own props. */
type NumberFieldProps<T extends FieldValues, Out> = Omit<NumberInputProps, 'form' | 'name' | 'value' | 'onChange' | 'error'> & {
  form: UseFormReturn<T, unknown, Out>;
  errorOf: (name: FieldPath<T>) => string | undefined;
  name: FieldPath<T>;
  'data-testid'?: string;
};

/** An amount in KES bound to a form field: two decimals, thousands separated. */
export function MoneyField<T extends FieldValues, Out>({ form, errorOf, name, ...input }: NumberFieldProps<T, Out>) {
  return <NumberInput decimalScale={2} thousandSeparator="," {...input} error={errorOf(name)} {...numberFieldProps(form, name)} />;
}

/** A duration in whole days bound to a form field, from 1 to the contract's longest. */
export function DurationField<T extends FieldValues, Out>({ form, errorOf, name, ...input }: NumberFieldProps<T, Out>) {
  return (
    <NumberInput
      label="Duration (days)"
      required
      min={1}
      max={DURATION_MAX_DAYS}
      allowDecimal={false}
      allowNegative={false}
      {...input}
      error={errorOf(name)}
      {...numberFieldProps(form, name)}
    />
  );
}
