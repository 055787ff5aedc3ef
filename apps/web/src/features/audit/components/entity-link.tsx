import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { auditEntityName } from '@betdesk/contract';
import { paths } from '@/config/paths.ts';

/** The screen that shows an audited record (a list when the record has no page of its own). */
function screenOf(entity: string, id: string | null): string | null {
  switch (entity) {
    case 'client':
      return id ? `/clients/${id}` : paths.clients.all;
    case 'tips_post':
      return id ? `/tips/posts/view/${id}` : paths.tips.allPosts;
    case 'tips_subscriber':
      return id ? `/tips/subscribers/view/${id}` : paths.tips.allSubscribers;
    case 'user':
      return id ? `/users/${id}/clients` : paths.users.all;
    case 'mpesa_payment':
      return paths.mpesa.all;
    case 'bet':
      return paths.bets.closed;
    case 'bonus_payment':
      return paths.bonuses.paid;
    case 'subscription':
      return paths.subscriptions.all;
    case 'price_package':
      return paths.tips.smsTipsPrices;
    case 'sms_tip':
      return paths.tips.viewSmsTips;
    case 'winnings_content':
      return paths.tips.winnings;
    // A ticket and its legs show on Enter results (recent tickets), where a result is corrected.
    case 'tip_ticket':
    case 'tip_selection':
      return paths.tips.results;
    case 'privacy_request':
    case 'data_breach':
      return paths.privacy;
    case 'sms_message':
      return paths.sms.log;
    case 'setting':
      return paths.settings;
    case 'bet_category':
    case 'post_category':
    case 'bet4me_plan':
    case 'image_type':
      return paths.catalogue;
    default:
      return null;
  }
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
