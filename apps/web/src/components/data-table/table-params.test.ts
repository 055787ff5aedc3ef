import { describe, expect, it } from 'vitest';
import { LISTS, type ListDefinition } from '@betdesk/contract';
import { filtersOf, listQueryOf, readTableParams, writeTableParams } from './table-params.ts';

const mpesa: ListDefinition = LISTS.mpesaTransactions;
const clients: ListDefinition = LISTS.clients;

describe('table params in the URL', () => {
  it('defaults to the list\u2019s first sort and direction (newest first), page 1, 50 rows', () => {
    const state = readTableParams(new URLSearchParams(), mpesa);
    expect(state).toEqual({
      page: 1,
      perPage: 50,
      search: '',
      sort: 'transaction_timestamp',
      dir: 'desc',
      from: undefined,
      to: undefined,
    });
  });

  it('reads what it wrote, and a new sort, search or range goes back to page 1', () => {
    let params = writeTableParams(new URLSearchParams(), { page: 4 }, mpesa);
    expect(params.toString()).toBe('page=4');
    params = writeTableParams(params, { sort: 'amount', dir: 'desc' }, mpesa);
    expect(params.get('page')).toBeNull();
    params = writeTableParams(params, { from: '2026-11-17', to: '2026-11-23' }, mpesa);
    params = writeTableParams(params, { search: ' wanjiru ' }, mpesa);
    expect(readTableParams(params, mpesa)).toMatchObject({
      page: 1,
      sort: 'amount',
      dir: 'desc',
      from: '2026-11-17',
      to: '2026-11-23',
      search: 'wanjiru',
    });
  });

  it('keeps a plain URL for the default order', () => {
    const sorted = writeTableParams(new URLSearchParams(), { sort: 'name', dir: 'asc' }, clients);
    expect(sorted.toString()).toBe('sort=name&dir=asc');
    const back = writeTableParams(sorted, { sort: 'joined_on', dir: 'desc' }, clients);
    expect(back.toString()).toBe('');
  });

  it('ignores what a hand-edited URL gets wrong: unknown sort, bad dates, dates on an undated list', () => {
    const params = new URLSearchParams('sort=password&dir=sideways&from=2026-02-30&to=yesterday&perPage=7&page=-2');
    expect(readTableParams(params, mpesa)).toMatchObject({
      page: 1,
      perPage: 50,
      sort: 'transaction_timestamp',
      dir: 'desc',
      from: undefined,
      to: undefined,
    });
    expect(readTableParams(new URLSearchParams('from=2026-11-01'), clients).from).toBeUndefined();
  });

  it('swaps a range given backwards', () => {
    const state = readTableParams(new URLSearchParams('from=2026-11-23&to=2026-11-01'), mpesa);
    expect([state.from, state.to]).toEqual(['2026-11-01', '2026-11-23']);
  });

  it('sends the list endpoint paging and filters, and the export the same filters without paging', () => {
    const state = readTableParams(new URLSearchParams('page=2&search=ken&from=2026-11-17&to=2026-11-23&sort=amount&dir=asc'), mpesa);
    expect(listQueryOf(state, mpesa)).toEqual({
      page: 2,
      perPage: 50,
      search: 'ken',
      sort: 'amount',
      dir: 'asc',
      from: '2026-11-17',
      to: '2026-11-23',
    });
    expect(filtersOf(state, mpesa)).toEqual({ search: 'ken', sort: 'amount', dir: 'asc', from: '2026-11-17', to: '2026-11-23' });
  });

  it('keeps two tables of one screen apart by prefix', () => {
    const params = writeTableParams(new URLSearchParams('page=3'), { page: 2 }, LISTS.clientBets, { prefix: 'bets' });
    expect(params.toString()).toBe('page=3&bets.page=2');
    expect(readTableParams(params, LISTS.clientBets, { prefix: 'bets' }).page).toBe(2);
  });
});
