import { useState } from 'react';
import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { screenTexts, type Credentials } from '@betdesk/contract';
import { APP_NAME } from '@/config/app.ts';
import { isHttpError } from '@/lib/http.ts';
import { loginInputSchema, useLogin } from '../api/login.ts';

/**
 * Sign-in. The HTTP client shows nothing for a failed login (spec 8: only the progress bar); the
 * form itself says why: field errors under the inputs and the server's info above them.
 */
export function LoginPage() {
  const signIn = useLogin();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Credentials>({
    resolver: zodResolver(loginInputSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (credentials) => {
    setFailure(null);
    try {
      await signIn.mutateAsync(credentials);
    } catch (error) {
      if (isHttpError(error)) {
        for (const field of ['email', 'password'] as const) {
          const messages = error.errors?.[field];
          if (messages) form.setError(field, { type: 'server', message: messages.join(' ') });
        }
        setFailure(error.info);
      } else {
        setFailure(error instanceof Error ? error.message : String(error));
      }
    }
  });

  return (
    <Center mih="100vh" p="md" bg="gray.1">
      <Paper withBorder shadow="sm" radius="md" p="xl" w={400} maw="100%">
        <form onSubmit={submit} noValidate data-testid="login-form">
          <Stack gap="md">
            <div>
              <Title order={2} ta="center">
                {APP_NAME}
              </Title>
              <Text c="dimmed" ta="center" size="sm" mt={4}>
                {screenTexts.signIn}
              </Text>
            </div>
            {failure && (
              <Alert color="red" role="alert" data-testid="login-error">
                {failure}
              </Alert>
            )}
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              error={errors.email?.message}
              {...form.register('email')}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              error={errors.password?.message}
              {...form.register('password')}
            />
            <Button type="submit" fullWidth loading={isSubmitting} disabled={isSubmitting}>
              Sign In
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
