import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { refusalStore } from '@/lib/http.ts';
import { renderWithProviders } from '@/testing/test-utils.tsx';
import { EmptyText } from './empty-text.tsx';

describe('an empty table', () => {
  it('says "No records found." until a read of this screen is refused, then gives the reason', () => {
    window.history.replaceState(null, '', '/audit');
    refusalStore.set(null);
    renderWithProviders(<EmptyText text="No records found." />);
    expect(screen.getByText('No records found.')).toBeInTheDocument();
    act(() => refusalStore.set({ screen: '/audit', text: 'You are not authorized to perform that action.' }));
    expect(screen.getByTestId('table-refused')).toHaveTextContent('You are not authorized to perform that action.');
  });

  it('keeps its own text when the refusal was on another screen', () => {
    window.history.replaceState(null, '', '/clients/all');
    refusalStore.set({ screen: '/audit', text: 'You are not authorized to perform that action.' });
    renderWithProviders(<EmptyText text="No clients." />);
    expect(screen.getByText('No clients.')).toBeInTheDocument();
  });
});
