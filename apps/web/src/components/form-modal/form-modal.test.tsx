import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PasswordInput } from '@mantine/core';
import { MODAL_CLOSE_DELAY_MS, NewPassword } from '@betdesk/contract';
import { HttpError } from '@/lib/http.ts';
import { renderWithProviders } from '@/testing/test-utils.tsx';
import { FormModal } from './form-modal.tsx';

type Submit = (values: { password: string; password_confirmation: string }) => Promise<unknown>;

function PasswordForm({ submit, onSaved = () => {} }: { submit: Submit; onSaved?: () => void }) {
  const [opened, setOpened] = useState(true);
  return (
    <>
      <span data-testid="state">{opened ? 'open' : 'closed'}</span>
      <FormModal
        opened={opened}
        onClose={() => setOpened(false)}
        title="Change password"
        schema={NewPassword}
        defaultValues={{ password: '', password_confirmation: '' }}
        submit={submit}
        onSaved={onSaved}
      >
        {({ form, errorOf }) => (
          <>
            <PasswordInput label="New password" error={errorOf('password')} {...form.register('password')} />
            <PasswordInput
              label="Retype password"
              error={errorOf('password_confirmation')}
              {...form.register('password_confirmation')}
            />
          </>
        )}
      </FormModal>
    </>
  );
}

async function fillAndSave(password: string, retype: string) {
  await userEvent.type(screen.getByLabelText('New password'), password);
  await userEvent.type(screen.getByLabelText('Retype password'), retype);
  await userEvent.click(screen.getByRole('button', { name: 'Save' }));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('FormModal', () => {
  it('checks the schema before sending anything', async () => {
    const submit = vi.fn<Submit>();
    renderWithProviders(<PasswordForm submit={submit} />);
    await fillAndSave('longenough', 'different1');
    expect(await screen.findByText('The passwords do not match')).toBeInTheDocument();
    expect(submit).not.toHaveBeenCalled();
  });

  it('puts server 422 errors under the matching inputs and in a banner', async () => {
    const submit = vi.fn<Submit>().mockRejectedValue(
      new HttpError({
        status: 422,
        body: {},
        info: 'Form data has some errors.',
        errors: {
          password: ['The password is too common'],
          user_id: ['Unknown user'],
        },
        customError: true,
      }),
    );
    renderWithProviders(<PasswordForm submit={submit} />);
    await fillAndSave('password1', 'password1');

    expect(await screen.findByText('The password is too common')).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription('The password is too common');
    const banner = screen.getByTestId('form-error');
    expect(banner).toHaveTextContent('Form data has some errors.');
    expect(banner).toHaveTextContent('Unknown user');
    expect(screen.getByTestId('state')).toHaveTextContent('open');
  });

  it('disables the submit button while the request is in flight', async () => {
    let answer: (value: unknown) => void = () => {};
    const submit = vi.fn<Submit>(() => new Promise((resolve) => (answer = resolve)));
    renderWithProviders(<PasswordForm submit={submit} />);
    await fillAndSave('password1', 'password1');

    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
    await act(async () => answer({ info: 'Done! You need to login again...' }));
    expect(await screen.findByTestId('form-success')).toHaveTextContent('Done! You need to login again...');
  });

  it('closes 3 seconds after a successful save, then reports it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const onSaved = vi.fn();
    const submit = vi.fn<Submit>().mockResolvedValue({ info: 'Done! You need to login again...' });
    renderWithProviders(<PasswordForm submit={submit} onSaved={onSaved} />);
    await fillAndSave('password1', 'password1');
    await screen.findByTestId('form-success');
    expect(submit).toHaveBeenCalledWith({ password: 'password1', password_confirmation: 'password1' });

    act(() => vi.advanceTimersByTime(MODAL_CLOSE_DELAY_MS - 100));
    expect(screen.getByTestId('state')).toHaveTextContent('open');
    expect(onSaved).not.toHaveBeenCalled();

    act(() => vi.advanceTimersByTime(200));
    expect(screen.getByTestId('state')).toHaveTextContent('closed');
    expect(onSaved).toHaveBeenCalledOnce();
  });

  it('saves itself only: a modal opened from a page form (the cover upload of a post) does not submit the page', async () => {
    const submit = vi.fn<Submit>().mockResolvedValue({});
    const pageSubmitted = vi.fn();
    renderWithProviders(
      <form
        onSubmit={(event) => {
          event.preventDefault();
          pageSubmitted();
        }}
      >
        <PasswordForm submit={submit} />
      </form>,
    );
    await fillAndSave('longenough1', 'longenough1');
    await waitFor(() => expect(submit).toHaveBeenCalledOnce());
    expect(pageSubmitted).not.toHaveBeenCalled();
  });

  it('opens prefilled with the values of the record it edits (update mode)', async () => {
    function EditName({ name, opened }: { name: string; opened: boolean }) {
      return (
        <FormModal
          opened={opened}
          onClose={() => {}}
          title="Edit user"
          schema={NewPassword}
          defaultValues={{ password: name, password_confirmation: name }}
          submit={async () => ({})}
        >
          {({ form }) => <input aria-label="Value" {...form.register('password')} />}
        </FormModal>
      );
    }
    const { rerender } = renderWithProviders(<EditName name="first-record" opened />);
    expect(await screen.findByLabelText('Value')).toHaveValue('first-record');
    rerender(<EditName name="first-record" opened={false} />);
    rerender(<EditName name="second-record" opened />);
    await waitFor(() => expect(screen.getByLabelText('Value')).toHaveValue('second-record'));
  });

  it('closes at once when the answer opens a popup, so the popup is not over the form', async () => {
    const onSaved = vi.fn();
    const submit = vi.fn<Submit>().mockResolvedValue({ info: 'User registered successfully', popup: true });
    renderWithProviders(<PasswordForm submit={submit} onSaved={onSaved} />);
    await fillAndSave('longenough', 'longenough');
    await waitFor(() => expect(screen.getByTestId('state')).toHaveTextContent('closed'));
    expect(onSaved).toHaveBeenCalledWith({ info: 'User registered successfully', popup: true });
    expect(screen.queryByTestId('form-success')).not.toBeInTheDocument();
  });
});
