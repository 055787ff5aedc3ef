import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { FormModal } from '@/components/form-modal/index.ts';
import { disableTwoFactorInputSchema, useDisableTwoFactor, useTwoFactorStatus } from '../api/two-factor.ts';
import { EnrolTwoFactorModal } from './enrol-two-factor-modal.tsx';

/** Two-factor sign-in on My Profile: its state, the enrolment, and turning it off with the password. */
export function TwoFactorCard() {
  const status = useTwoFactorStatus();
  const disable = useDisableTwoFactor();
  const [enrolling, setEnrolling] = useState(false);
  const [disabling, setDisabling] = useState(false);
  const state = status.data;

  return (
    <Card withBorder padding="lg" data-testid="two-factor-card">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4">Two-factor sign-in</Title>
          {state && (
            <Badge color={state.enabled ? 'green' : 'gray'} data-testid="two-factor-state">
              {state.enabled ? 'On' : 'Off'}
            </Badge>
          )}
        </Group>
        {state?.required && !state.enabled && (
          <Alert color="orange" role="alert" data-testid="two-factor-required">
            Your account can claim payments and change prices, so it needs a second factor. Set up two-factor
            sign-in to continue: everything else stays closed until you do.
          </Alert>
        )}
        <Text size="sm" c="dimmed">
          {state?.enabled
            ? `Signing in asks for a code from your authenticator app. Recovery codes left: ${state.recovery_codes_left}.`
            : 'Signing in asks only for your password. Add a code from an authenticator app (Google Authenticator, Microsoft Authenticator, Authy…) so a stolen password is not enough.'}
        </Text>
        {state && (
          <Group>
            {state.enabled ? (
              <Button variant="default" color="red" onClick={() => setDisabling(true)} data-testid="two-factor-disable">
                Turn off
              </Button>
            ) : (
              <Button leftSection={<IconShieldLock size={16} />} onClick={() => setEnrolling(true)} data-testid="two-factor-enrol">
                Set up two-factor sign-in
              </Button>
            )}
          </Group>
        )}
      </Stack>
      <EnrolTwoFactorModal opened={enrolling} onClose={() => setEnrolling(false)} />
      <FormModal
        opened={disabling}
        onClose={() => setDisabling(false)}
        title="Turn off two-factor sign-in"
        schema={disableTwoFactorInputSchema}
        defaultValues={{ password: '' }}
        submit={disable.mutateAsync}
        submitLabel="Turn off"
        data-testid="two-factor-disable-modal"
      >
        {({ form, errorOf }) => (
          <PasswordInput
            label="Your password"
            autoComplete="current-password"
            required
            error={errorOf('password')}
            {...form.register('password')}
          />
        )}
      </FormModal>
    </Card>
  );
}
