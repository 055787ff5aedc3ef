import { Text, Textarea } from '@mantine/core';
import { smsPages } from '@betdesk/contract';
import { FormModal } from '@/components/form-modal/index.ts';
import { SmsComposer } from '@/components/sms-composer/sms-composer.tsx';
import { sendSmsInputSchema, useSendSms } from '../api/send-sms.ts';

/** Send SMS to a subscriber, with the spec's page counter (150 characters a page). */
export function SendSmsModal({ subscriberId, opened, onClose }: { subscriberId: number; opened: boolean; onClose: () => void }) {
  const send = useSendSms();
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Send SMS"
      schema={sendSmsInputSchema}
      defaultValues={{ subscriber_id: subscriberId, message: '' }}
      submit={send.mutateAsync}
      submitLabel="Send"
      data-testid="send-sms-modal"
    >
      {({ form, errorOf }) => {
        const message = form.watch('message') ?? '';
        return (
          <>
            <Textarea label="Message" required autosize minRows={4} error={errorOf('message')} {...form.register('message')} />
            <Text size="sm" c="dimmed" data-testid="sms-counter">
              SMS pages: {smsPages(message)} | Characters: {message.length}
            </Text>
            <SmsComposer text={message} onReplaceLookalikes={(fixed) => form.setValue('message', fixed, { shouldDirty: true })} />
          </>
        );
      }}
    </FormModal>
  );
}
