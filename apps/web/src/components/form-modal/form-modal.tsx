import { useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Group, List, Modal, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  useForm,
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { MODAL_CLOSE_DELAY_MS } from '@betdesk/contract';
import { isHttpError } from '@/lib/http.ts';

type FormSchema = z.ZodType<FieldValues, FieldValues>;

export interface FormModalRenderProps<S extends FormSchema> {
  form: UseFormReturn<z.input<S>, unknown, z.output<S>>;
  /** The message to show under the input of that field, client-side or from the server. */
  errorOf: (name: FieldPath<z.input<S>>) => string | undefined;
}

export interface FormModalProps<S extends FormSchema, Result> {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  schema: S;
  /**
   * Every field of the form, applied each time the modal opens (prefill for update mode): also the
   * names a server 422 error can land under.
   */
  defaultValues: DefaultValues<z.input<S>>;
  submit: (values: z.output<S>) => Promise<Result>;
  /** Runs once after a successful save, when the modal closes (after the delay or by hand). */
  onSaved?: (result: Result) => void;
  submitLabel?: string;
  children: (props: FormModalRenderProps<S>) => ReactNode;
  'data-testid'?: string;
}

interface Banner {
  tone: 'success' | 'error';
  text: string;
  details: string[];
}

function isPopup(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as { popup?: unknown }).popup === true && infoOf(result) !== null;
}

function infoOf(result: unknown): string | null {
  if (typeof result === 'object' && result !== null && 'info' in result) {
    const { info } = result as { info: unknown };
    return typeof info === 'string' && info !== '' ? info : null;
  }
  return null;
}

/**
 * A modal form: react-hook-form with the given zod schema, server 422 errors under the matching
 * inputs plus a banner, the submit button disabled while in flight, and closing
 * MODAL_CLOSE_DELAY_MS after a successful save (spec 4).
 */
/** A field the user can type into: a read-only one (New Bet's client name) is shown, not filled in. */
const FIELDS =
  'input:not([type="hidden"]):not([disabled]):not([readonly]), select:not([disabled]), textarea:not([disabled]):not([readonly]), [contenteditable="true"]';

/**
 * Focuses the first field of a form (the modal's focus trap starts on its close button), unless
 * the user is already in a field by then.
 */
export function focusFirstField(root: HTMLElement | null): void {
  const active = document.activeElement;
  if (active instanceof HTMLElement && active.matches(FIELDS)) return;
  root?.querySelector<HTMLElement>(FIELDS)?.focus();
}

/**
 * Marks the form's first field as the one Mantine's focus trap starts on. A modal that mounts
 * already open (the dashboard loads New Bet's code on the click) has no opening transition, so
 * onEnterTransitionEnd never comes and the trap would take the × (decision 033).
 */
function markFirstField(form: HTMLFormElement | null): void {
  form?.querySelector<HTMLElement>(FIELDS)?.setAttribute('data-autofocus', '');
}

export function FormModal<S extends FormSchema, Result>({
  opened,
  onClose,
  title,
  schema,
  defaultValues,
  submit,
  onSaved,
  submitLabel = 'Save',
  children,
  'data-testid': testId = 'form-modal',
}: FormModalProps<S, Result>) {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(schema as never) as unknown as Resolver<z.input<S>, unknown, z.output<S>>,
    defaultValues,
  });
  const [banner, setBanner] = useState<Banner | null>(null);
  const [saved, setSaved] = useState<{ result: Result } | null>(null);

  const finish = () => {
    form.reset(defaultValues);
    setBanner(null);
    setSaved(null);
    onClose();
    if (saved) onSaved?.(saved.result);
  };

  // Each opening starts from the caller's current values: an update form opens prefilled with the
  // record it edits, a register form empty.
  const startFromDefaults = useEffectEvent(() => form.reset(defaultValues));
  useEffect(() => {
    if (opened) startFromDefaults();
  }, [opened]);

  const closeAfterDelay = useEffectEvent(finish);
  useEffect(() => {
    if (!saved) return undefined;
    const timer = setTimeout(closeAfterDelay, MODAL_CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [saved]);

  const save = async (values: z.output<S>) => {
    setBanner(null);
    try {
      const result = await submit(values);
      if (isPopup(result)) {
        // The answer opens a popup (it says what happened); the form closes instead of staying under it.
        form.reset(defaultValues);
        onClose();
        onSaved?.(result);
        return;
      }
      setBanner({ tone: 'success', text: infoOf(result) ?? 'Saved.', details: [] });
      setSaved({ result });
    } catch (error) {
      const known = new Set(Object.keys(defaultValues ?? {}));
      const details: string[] = [];
      if (isHttpError(error) && error.errors) {
        for (const [field, messages] of Object.entries(error.errors)) {
          if (known.has(field)) {
            form.setError(field as FieldPath<z.input<S>>, { type: 'server', message: messages.join(' ') });
          } else {
            details.push(...messages);
          }
        }
      }
      // An HttpError's message is the server's info or the status default (spec 8).
      setBanner({ tone: 'error', text: error instanceof Error ? error.message : String(error), details });
    }
  };

  const errorOf = (name: FieldPath<z.input<S>>): string | undefined => {
    const message = form.getFieldState(name, form.formState).error?.message;
    return typeof message === 'string' ? message : undefined;
  };

  const busy = form.formState.isSubmitting || saved !== null;
  const formRef = useRef<HTMLFormElement>(null);
  const attachForm = (form: HTMLFormElement | null) => {
    formRef.current = form;
    markFirstField(form);
  };

  return (
    <Modal
      opened={opened}
      onClose={finish}
      title={title}
      centered
      data-testid={testId}
      // Opening a form puts the cursor in its first field (not on the ×).
      onEnterTransitionEnd={() => focusFirstField(formRef.current)}
    >
      <form
        ref={attachForm}
        onSubmit={(event) => {
          // React carries a submit up its own tree, through the modal's portal: a modal opened from a
          // page form (the cover upload of the post form) must not submit that page too.
          event.stopPropagation();
          void form.handleSubmit(save)(event);
        }}
        noValidate
      >
        <Stack gap="sm">
          {banner && (
            <Alert
              color={banner.tone === 'success' ? 'green' : 'red'}
              role={banner.tone === 'error' ? 'alert' : 'status'}
              data-testid={`form-${banner.tone}`}
            >
              {banner.text}
              {banner.details.length > 0 && (
                <List size="sm" mt="xs">
                  {banner.details.map((detail) => (
                    <List.Item key={detail}>{detail}</List.Item>
                  ))}
                </List>
              )}
            </Alert>
          )}
          {children({ form, errorOf })}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={finish} type="button">
              Close
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting} disabled={busy}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
