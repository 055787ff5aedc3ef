import { Select } from '@mantine/core';
import { CUSTOMER_LANGUAGE_LABELS, CustomerLanguage } from '@betdesk/contract';
import { showToast } from '@/lib/feedback.tsx';

const languageChoices = Object.entries(CUSTOMER_LANGUAGE_LABELS).map(([value, label]) => ({ value, label }));

/** Saving a person's language: the mutation of the subscriber's or the client's screen. */
interface LanguageSave {
  isPending: boolean;
  mutate: (language: CustomerLanguage, options: { onSuccess: (answer: { info?: string }) => void }) => void;
}

/**
 * The language a person (a subscriber, a client) reads their SMS and USSD screens in, as they asked
 * staff to set it; a change saves it once, with a language the contract offers, and says so.
 */
export function LanguageChoice({ language, save, 'data-testid': testId }: { language: CustomerLanguage; save: LanguageSave; 'data-testid'?: string }) {
  return (
    <Select
      label="Language"
      data={languageChoices}
      value={language}
      allowDeselect={false}
      disabled={save.isPending}
      data-testid={testId}
      onChange={(value) => {
        const chosen = CustomerLanguage.safeParse(value);
        if (chosen.success && chosen.data !== language) {
          save.mutate(chosen.data, {
            onSuccess: (answer) => {
              if (answer.info) showToast('success', answer.info);
            },
          });
        }
      }}
    />
  );
}
