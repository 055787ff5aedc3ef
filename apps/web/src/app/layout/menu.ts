import {
  IconBallFootball,
  IconCash,
  IconCategory,
  IconTicket,
  IconChartBar,
  IconCoins,
  IconFileSearch,
  IconShieldLock,
  IconHandStop,
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
  /** Hidden from a role that holds this permission too (it reaches the same screen by another entry). */
  unlessCan?: Permission;
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

/** An entry with sub-entries; each sub-entry needs the entry's permission unless it names its own. */
function withLinks(
  label: string,
  icon: Icon,
  permission: Permission,
  links: [label: string, to: string, permission?: Permission, unlessCan?: Permission][],
): MenuEntry {
  return {
    label,
    icon,
    permission,
    links: links.map(([text, to, own, unlessCan]) => ({ label: text, to, permission: own ?? permission, ...(unlessCan ? { unlessCan } : {}) })),
  };
}

export const menu: MenuSection[] = [
  {
    title: 'TIPS SECTION',
    entries: [
      withLinks('Premium Tips', IconBallFootball, 'manage:tips-content', [
        ['Add post', paths.tips.addPost],
        ['All posts', paths.tips.allPosts],
        ['Update SMS tips', paths.tips.updateSmsTips],
        ['View SMS tips', paths.tips.viewSmsTips],
        ['Enter results', paths.tips.results],
        ['Track Record', paths.tips.record],
      ]),
      { label: 'Update Winnings', icon: IconTrophy, permission: 'manage:tips-content', to: paths.tips.winnings },
      withLinks('Subscribers', IconUsersGroup, 'manage:tips-subscribers', [
        ['Add', paths.tips.addSubscriber],
        ['Active', paths.tips.activeSubscribers],
        ['All Subscribers', paths.tips.allSubscribers, 'view:tips-subscribers-all'],
      ]),
      withLinks('Subscriptions', IconReceipt, 'view:tips-subscriptions-active', [
        ['Active', paths.tips.activeSubscriptions],
        ['All Subscriptions', paths.tips.allSubscriptions, 'view:tips-subscriptions-all'],
      ]),
      withLinks('Tips Prices', IconTag, 'manage:tips-prices', [
        ['Web tips', paths.tips.webTipsPrices],
        ['SMS tips', paths.tips.smsTipsPrices],
      ]),
      { label: 'Mpesa Transactions', icon: IconCash, permission: 'view:tips-deposits', to: paths.tips.mpesa },
    ],
  },
  {
    title: 'BET4ME SECTION',
    entries: [
      withLinks('My Clients', IconUserCheck, 'manage:clients', [
        ['Active', paths.clients.active],
        ['All', paths.clients.all],
        // Staff enter profits from here; admins reach the same list under Bet History.
        ['Open bets', paths.bets.open, 'manage:bets', 'view:money-totals'],
      ]),
      // Bet and bonus screens are open to staff (their own clients), but the spec shows these
      // menu entries to admins only; the matrix's admin-only money totals are what they add.
      withLinks('Bet History', IconHistory, 'view:money-totals', [
        ['Open', paths.bets.open],
        ['Closed', paths.bets.closed],
      ]),
      withLinks('Bonus History', IconGift, 'view:money-totals', [
        ['All', paths.bonuses.all],
        ['Paid', paths.bonuses.paid],
        ['Unpaid', paths.bonuses.unpaid],
      ]),
      withLinks('Subscriptions', IconCoins, 'view:subscriptions', [
        ['Recent', paths.subscriptions.recent],
        ['All', paths.subscriptions.all],
      ]),
      withLinks('Mpesa Transactions', IconCash, 'view:mpesa', [
        ['Transactions', paths.mpesa.all],
        ['Unclaimed', paths.mpesa.unclaimed],
        ['Reconciliation', paths.mpesa.reconciliation, 'reconcile:payments'],
        ['Refunds', paths.refunds, 'manage:refunds'],
      ]),
      withLinks('Users', IconUsers, 'manage:users', [
        ['My Users', paths.users.all],
        ['Assign clients', paths.users.assignClients, 'assign:clients'],
      ]),
      { label: 'SMS Log', icon: IconMessage, permission: 'view:sms-log', to: paths.sms.log },
      { label: 'SMS Costs', icon: IconMessage, permission: 'view:sms-log', to: paths.sms.costs },
      { label: 'SMS Inbox', icon: IconInbox, permission: 'view:sms-inbox', to: paths.sms.inbox },
      { label: 'Broadcasts', icon: IconSpeakerphone, permission: 'send:broadcasts', to: paths.sms.broadcasts },
      { label: 'Settings', icon: IconSettings, permission: 'manage:settings', to: paths.settings },
      { label: 'Backups', icon: IconDatabase, permission: 'manage:backups', to: paths.backups },
      { label: 'Tax', icon: IconReceiptTax, permission: 'manage:tax', to: paths.tax },
      { label: 'Catalogue', icon: IconCategory, permission: 'manage:catalogue', to: paths.catalogue },
      { label: 'Promo codes', icon: IconTicket, permission: 'manage:promo-codes', to: paths.promoCodes },
      { label: 'Reports', icon: IconChartBar, permission: 'view:reports', to: paths.reports },
      { label: 'Agents', icon: IconUsersGroup, permission: 'manage:agents', to: paths.agents },
      { label: 'Audit Log', icon: IconFileSearch, permission: 'view:audit', to: paths.audit },
      { label: 'Privacy', icon: IconShieldLock, permission: 'manage:privacy', to: paths.privacy },
      { label: 'Self-exclusion', icon: IconHandStop, permission: 'view:exclusions', to: paths.exclusions },
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
          entry.links
            ? { ...entry, links: entry.links.filter((link) => can(role, link.permission) && !(link.unlessCan && can(role, link.unlessCan))) }
            : entry,
        )
        .filter((entry) => entry.to !== undefined || (entry.links?.length ?? 0) > 0),
    }))
    .filter((section) => section.entries.length > 0);
}
