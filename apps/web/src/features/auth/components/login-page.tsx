import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { screenTexts, type Credentials } from '@betdesk/contract';
import { FormErrorBanner } from '@/components/page-form.tsx';
import { APP_NAME } from '@/config/app.ts';
import { isHttpError } from '@/lib/http.ts';
import { checkCredentials, useLogin, type CredentialErrors } from '../api/login.ts';
import { SecondFactorForm } from './second-factor-form.tsx';

/**
 * Sign-in. The HTTP client shows nothing for a failed login (spec 8: only the progress bar); the
 * form itself says why: field errors under the inputs and the server's info above them.
 */
export function LoginPage() {
  const signIn = useLogin();
  const [failure, setFailure] = useState<string | null>(null);
  const [credentials, setCredentials] = useState<Credentials>({ email: '', password: '' });
  const [errors, setErrors] = useState<CredentialErrors>({});
  // Set when the password was right and the account has a second factor: the code step shows.
  const [challenge, setChallenge] = useState<string | null>(null);
  const isSubmitting = signIn.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isSubmitting) return;
    setFailure(null);
    const invalid = checkCredentials(credentials);
    setErrors(invalid);
    if (Object.keys(invalid).length > 0) return;
    try {
      const result = await signIn.mutateAsync({ email: credentials.email.trim(), password: credentials.password });
      if ('challenge' in result) setChallenge(result.challenge);
    } catch (error) {
      if (isHttpError(error)) {
        const fromServer: CredentialErrors = {};
        for (const field of ['email', 'password'] as const) {
          const messages = error.errors?.[field];
          if (messages) fromServer[field] = messages.join(' ');
        }
        setErrors(fromServer);
        setFailure(error.info);
      } else {
        setFailure(error instanceof Error ? error.message : String(error));
      }
    }
  };
  /** What binds an input to one of the credentials: its name, value, error and typing. */
  const fieldOf = (field: keyof Credentials) => ({
    name: field,
    required: true,
    value: credentials[field],
    error: errors[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setCredentials((current) => ({ ...current, [field]: value }));
    },
  });

  return (
    <Center component="main" mih="100vh" p="md" bg="gray.1">
      <Paper withBorder shadow="sm" radius="md" p="xl" w={400} maw="100%">
        {challenge ? (
          <SecondFactorForm
            challenge={challenge}
            onRestart={() => {
              setChallenge(null);
              setCredentials((current) => ({ ...current, password: '' }));
            }}
          />
        ) : (
          <form onSubmit={(event) => void submit(event)} noValidate data-testid="login-form">
            <Stack gap="md">
              <div>
                <Title order={1} size="h2" ta="center">
                  {APP_NAME}
                </Title>
                <Text c="dimmed" ta="center" size="sm" mt={4}>
                  {screenTexts.signIn}
                </Text>
              </div>
              <FormErrorBanner message={failure} data-testid="login-error" />
              <TextInput label="Email" type="email" autoComplete="username" {...fieldOf('email')} />
              <PasswordInput label="Password" autoComplete="current-password" {...fieldOf('password')} />
              <Button type="submit" fullWidth loading={isSubmitting} disabled={isSubmitting}>
                Sign In
              </Button>
            </Stack>
          </form>
        )}
      </Paper>
    </Center>
  );
}
