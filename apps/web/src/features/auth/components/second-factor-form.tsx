import { useState, type FormEvent } from 'react';
import { Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { FormErrorBanner } from '@/components/page-form.tsx';
import { isHttpError } from '@/lib/http.ts';
import { useVerifySecondFactor } from '../api/login.ts';

interface SecondFactorFormProps {
  challenge: string;
  /** Back to email and password (the challenge expired, or another account). */
  onRestart: () => void;
}

/** The second step of a sign-in: a code from the authenticator app, or one of the recovery codes. */
export function SecondFactorForm({ challenge, onRestart }: SecondFactorFormProps) {
  const verify = useVerifySecondFactor();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (verify.isPending) return;
    setFailure(null);
    if (code.trim().length === 0) {
      setError('The code is required');
      return;
    }
    setError(null);
    try {
      await verify.mutateAsync({ challenge, code: code.trim() });
    } catch (err) {
      if (isHttpError(err)) {
        setError(err.errors?.code?.join(' ') ?? null);
        setFailure(err.info);
      } else {
        setFailure(err instanceof Error ? err.message : String(err));
      }
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="second-factor-form">
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" ta="center">
            Two-factor sign-in
          </Title>
          <Text c="dimmed" ta="center" size="sm" mt={4}>
            {useRecovery
              ? 'Type one of the recovery codes you saved. Each works once.'
              : 'Open your authenticator app and type the 6-digit code for Betdesk.'}
          </Text>
        </div>
        <FormErrorBanner message={failure} data-testid="second-factor-error" />
        <TextInput
          key={useRecovery ? 'recovery' : 'totp'}
          label={useRecovery ? 'Recovery code' : 'Authentication code'}
          name="code"
          autoComplete="one-time-code"
          inputMode={useRecovery ? 'text' : 'numeric'}
          maxLength={useRecovery ? 32 : 6}
          autoFocus
          required
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          error={error}
        />
        <Button type="submit" fullWidth loading={verify.isPending} disabled={verify.isPending}>
          Verify
        </Button>
        <Group justify="space-between">
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => {
              setUseRecovery((current) => !current);
              setCode('');
              setError(null);
            }}
          >
            {useRecovery ? 'Use the authenticator app' : 'Use a recovery code'}
          </Anchor>
          <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onRestart}>
            Back to sign in
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
