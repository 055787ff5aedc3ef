import { describe, expect, it } from 'vitest';
import { menuFor } from './menu.ts';

function outline(role: 'admin' | 'staff') {
  return menuFor(role).map((section) => ({
    title: section.title,
    entries: section.entries.map((entry) => [entry.label, entry.to ?? entry.links?.map((l) => `${l.label} ${l.to}`)]),
  }));
}

describe('sidebar menu (spec 2 and 6)', () => {
  it('shows admins both sections with every entry', () => {
    expect(outline('admin')).toEqual([
      {
        title: 'TIPS SECTION',
        entries: [
          [
            'Premium Tips',
            [
              'Add post /tips/posts/add',
              'All posts /tips/posts/all',
              'Update SMS tips /tips/posts/update-sms-tips',
              'View SMS tips /tips/posts/view-sms-tips',
              'Enter results /tips/results',
              'Track Record /tips/record',
            ],
          ],
          ['Update Winnings', '/tips/winnings'],
          [
            'Subscribers',
            ['Add /tips/subscribers/add', 'Active /tips/subscribers/active', 'All Subscribers /tips/subscribers/all'],
          ],
          ['Subscriptions', ['Active /tips/subscriptions/active', 'All Subscriptions /tips/subscriptions/all']],
          ['Tips Prices', ['Web tips /tips/prices/web-tips', 'SMS tips /tips/prices/sms-tips']],
          ['Mpesa Transactions', '/tips/mpesa/all'],
        ],
      },
      {
        title: 'BET4ME SECTION',
        entries: [
          ['My Clients', ['Active /clients/active', 'All /clients']],
          ['Bet History', ['Open /bets/open', 'Closed /bets/closed']],
          ['Bonus History', ['All /bonuses', 'Paid /bonuses/paid', 'Unpaid /bonuses/unpaid']],
          ['Subscriptions', ['Recent /subscriptions', 'All /subscriptions/all']],
          ['Mpesa Transactions', ['Transactions /mpesa', 'Unclaimed /mpesa/unclaimed', 'Reconciliation /mpesa/reconciliation', 'Refunds /refunds']],
          ['Users', ['My Users /users', 'Assign clients /users/assign-clients']],
          ['SMS Log', '/sms'],
          ['SMS Costs', '/sms/costs'],
          ['SMS Inbox', '/sms/inbox'],
          ['Broadcasts', '/sms/broadcasts'],
          ['Settings', '/settings'],
          ['Backups', '/backups'],
          ['Tax', '/tax'],
          ['Catalogue', '/catalogue'],
          ['Promo codes', '/promo-codes'],
          ['Reports', '/reports'],
          ['Agents', '/agents'],
          ['Audit Log', '/audit'],
          ['Privacy', '/privacy'],
          ['Self-exclusion', '/exclusions'],
        ],
      },
    ]);
  });

  it('shows staff only Premium Tips, Update Winnings, Add and Active Subscribers, Active Subscriptions and My Clients', () => {
    expect(outline('staff')).toEqual([
      {
        title: 'TIPS SECTION',
        entries: [
          [
            'Premium Tips',
            [
              'Add post /tips/posts/add',
              'All posts /tips/posts/all',
              'Update SMS tips /tips/posts/update-sms-tips',
              'View SMS tips /tips/posts/view-sms-tips',
              'Enter results /tips/results',
              'Track Record /tips/record',
            ],
          ],
          ['Update Winnings', '/tips/winnings'],
          ['Subscribers', ['Add /tips/subscribers/add', 'Active /tips/subscribers/active']],
          ['Subscriptions', ['Active /tips/subscriptions/active']],
        ],
      },
      {
        title: 'BET4ME SECTION',
        entries: [['My Clients', ['Active /clients/active', 'All /clients', 'Open bets /bets/open']]],
      },
    ]);
  });
});
