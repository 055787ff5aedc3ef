import {
  IconBallFootball,
  IconCash,
  IconCategory,
  IconChartBar,
  IconCoins,
  IconFileSearch,
  IconShieldLock,
  IconGift,
  IconHistory,
  IconInbox,
  IconMessage,
  IconReceipt,
  IconReceiptTax,
  IconSettings,
  IconDatabase,
  IconSpeakerphone,
  IconTag,
  IconTrophy,
  IconUserCheck,
  IconUsers,
  IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';
import { can, type Permission, type Role } from '@betdesk/contract';
import { paths } from '@/config/paths.ts';

/**
 * The sidebar of spec section 2 as data. Every entry names the permission of the contract's matrix
 * that shows it; admin-only entries are the ones whose permission only admins hold (spec 6).
 */
export interface MenuLink {
  label: string;
  to: string;
  permission: Permission;
}

export interface MenuEntry {
  label: string;
  icon: Icon;
  permission: Permission;
  /** A direct link, or */
  to?: string;
  /** sub-entries shown under it. */
  links?: MenuLink[];
}

export interface MenuSection {
  title: string;
  entries: MenuEntry[];
}

export const menu: MenuSection[] = [
  {
    title: 'TIPS SECTION',
    entries: [
      {
        label: 'Premium Tips',
        icon: IconBallFootball,
        permission: 'manage:tips-content',
        links: [
          { label: 'Add post', to: paths.tips.addPost, permission: 'manage:tips-content' },
          { label: 'All posts', to: paths.tips.allPosts, permission: 'manage:tips-content' },
          { label: 'Update SMS tips', to: paths.tips.updateSmsTips, permission: 'manage:tips-content' },
          { label: 'View SMS tips', to: paths.tips.viewSmsTips, permission: 'manage:tips-content' },
          { label: 'Enter results', to: paths.tips.results, permission: 'manage:tips-content' },
          { label: 'Track Record', to: paths.tips.record, permission: 'manage:tips-content' },
        ],
      },
      { label: 'Update Winnings', icon: IconTrophy, permission: 'manage:tips-content', to: paths.tips.winnings },
      {
        label: 'Subscribers',
        icon: IconUsersGroup,
        permission: 'manage:tips-subscribers',
        links: [
          { label: 'Add', to: paths.tips.addSubscriber, permission: 'manage:tips-subscribers' },
          { label: 'Active', to: paths.tips.activeSubscribers, permission: 'manage:tips-subscribers' },
          { label: 'All Subscribers', to: paths.tips.allSubscribers, permission: 'view:tips-subscribers-all' },
        ],
      },
      {
        label: 'Subscriptions',
        icon: IconReceipt,
        permission: 'view:tips-subscriptions-active',
        links: [
          { label: 'Active', to: paths.tips.activeSubscriptions, permission: 'view:tips-subscriptions-active' },
          { label: 'All Subscriptions', to: paths.tips.allSubscriptions, permission: 'view:tips-subscriptions-all' },
        ],
      },
      {
        label: 'Tips Prices',
        icon: IconTag,
        permission: 'manage:tips-prices',
        links: [
          { label: 'Web tips', to: paths.tips.webTipsPrices, permission: 'manage:tips-prices' },
          { label: 'SMS tips', to: paths.tips.smsTipsPrices, permission: 'manage:tips-prices' },
        ],
      },
      { label: 'Mpesa Transactions', icon: IconCash, permission: 'view:tips-deposits', to: paths.tips.mpesa },
    ],
  },
  {
    title: 'BET4ME SECTION',
    entries: [
      {
        label: 'My Clients',
        icon: IconUserCheck,
        permission: 'manage:clients',
        links: [
          { label: 'Active', to: paths.clients.active, permission: 'manage:clients' },
          { label: 'All', to: paths.clients.all, permission: 'manage:clients' },
        ],
      },
      {
        // Bet and bonus screens are open to staff (their own clients), but the spec shows these
        // menu entries to admins only; the matrix's admin-only money totals are what they add.
        label: 'Bet History',
        icon: IconHistory,
        permission: 'view:money-totals',
        links: [
          { label: 'Open', to: paths.bets.open, permission: 'view:money-totals' },
          { label: 'Closed', to: paths.bets.closed, permission: 'view:money-totals' },
        ],
      },
      {
        label: 'Bonus History',
        icon: IconGift,
        permission: 'view:money-totals',
        links: [
          { label: 'All', to: paths.bonuses.all, permission: 'view:money-totals' },
          { label: 'Paid', to: paths.bonuses.paid, permission: 'view:money-totals' },
          { label: 'Unpaid', to: paths.bonuses.unpaid, permission: 'view:money-totals' },
        ],
      },
      {
        label: 'Subscriptions',
        icon: IconCoins,
        permission: 'view:subscriptions',
        links: [
          { label: 'Recent', to: paths.subscriptions.recent, permission: 'view:subscriptions' },
          { label: 'All', to: paths.subscriptions.all, permission: 'view:subscriptions' },
        ],
      },
      {
        label: 'Mpesa Transactions',
        icon: IconCash,
        permission: 'view:mpesa',
        links: [
          { label: 'Transactions', to: paths.mpesa.all, permission: 'view:mpesa' },
          { label: 'Unclaimed', to: paths.mpesa.unclaimed, permission: 'view:mpesa' },
          { label: 'Reconciliation', to: paths.mpesa.reconciliation, permission: 'reconcile:payments' },
          { label: 'Refunds', to: paths.refunds, permission: 'manage:refunds' },
        ],
      },
      {
        label: 'Users',
        icon: IconUsers,
        permission: 'manage:users',
        links: [
          { label: 'My Users', to: paths.users.all, permission: 'manage:users' },
          { label: 'Assign clients', to: paths.users.assignClients, permission: 'assign:clients' },
        ],
      },
      { label: 'SMS Log', icon: IconMessage, permission: 'view:sms-log', to: paths.sms.log },
      { label: 'SMS Inbox', icon: IconInbox, permission: 'view:sms-inbox', to: paths.sms.inbox },
      { label: 'Broadcasts', icon: IconSpeakerphone, permission: 'send:broadcasts', to: paths.sms.broadcasts },
      { label: 'Settings', icon: IconSettings, permission: 'manage:settings', to: paths.settings },
      { label: 'Backups', icon: IconDatabase, permission: 'manage:backups', to: paths.backups },
      { label: 'Tax', icon: IconReceiptTax, permission: 'manage:tax', to: paths.tax },
      { label: 'Catalogue', icon: IconCategory, permission: 'manage:catalogue', to: paths.catalogue },
      { label: 'Reports', icon: IconChartBar, permission: 'view:reports', to: paths.reports },
      { label: 'Audit Log', icon: IconFileSearch, permission: 'view:audit', to: paths.audit },
      { label: 'Privacy', icon: IconShieldLock, permission: 'manage:privacy', to: paths.privacy },
    ],
  },
];

/** The menu a role sees: entries and sub-entries it holds the permission for, empty ones dropped. */
export function menuFor(role: Role, sections: readonly MenuSection[] = menu): MenuSection[] {
  return sections
    .map((section) => ({
      ...section,
      entries: section.entries
        .filter((entry) => can(role, entry.permission))
        .map((entry) =>
          entry.links ? { ...entry, links: entry.links.filter((link) => can(role, link.permission)) } : entry,
        )
        .filter((entry) => entry.to !== undefined || (entry.links?.length ?? 0) > 0),
    }))
    .filter((section) => section.entries.length > 0);
}
