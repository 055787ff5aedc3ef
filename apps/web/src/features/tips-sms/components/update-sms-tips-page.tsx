import { useState } from 'react';
import { Button, Card, Group, Stack, Textarea, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { betCategoryLabel, smsPages, type SmsTip } from '@betdesk/contract';
import { LoadState } from '@/components/load-state.tsx';
import { paths } from '@/config/paths.ts';
import { isHttpError } from '@/lib/http.ts';
import { useSmsTipsForm } from '../api/get-sms-tips-form.ts';
import { useSaveSmsTips } from '../api/save-sms-tips.ts';

function SmsTipsForm({ tips }: { tips: SmsTip[] }) {
  const [texts, setTexts] = useState<Record<number, string>>(() =>
    Object.fromEntries(tips.map((t) => [t.bet_category_id, t.content])),
  );
  const [errors, setErrors] = useState<Record<number, string>>({});
  const save = useSaveSmsTips();
  const navigate = useNavigate();
  const submit = async () => {
    setErrors({});
    const posts = tips.map((t) => ({ bet_category_id: t.bet_category_id, content: texts[t.bet_category_id] ?? '' }));
    try {
      await save.mutateAsync({ posts });
      await navigate(paths.tips.viewSmsTips);
    } catch (error) {
      if (!isHttpError(error)) return;
      const next: Record<number, string> = {};
      for (const [field, messages] of Object.entries(error.errors ?? {})) {
        const index = Number(field.split('.')[1]);
        const tip = posts[index];
        if (tip) next[tip.bet_category_id] = messages.join(' ');
      }
      setErrors(next);
    }
  };
  return (
    <Stack>
      {tips.map((tip) => {
        const text = texts[tip.bet_category_id] ?? '';
        return (
          <Textarea
            key={tip.bet_category_id}
            label={betCategoryLabel({ name: tip.bet_category, code: tip.code })}
            description={`SMS pages: ${smsPages(text)} | Characters: ${text.length}`}
            autosize
            minRows={3}
            value={text}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setTexts((all) => ({ ...all, [tip.bet_category_id]: value }));
            }}
            error={errors[tip.bet_category_id]}
          />
        );
      })}
      <Group justify="flex-end">
        <Button onClick={() => void submit()} loading={save.isPending} disabled={save.isPending}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}

/** /tips/posts/update-sms-tips: one textarea per bet category; saving goes to view-sms-tips. */
export function UpdateSmsTipsPage() {
  const tips = useSmsTipsForm();
  return (
    <Stack>
      <Title order={2}>Update SMS Tips</Title>
      <Card withBorder>{tips.data ? <SmsTipsForm tips={tips.data.posts} /> : <LoadState failed={tips.isError} what="form" />}</Card>
    </Stack>
  );
}
