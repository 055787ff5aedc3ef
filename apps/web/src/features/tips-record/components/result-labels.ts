import type { SelectionResult, TicketStatus } from '@betdesk/contract';

export const RESULT_LABELS: Record<SelectionResult, string> = {
  won: 'Won',
  lost: 'Lost',
  void: 'Void',
  half_won: '½ Won',
  half_lost: '½ Lost',
};

export const STATUS_COLORS: Record<TicketStatus, string> = { pending: 'gray', won: 'green', lost: 'red', void: 'yellow' };

export const matchName = (s: { home: string; away: string }) => `${s.home} - ${s.away}`;
