import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { auditEntityName } from '@betdesk/contract';
import { paths } from '@/config/paths.ts';

/** Audited records with a page of their own. */
const RECORD_PAGES: Record<string, (id: string) => string> = {
  client: (id) => `/clients/${id}`,
  tips_post: (id) => `/tips/posts/view/${id}`,
  tips_subscriber: (id) => `/tips/subscribers/view/${id}`,
  user: (id) => `/users/${id}/clients`,
};

/** The list that shows an audited record (or the list of those with a page, when no id is given). */
const LIST_PAGES: Record<string, string> = {
  client: paths.clients.all,
  tips_post: paths.tips.allPosts,
  tips_subscriber: paths.tips.allSubscribers,
  user: paths.users.all,
  mpesa_payment: paths.mpesa.all,
  bet: paths.bets.closed,
  bonus_payment: paths.bonuses.paid,
  subscription: paths.subscriptions.all,
  price_package: paths.tips.smsTipsPrices,
  sms_tip: paths.tips.viewSmsTips,
  winnings_content: paths.tips.winnings,
  // A ticket and its legs show on Enter results (recent tickets), where a result is corrected.
  tip_ticket: paths.tips.results,
  tip_selection: paths.tips.results,
  privacy_request: paths.privacy,
  data_breach: paths.privacy,
  self_exclusion: paths.exclusions,
  under_18_mark: paths.exclusions,
  sms_message: paths.sms.log,
  setting: paths.settings,
  bet_category: paths.catalogue,
  post_category: paths.catalogue,
  bet4me_plan: paths.catalogue,
  image_type: paths.catalogue,
};

/** The screen that shows an audited record (a list when the record has no page of its own). */
function screenOf(entity: string, id: string | null): string | null {
  if (id && Object.hasOwn(RECORD_PAGES, entity)) return RECORD_PAGES[entity]!(id);
  return Object.hasOwn(LIST_PAGES, entity) ? LIST_PAGES[entity]! : null;
}

export function EntityLink({ entity, id }: { entity: string; id: string | null }) {
  const label = id ? `${auditEntityName(entity)} #${id}` : auditEntityName(entity);
  const to = screenOf(entity, id);
  if (!to) return <Text span size="sm">{label}</Text>;
  return (
    <Anchor component={Link} to={to} size="sm">
      {label}
    </Anchor>
  );
}
