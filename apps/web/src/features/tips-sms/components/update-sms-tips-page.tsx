import { useState } from 'react';
import { Button, Card, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { betCategoryLabel, formatDate, nairobiDayOf, smsPages, type SmsTipForEditing, type SmsTipsEstimate, type Ticket } from '@betdesk/contract';
import { LoadState } from '@/components/load-state.tsx';
import { SmsComposer } from '@/components/sms-composer/sms-composer.tsx';
import { paths } from '@/config/paths.ts';
import { isHttpError } from '@/lib/http.ts';
import { useSmsTipsForm } from '../api/get-sms-tips-form.ts';
import { useEstimateSmsTips } from '../api/estimate-sms-tips.ts';
import { useSaveSmsTips } from '../api/save-sms-tips.ts';
import { useDayTickets } from '../api/get-day-tickets.ts';
import { ConfirmSmsTips, SmsTipsProgress } from './sms-tips-send.tsx';
import { TicketEditor } from './ticket-editor.tsx';

function SmsTipsForm({ tips, matchDate, tickets }: { tips: SmsTipForEditing[]; matchDate: string; tickets: Ticket[] }) {
  const [texts, setTexts] = useState<Record<number, string>>(() =>
    Object.fromEntries(tips.map((t) => [t.bet_category_id, t.content])),
  );
  const [errors, setErrors] = useState<Record<number, string>>({});
  const save = useSaveSmsTips();
  const estimate = useEstimateSmsTips();
  const navigate = useNavigate();
  const [asking, setAsking] = useState<SmsTipsEstimate | null>(null);
  const [sending, setSending] = useState<number[] | null>(null);
  const posts = () => tips.map((t) => ({ bet_category_id: t.bet_category_id, content: texts[t.bet_category_id] ?? '' }));

  const showErrors = (error: unknown, sent: { bet_category_id: number }[]) => {
    if (!isHttpError(error)) return;
    const next: Record<number, string> = {};
    for (const [field, messages] of Object.entries(error.errors ?? {})) {
      const index = Number(field.split('.')[1]);
      const tip = sent[index];
      if (tip) next[tip.bet_category_id] = messages.join(' ');
    }
    setErrors(next);
  };

  // Save asks first: what would be sent, to how many, at what cost. A save that sends nothing goes straight on.
  const submit = async () => {
    setErrors({});
    const form = posts();
    try {
      const answer = await estimate.mutateAsync({ posts: form });
      if (answer.tips.length > 0) setAsking(answer);
      else await commit(null);
    } catch (error) {
      showErrors(error, form);
    }
  };

  const commit = async (confirmed: SmsTipsEstimate | null) => {
    const form = posts();
    try {
      await save.mutateAsync({ posts: form });
      setAsking(null);
      if (confirmed) setSending(confirmed.tips.map((tip) => tip.bet_category_id));
      else await navigate(paths.tips.viewSmsTips);
    } catch (error) {
      setAsking(null);
      showErrors(error, form);
    }
  };
  return (
    <Stack>
      {tips.map((tip) => {
        const text = texts[tip.bet_category_id] ?? '';
        const setText = (value: string) => setTexts((all) => ({ ...all, [tip.bet_category_id]: value }));
        return (
          <Paper key={tip.bet_category_id} withBorder p="sm">
            <Stack gap="xs">
              <Textarea
                label={betCategoryLabel({ name: tip.bet_category, code: tip.code })}
                description={`SMS pages: ${smsPages(text)} | Characters: ${text.length}`}
                autosize
                minRows={3}
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
                error={errors[tip.bet_category_id]}
              />
              <SmsComposer
                text={text}
                onReplaceLookalikes={setText}
                recipients={tip.recipients}
                data-testid={`sms-composer-${tip.code}`}
              />
              <Text size="sm" fw={600}>
                Ticket of {formatDate(`${matchDate}T12:00:00Z`)}
              </Text>
              <TicketEditor
                tip={tip}
                matchDate={matchDate}
                ticket={tickets.find((t) => t.bet_category_id === tip.bet_category_id)}
                onSmsText={setText}
              />
            </Stack>
          </Paper>
        );
      })}
      {/* By the Save button, where the user is looking after the confirmation (and scrolled into view). */}
      {sending && <SmsTipsProgress categories={sending} />}
      <Group justify="flex-end">
        <Button
          onClick={() => void submit()}
          loading={estimate.isPending || save.isPending}
          disabled={estimate.isPending || save.isPending}
          data-testid="sms-tips-save"
        >
          Save
        </Button>
      </Group>
      <ConfirmSmsTips
        estimate={asking}
        sending={save.isPending}
        onConfirm={() => void commit(asking)}
        onCancel={() => setAsking(null)}
      />
    </Stack>
  );
}

/**
 * /tips/posts/update-sms-tips: per bet category the SMS text and today's ticket (selections with
 * odds) it can be written from; saving the texts goes to view-sms-tips.
 */
export function UpdateSmsTipsPage() {
  const tips = useSmsTipsForm();
  const [today] = useState(() => nairobiDayOf(new Date()));
  const tickets = useDayTickets(today);
  return (
    <Stack>
      <Title order={1} size="h2">Update SMS Tips</Title>
      <Card withBorder>
        {tips.data && tickets.data ? (
          <SmsTipsForm tips={tips.data.posts} matchDate={today} tickets={tickets.data.tickets} />
        ) : (
          <LoadState failed={tips.isError || tickets.isError} what="form" />
        )}
      </Card>
    </Stack>
  );
}
