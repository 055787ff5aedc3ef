import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Textarea } from '@mantine/core';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';
import { SmsComposer } from './sms-composer.tsx';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    if (String(url) !== '/api/sms/estimate') return jsonResponse(404, {});
    const { text, recipients } = JSON.parse(String(init?.body)) as { text: string; recipients: number };
    const parts = text.length > 160 ? 2 : 1;
    return jsonResponse(200, { encoding: 'GSM-7', parts, per_part: 160, characters_left: 0, unicode_characters: [], recipients, price_per_part: 0.8, cost: recipients * parts * 0.8 });
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'debug').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function Composer({ start, recipients }: { start: string; recipients?: number | null }) {
  const [text, setText] = useState(start);
  return (
    <>
      <Textarea label="Message" value={text} onChange={(e) => setText(e.currentTarget.value)} />
      <SmsComposer text={text} onReplaceLookalikes={setText} recipients={recipients} />
    </>
  );
}

describe('SmsComposer', () => {
  it('counts the responsible-gambling lines and the opt-out text the server adds at the end (decision 061)', () => {
    const lines = '18+. Gambling is addictive. Play responsibly.';
    // 110 characters alone and with the opt-out line: one part; with the lines too: 170, two parts.
    renderWithProviders(<SmsComposer text={'a'.repeat(110)} onReplaceLookalikes={() => {}} optOutText="STOP*456*9*5#" appendedText={lines} />);
    expect(screen.getByRole('status')).toHaveTextContent('GSM-7: 2 SMS parts');
    expect(screen.getByTestId('sms-composer-appended')).toHaveTextContent(lines);
  });

  it('counts as one types, in a polite live region, without asking the server for a single text', async () => {
    renderWithProviders(<Composer start="" />);
    const count = screen.getByRole('status');
    expect(count).toHaveAttribute('aria-live', 'polite');
    expect(count).toHaveTextContent('GSM-7: 1 SMS part');
    await userEvent.type(screen.getByLabelText('Message'), 'Hi €');
    expect(screen.getByTestId('sms-composer-left')).toHaveTextContent('155 characters left in this part (160 a part)');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('lists the curly apostrophe that makes it Unicode and replaces it with one click', async () => {
    renderWithProviders(<Composer start={`Arsenal’s ${'a'.repeat(70)}`} />);
    expect(screen.getByRole('status')).toHaveTextContent('Unicode: 2 SMS parts');
    expect(screen.getByTestId('sms-composer-unicode')).toHaveTextContent('’ U+2019');
    await userEvent.click(screen.getByRole('button', { name: 'Replace look-alikes' }));
    expect(screen.getByLabelText('Message')).toHaveValue(`Arsenal's ${'a'.repeat(70)}`);
    expect(screen.getByRole('status')).toHaveTextContent('GSM-7: 1 SMS part');
    expect(screen.queryByTestId('sms-composer-unicode')).toBeNull();
  });

  it('offers no replacement for Unicode that has no GSM-7 look-alike', () => {
    renderWithProviders(<Composer start="Tick ✓" />);
    expect(screen.getByTestId('sms-composer-unicode')).toHaveTextContent('✓ U+2713');
    expect(screen.queryByRole('button', { name: 'Replace look-alikes' })).toBeNull();
  });

  it('never shows the previous cost beside new parts while the new estimate loads', async () => {
    const release: (() => void)[] = [];
    fetchMock.mockImplementation(async (_url, init) => {
      const { text, recipients } = JSON.parse(String(init?.body)) as { text: string; recipients: number };
      const parts = /’/.test(text) ? 2 : 1;
      // The one-part estimate waits until the test lets it answer.
      if (parts === 1) await new Promise<void>((resolve) => release.push(resolve));
      return jsonResponse(200, { encoding: 'GSM-7', parts, per_part: 160, characters_left: 0, unicode_characters: [], recipients, price_per_part: 0.8, cost: recipients * parts * 0.8 });
    });
    renderWithProviders(<Composer start={`Arsenal’s ${'a'.repeat(70)}`} recipients={10} />);
    const status = screen.getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent(/Unicode: 2 SMS parts per person; about KES\s16\.00 for 10 recipients/));
    await userEvent.click(screen.getByRole('button', { name: 'Replace look-alikes' }));
    await waitFor(() => expect(status).toHaveTextContent('GSM-7: 1 SMS part per person; working out the cost…'));
    expect(status).not.toHaveTextContent('16.00');
    release.forEach((answer) => answer());
    await waitFor(() => expect(status).toHaveTextContent(/GSM-7: 1 SMS part per person; about KES\s8\.00 for 10 recipients/));
  });

  it('shows the cost of a fan-out from the estimate, and how to know the recipients while they are not', async () => {
    const { unmount } = renderWithProviders(<Composer start="Offer here" recipients={250} />);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/GSM-7: 1 SMS part per person; about KES\s200\.00 for 250 recipients/));
    unmount();
    renderWithProviders(<Composer start="Offer" recipients={null} />);
    expect(screen.getByRole('status')).toHaveTextContent('The cost shows once the recipients are known.');
  });
});
