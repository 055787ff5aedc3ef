import { useState } from 'react';
import { Button, Card, Group, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { betCategoryLabel, type newSubscriberForm, type NewSubscriberForm, type ResponseOf } from '@betdesk/contract';
import { LoadState } from '@/components/load-state.tsx';
import { PageForm } from '@/components/page-form.tsx';
import { paths } from '@/config/paths.ts';
import { isHttpError } from '@/lib/http.ts';
import { useSubscriberForm } from '../api/get-subscriber-form.ts';
import { useStoreSubscriber } from '../api/store-subscriber.ts';

type Field = keyof NewSubscriberForm;
const mapOptions = (map: Record<string, string>) => Object.entries(map).map(([value, label]) => ({ value, label }));

/** The three choices of the form, each from the lists the server offers. */
function selectsOf(choices: ResponseOf<typeof newSubscriberForm>) {
  return [
    { key: 'bet_category_id', label: 'Bet category', placeholder: 'Choose a bet category', data: choices.bet_categories.map((b) => ({ value: String(b.id), label: betCategoryLabel(b) })) },
    { key: 'medium', label: 'Get Tips Via', placeholder: 'SMS or Web', data: mapOptions(choices.media) },
    { key: 'duration', label: 'Duration', placeholder: 'Choose a duration', data: mapOptions(choices.durations) },
  ] as const;
}

/** /tips/subscribers/add: name, phone, bet category, 'Get Tips Via' and duration; saving goes to the active list. */
export function AddSubscriberPage() {
  const choices = useSubscriberForm();
  const store = useStoreSubscriber();
  const navigate = useNavigate();
  const [values, setValues] = useState({ name: '', phone: '', bet_category_id: null as string | null, medium: null as string | null, duration: null as string | null });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [banner, setBanner] = useState<string | null>(null);
  const fieldOf = (key: keyof typeof values): Field => (key === 'medium' ? 'transmission_medium_id' : key);
  const set = (key: keyof typeof values, value: string | null) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [fieldOf(key)]: _fixed, ...rest }) => rest);
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
          <PageForm onSubmit={submit} error={banner}>
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
              {selectsOf(choices.data).map(({ key, label, placeholder, data }) => (
                <Select
                  key={key}
                  label={label}
                  required
                  placeholder={placeholder}
                  data={data}
                  value={values[key]}
                  onChange={(v) => set(key, v)}
                  error={errors[fieldOf(key)]}
                />
              ))}
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" loading={store.isPending} disabled={store.isPending}>
                Save Subscriber
              </Button>
            </Group>
          </PageForm>
        )}
      </Card>
    </Stack>
  );
}
