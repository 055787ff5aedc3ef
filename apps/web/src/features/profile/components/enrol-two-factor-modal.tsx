import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Code, CopyButton, Group, Image, List, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import QRCode from 'qrcode';
import { isHttpError } from '@/lib/http.ts';
import { useEnableTwoFactor, useSetUpTwoFactor } from '../api/two-factor.ts';

interface EnrolTwoFactorModalProps {
  opened: boolean;
  onClose: () => void;
}

/** The secret in groups of four, as authenticator apps show it when typed by hand. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

function messageOf(error: unknown): string {
  if (isHttpError(error)) return error.errors?.code?.join(' ') ?? error.info ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Enrolment: a new secret as a QR code and as text, confirmed by a code from the app; then the ten
 * recovery codes, shown this once.
 */
export function EnrolTwoFactorModal({ opened, onClose }: EnrolTwoFactorModalProps) {
  const setup = useSetUpTwoFactor();
  const enable = useEnableTwoFactor();
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const { mutate: startSetup, reset: resetSetup } = setup;
  const otpauthUrl = setup.data?.otpauth_url;

  // Each opening starts a fresh set-up: a secret shown once and not confirmed is replaced.
  useEffect(() => {
    if (!opened) return;
    setCode('');
    setCodeError(null);
    setRecoveryCodes(null);
    setQr(null);
    startSetup();
    return () => resetSetup();
  }, [opened, startSetup, resetSetup]);

  useEffect(() => {
    if (!otpauthUrl) return;
    let current = true;
    void QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 }).then((url) => {
      if (current) setQr(url);
    });
    return () => {
      current = false;
    };
  }, [otpauthUrl]);

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (enable.isPending) return;
    if (!/^\d{6}$/.test(code.trim())) {
      setCodeError('Type the 6-digit code the app shows');
      return;
    }
    setCodeError(null);
    try {
      const { recovery_codes } = await enable.mutateAsync({ code: code.trim() });
      setRecoveryCodes(recovery_codes);
    } catch (error) {
      setCodeError(messageOf(error));
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={recoveryCodes ? 'Save your recovery codes' : 'Set up two-factor sign-in'}
      closeOnClickOutside={!recoveryCodes}
      data-testid="enrol-two-factor-modal"
    >
      {recoveryCodes ? (
        <Stack gap="sm">
          <Alert color="green">Two-factor sign-in is on.</Alert>
          <Text size="sm">
            If you lose your phone, each of these codes signs you in once instead of the app. Keep them somewhere safe:
            they are shown only now.
          </Text>
          <List spacing={2} data-testid="recovery-codes" styles={{ item: { fontFamily: 'monospace' } }}>
            {recoveryCodes.map((c) => (
              <List.Item key={c}>{c}</List.Item>
            ))}
          </List>
          <Group justify="space-between">
            <CopyButton value={recoveryCodes.join('\n')}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? 'Copied' : 'Copy the codes'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose} data-testid="recovery-codes-saved">
              I have saved them
            </Button>
          </Group>
        </Stack>
      ) : setup.isError ? (
        <Alert color="red" role="alert">
          {messageOf(setup.error)}
        </Alert>
      ) : !setup.data ? (
        <Group justify="center" py="lg">
          <Loader role="status" aria-label="Preparing the set-up" />
        </Group>
      ) : (
        <form onSubmit={(event) => void confirm(event)} noValidate>
          <Stack gap="sm">
            <Text size="sm">1. Scan this QR code with your authenticator app.</Text>
            <Group justify="center">
              {qr ? (
                <Image src={qr} alt="QR code of the two-factor secret" w={220} h={220} data-testid="two-factor-qr" />
              ) : (
                <Loader />
              )}
            </Group>
            <Text size="sm">Or type this key in the app:</Text>
            <Code block ta="center" fz="md" data-testid="two-factor-secret" data-secret={setup.data.secret}>
              {grouped(setup.data.secret)}
            </Code>
            <TextInput
              label="2. Type the 6-digit code the app shows"
              name="code"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={6}
              required
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              error={codeError}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={enable.isPending} disabled={enable.isPending}>
                Turn on
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
