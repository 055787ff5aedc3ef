import { Select } from '@mantine/core';
import { CUSTOMER_LANGUAGE_LABELS, CustomerLanguage } from '@betdesk/contract';

const languageChoices = Object.entries(CUSTOMER_LANGUAGE_LABELS).map(([value, label]) => ({ value, label }));

/**
 * The language a person (a subscriber, a client) reads their SMS and USSD screens in, as they asked
 * staff to set it; a change calls `onChoose` once, with a language the contract offers.
 */
export function LanguageChoice({
  language,
  saving,
  onChoose,
  'data-testid': testId,
}: {
  language: CustomerLanguage;
  saving: boolean;
  onChoose: (language: CustomerLanguage) => void;
  'data-testid'?: string;
}) {
  return (
    <Select
      label="Language"
      data={languageChoices}
      value={language}
      allowDeselect={false}
      disabled={saving}
      data-testid={testId}
      onChange={(value) => {
        const chosen = CustomerLanguage.safeParse(value);
        if (chosen.success && chosen.data !== language) onChoose(chosen.data);
      }}
    />
  );
}
