import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Device } from '@betdesk/contract';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils.tsx';
import { DevicesCard } from './devices-card.tsx';

const desk: Device = {
  id: 7,
  device: 'Chrome 131 on Windows 10',
  ip: '41.90.1.2',
  signed_in_at: '2026-11-24T06:00:00Z',
  last_seen: '2026-11-25T09:00:00Z',
  current: true,
};
const phone: Device = { ...desk, id: 9, device: 'Chrome 130 on Android 14', ip: '105.160.3.4', current: false };

const fetchMock = vi.fn<typeof fetch>();
let live: Device[];

beforeEach(() => {
  live = [desk, phone];
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    if (String(url) === '/api/auth/devices') return jsonResponse(200, { items: live });
    if (String(url) === '/api/auth/devices/end') {
      const { session_id } = JSON.parse(String(init?.body)) as { session_id: number };
      live = live.filter((d) => d.id !== session_id);
      return jsonResponse(200, { info: 'That device is signed out.' });
    }
    return jsonResponse(404, {});
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'debug').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('DevicesCard', () => {
  it('lists the sessions with device, IP and last seen, marks this one, and ends another', async () => {
    renderWithProviders(<DevicesCard />);
    const rows = await screen.findAllByTestId('device-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Chrome 131 on Windows 10');
    expect(rows[0]).toHaveTextContent('IP 41.90.1.2');
    expect(within(rows[0]!).getByText('This device')).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button')).toBeNull();

    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'End session' }));
    await waitFor(() => expect(screen.getAllByTestId('device-row')).toHaveLength(1));
    expect(screen.queryByText('Chrome 130 on Android 14')).toBeNull();
  });
});
