import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  GSM7_LOOKALIKES,
  replaceLookalikes,
  SMS_ESTIMATE_TEXT_MAX,
  smsCount,
  smsEstimate,
  withOptOutLine,
  type SmsCount,
} from '@betdesk/contract';
import { formatMoney } from '@/lib/format.ts';
import { callEndpoint } from '@/lib/http.ts';
import { queryKeys } from '@/lib/query-keys.ts';

export interface SmsComposerProps {
  /** The text as typed in the composer's text area. */
  text: string;
  /** Puts the text with its look-alikes replaced by their GSM-7 forms back into the text area. */
  onReplaceLookalikes: (text: string) => void;
  /** The opt-out line the server adds at the end of a promotional SMS: counted with the text. */
  optOutText?: string;
  /**
   * The responsible-gambling lines the server adds at the end of a promotional SMS before the opt-out
   * line (decision 061): counted with the text.
   */
  appendedText?: string;
  /**
   * A fan-out (SMS tips, broadcasts): how many people receive it, so the cost is shown; null while
   * not known yet (`recipientsHint` says how to know it).
   */
  recipients?: number | null;
  recipientsHint?: string;
  'data-testid'?: string;
}

const encodingLabel = (count: SmsCount) => (count.encoding === 'GSM-7' ? 'GSM-7' : 'Unicode');
const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-KE')} ${n === 1 ? one : many}`;
const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The price of a fan-out from the server (recipients × parts × the price of a part, a setting). It
 * is asked again only when the parts or the recipients change, never on each key press.
 */
function useFanOutCost(text: string, count: SmsCount, recipients: number | null | undefined) {
  const known = recipients !== undefined && recipients !== null && recipients > 0;
  return useQuery({
    queryKey: queryKeys.sms.estimate(count.encoding, count.parts, recipients),
    queryFn: () => callEndpoint(smsEstimate, { body: { text, recipients: recipients! } }),
    enabled: known && text !== '' && text.length <= SMS_ESTIMATE_TEXT_MAX,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/**
 * Under every text area where staff write an SMS (a client, a subscriber, SMS tips, broadcasts,
 * the Settings templates): the encoding, the parts (GSM-7 160/153, Unicode 70/67), the characters
 * left in the part and, for a fan-out, the estimated cost, all counted in the browser by the
 * contract's one function (the one the server stores per message). The characters that make the
 * text Unicode are listed, and one button replaces the look-alikes (curly quotes, dashes ...).
 */
export function SmsComposer({ text, onReplaceLookalikes, optOutText, appendedText, recipients, recipientsHint, 'data-testid': testId }: SmsComposerProps) {
  const withLines = appendedText && text.trim() !== '' && !text.includes(appendedText) ? `${text.trimEnd()} ${appendedText}` : text;
  const sent = optOutText && text.trim() !== '' ? withOptOutLine(withLines, optOutText) : withLines;
  const count = smsCount(sent);
  const fanOut = recipients !== undefined;
  const cost = useFanOutCost(sent, count, recipients);
  const lookalikes = count.unicode_characters.filter((ch) => Object.hasOwn(GSM7_LOOKALIKES, ch));

  let costText = '';
  if (fanOut) {
    if (recipients === null) costText = recipientsHint ?? 'The cost shows once the recipients are known.';
    else if (recipients === 0) costText = 'Nobody to send it to yet.';
    // The previous estimate stays in the cache while the new one loads (no flicker of the layout), but
    // is never shown beside other parts or recipients: staff confirm a broadcast on this figure.
    else if (cost.data && !cost.isPlaceholderData) costText = `about ${formatMoney(cost.data.cost)} for ${plural(recipients, 'recipient', 'recipients')}`;
    else if (cost.isFetching) costText = 'working out the cost…';
  }

  return (
    <Stack gap={4} data-testid={testId ?? 'sms-composer'}>
      <Group gap="xs" wrap="wrap">
        {/* The live region holds what changes seldom (encoding, parts, cost), not the count of every key press. */}
        <Text size="sm" fw={600} role="status" aria-live="polite" aria-atomic="true" data-testid="sms-composer-count">
          {encodingLabel(count)}: {plural(count.parts, 'SMS part', 'SMS parts')}
          {fanOut ? ' per person' : ''}
          {costText ? `; ${costText}` : ''}
        </Text>
        <Text size="sm" c="dimmed" data-testid="sms-composer-left">
          {plural(count.characters_left, 'character', 'characters')} left in this part ({count.per_part} a part)
        </Text>
      </Group>
      {appendedText && (
        <Text size="xs" c="dimmed" data-testid="sms-composer-appended">
          Counted with the responsible-gambling lines added at the end: “{appendedText}”.
        </Text>
      )}
      {optOutText && <Text size="xs" c="dimmed">Counted with the opt-out text added at the end: “{optOutText}”.</Text>}
      {count.unicode_characters.length > 0 && (
        <Alert color="yellow" variant="light" p="xs" data-testid="sms-composer-unicode">
          <Text size="sm">
            Unicode because of{' '}
            {count.unicode_characters.map((ch) => (
              <Code key={ch} mx={2} title={codePoint(ch)}>
                {ch.trim() === '' ? codePoint(ch) : `${ch} ${codePoint(ch)}`}
              </Code>
            ))}
            : each part holds 70 characters instead of 160.
          </Text>
          {lookalikes.length > 0 && (
            <Button mt={6} size="compact-sm" variant="white" onClick={() => onReplaceLookalikes(replaceLookalikes(text))}>
              Replace look-alikes
            </Button>
          )}
        </Alert>
      )}
    </Stack>
  );
}
