import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { localPhone } from '@betdesk/contract';
import { WIDTH, type DataTableColumn } from '@/components/data-table/index.ts';

/**
 * The first columns of a list of clients' records (bets, bonuses, bonus payments, Bet4Me
 * subscriptions): the client, linked to their page and heading the phone card, then their phone.
 */
export function clientColumns<Row extends { client_id: number; name: string; phone: string }>(): DataTableColumn<Row>[] {
  return [
    {
      key: 'name',
      header: 'Client',
      card: 'title',
      render: (row) => (
        <Anchor component={Link} to={`/clients/${row.client_id}`}>
          {row.name}
        </Anchor>
      ),
    },
    { key: 'phone', header: 'Phone', render: (row) => localPhone(row.phone), width: WIDTH.phone, fit: true },
  ];
}
