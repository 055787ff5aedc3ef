import { useState } from 'react';
import { Anchor, Badge, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link, useNavigate } from 'react-router';
import type { SearchKind } from '@betdesk/contract';
import { useSearchAnything } from '../api/search-anything.ts';

const KIND_LABELS: Record<SearchKind, string> = {
  payment: 'Payment',
  client: 'Client',
  subscriber: 'Subscriber',
  bet: 'Bet',
  refund: 'Refund',
  invoice: 'Invoice',
};

/** Waits this long after the last key before asking: a receipt typed fast is one request. */
const TYPING_PAUSE_MS = 200;

/**
 * The search for anything (decision 067): as staff type, the receipts, phones, names and numbers it
 * matches, each a link to its screen. Loaded on the first opening, not with the frame.
 */
export default function SearchDialog({ onClose }: { onClose: () => void }) {
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text, TYPING_PAUSE_MS);
  const found = useSearchAnything(q);
  const navigate = useNavigate();
  const results = q.trim() ? (found.data?.results ?? []) : [];
  const asked = q.trim().length > 0 && found.data !== undefined;
  // Composed by hand: Mantine's own modal header is a <header>, a second banner landmark beside the top bar's.
  return (
    <Modal.Root opened onClose={onClose} size="lg">
      <Modal.Overlay />
      <Modal.Content data-testid="search-dialog">
        <Modal.Body pt="md">
          <Stack gap="sm">
            <Group justify="space-between" wrap="nowrap">
              {/* Modal.Title (an h2) names the dialog. */}
              <Modal.Title fz="h4" fw={700}>
                Search
              </Modal.Title>
              <Modal.CloseButton aria-label="Close" />
            </Group>
            <TextInput
              label="Receipt, phone, name, or bet, refund or invoice number"
              placeholder="e.g. SKQ7ABC123, 0722 000 111, Njeri"
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              onKeyDown={(event) => {
                // Enter opens the first result.
                if (event.key === 'Enter' && results[0]) {
                  event.preventDefault();
                  void navigate(results[0].href);
                  onClose();
                }
              }}
              rightSection={found.isFetching ? <Loader size="xs" aria-label="Searching" /> : null}
              data-autofocus
              data-testid="search-input"
            />
            <Text size="sm" c="dimmed" role="status" aria-live="polite" data-testid="search-status">
              {!asked ? 'Type to search.' : results.length === 0 ? 'Nothing found.' : `${results.length} found.`}
            </Text>
            {results.length > 0 && (
              <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Search results" data-testid="search-results">
                {results.map((r) => (
                  <li key={`${r.kind}-${r.id}`}>
                    <Group gap="xs" wrap="nowrap" align="flex-start">
                      <Badge variant="light" size="sm" w={92} style={{ flexShrink: 0 }}>
                        {KIND_LABELS[r.kind]}
                      </Badge>
                      <div style={{ minWidth: 0 }}>
                        <Anchor component={Link} to={r.href} onClick={onClose} fw={600} data-testid={`search-result-${r.kind}`}>
                          {r.label}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {r.detail}
                        </Text>
                      </div>
                    </Group>
                  </li>
                ))}
              </Stack>
            )}
          </Stack>
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
