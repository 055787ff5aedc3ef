import { useState } from 'react';
import { Alert, Button, Card, Group, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { betCategoryLabel, type NewSubscriberForm } from '@betdesk/contract';
import { LoadState } from '@/components/load-state.tsx';
import { paths } from '@/config/paths.ts';
import { isHttpError } from '@/lib/http.ts';
import { useSubscriberForm } from '../api/get-subscriber-form.ts';
import { useStoreSubscriber } from '../api/store-subscriber.ts';

type Field = keyof NewSubscriberForm;
const mapOptions = (map: Record<string, string>) => Object.entries(map).map(([value, label]) => ({ value, label }));

/** /tips/subscribers/add: name, phone, bet category, 'Get Tips Via' and duration; saving goes to the active list. */
export function AddSubscriberPage() {
  const choices = useSubscriberForm();
  const store = useStoreSubscriber();
  const navigate = useNavigate();
  const [values, setValues] = useState({ name: '', phone: '', bet_category_id: null as string | null, medium: null as string | null, duration: null as string | null });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [banner, setBanner] = useState<string | null>(null);
  const fieldOf = { medium: 'transmission_medium_id' } as Record<string, Field>;
  const set = (key: keyof typeof values, value: string | null) => {
    setValues((v) => ({ ...v, [key]: value }));
    const field = fieldOf[key] ?? (key as Field);
    setErrors(({ [field]: _fixed, ...rest }) => rest);
  };

  const submit = async () => {
    setErrors({});
    setBanner(null);
    try {
      await store.mutateAsync({
        name: values.name,
        phone: values.phone,
        // An empty select is sent as null, never 0: the server answers 'Choose a ...' under it.
        bet_category_id: values.bet_category_id,
        transmission_medium_id: values.medium as NewSubscriberForm['transmission_medium_id'],
        duration: values.duration,
      });
      await navigate(paths.tips.activeSubscribers);
    } catch (error) {
      if (!isHttpError(error)) return;
      setBanner(error.info);
      setErrors(Object.fromEntries(Object.entries(error.errors ?? {}).map(([f, m]) => [f, m.join(' ')])));
    }
  };

  return (
    <Stack>
      <Title order={1} size="h2">Add Subscriber</Title>
      <Card withBorder maw={720}>
        {!choices.data ? (
          <LoadState failed={choices.isError} what="form" />
        ) : (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <Stack>
              {banner && (
                <Alert color="red" role="alert" data-testid="form-error">
                  {banner}
                </Alert>
              )}
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label="Name" required value={values.name} onChange={(e) => set('name', e.currentTarget.value)} error={errors.name} />
                <TextInput
                  label="Phone"
                  required
                  placeholder="07XXXXXXXX"
                  value={values.phone}
                  onChange={(e) => set('phone', e.currentTarget.value)}
                  error={errors.phone}
                />
                <Select
                  label="Bet category"
                  required
                  placeholder="Choose a bet category"
                  data={choices.data.bet_categories.map((b) => ({ value: String(b.id), label: betCategoryLabel(b) }))}
                  value={values.bet_category_id}
                  onChange={(v) => set('bet_category_id', v)}
                  error={errors.bet_category_id}
                />
                <Select
                  label="Get Tips Via"
                  required
                  placeholder="SMS or Web"
                  data={mapOptions(choices.data.media)}
                  value={values.medium}
                  onChange={(v) => set('medium', v)}
                  error={errors.transmission_medium_id}
                />
                <Select
                  label="Duration"
                  required
                  placeholder="Choose a duration"
                  data={mapOptions(choices.data.durations)}
                  value={values.duration}
                  onChange={(v) => set('duration', v)}
                  error={errors.duration}
                />
              </SimpleGrid>
              <Group justify="flex-end">
                <Button type="submit" loading={store.isPending} disabled={store.isPending}>
                  Save Subscriber
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Card>
    </Stack>
  );
}
