import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '@/testing/test-utils.tsx';
import { DateRangeFilter } from './date-range-filter.tsx';

/** The filter as a list holds it: the dates in the list's state (its URL). */
function Harness({ from, to }: { from?: string; to?: string }) {
  const [range, setRange] = useState({ from, to });
  return <DateRangeFilter from={range.from} to={range.to} onChange={(f, t) => setRange({ from: f, to: t })} />;
}

describe('DateRangeFilter', () => {
  beforeEach(() => {
    // Sunday 2026-11-29, 10:00 in Nairobi: "This week" (from Monday) and "Last 7 days" are the same days.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-29T07:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('keeps showing the preset the user chose when another preset is the same days', () => {
    renderWithProviders(<Harness />);
    const select = screen.getByTestId('date-preset') as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'last-7-days' } });
    expect(select.value).toBe('last-7-days');
    expect(screen.getByTestId('date-from')).toHaveValue('2026-11-23');
    expect(screen.getByTestId('date-to')).toHaveValue('2026-11-29');
    fireEvent.change(select, { target: { value: 'this-week' } });
    expect(select.value).toBe('this-week');
  });

  it('shows the first preset of the dates when they come from a URL, and Custom once they are edited', () => {
    renderWithProviders(<Harness from="2026-11-23" to="2026-11-29" />);
    const select = screen.getByTestId('date-preset') as HTMLSelectElement;
    expect(select.value).toBe('this-week');
    fireEvent.change(screen.getByTestId('date-from'), { target: { value: '2026-11-24' } });
    expect(select.value).toBe('custom');
  });
});
