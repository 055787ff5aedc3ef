import { describe, expect, it } from 'vitest';
import { readEventBlocks } from './live-events.ts';

describe('readEventBlocks', () => {
  it('reads complete events, skips comments and keeps a half-received one for later', () => {
    const { blocks, rest } = readEventBlocks(
      'retry: 3000\nevent: ready\ndata: {}\n\n: keep-alive\n\nevent: payment.received\ndata: {"amount":500}\n\nevent: bet.op',
    );
    expect(blocks).toEqual([
      { event: 'ready', data: '{}' },
      { event: 'payment.received', data: '{"amount":500}' },
    ]);
    expect(rest).toBe('event: bet.op');
  });
});
