import { AUDIT_ENTITY_NAMES } from '@betdesk/contract';

/**
 * Every action the audit trail records, with the kind of record it is about: the trail's one
 * vocabulary. `audit()` takes the record's kind from here, so an action that is not listed, or a
 * row under another kind of record, does not compile.
 */
export const AUDIT_ACTIONS = {
  'user.create': 'user',
  'user.update': 'user',
  'user.delete': 'user',
  'user.session-end': 'user',
  'user.password-change': 'user',
  'user.password-reset': 'user',
  'user.2fa-enable': 'user',
  'user.2fa-disable': 'user',
  'user.2fa-clear': 'user',
  'user.2fa-recovery-code': 'user',
  'admin-grant.request': 'admin_grant',
  'admin-grant.approve': 'admin_grant',
  'admin-grant.decline': 'admin_grant',
  // Assigning is recorded on the staff member who receives the clients, unassigning on the client.
  'client.assign': 'user',
  'client.unassign': 'client',

  'client.create': 'client',
  'client.update': 'client',
  'client.language': 'client',
  'client.passwords-reveal': 'client',
  'bet.open': 'bet',
  'bet.profit': 'bet',
  'bonus.pay': 'client',
  'bonus.reverse': 'client',

  'payment.match': 'mpesa_payment',
  'payment.claim': 'mpesa_payment',
  'payment.unclaim': 'mpesa_payment',
  'payment.request': 'stk_request',
  'portal.purchase': 'stk_request',
  'statement.upload': 'mpesa_statement',
  'statement.import_missing': 'mpesa_statement',

  'refund.request': 'refund',
  'refund.approve': 'refund',
  'refund.cancel': 'refund',
  'refund.done': 'refund',
  'refund.failed': 'refund',
  'refund.unknown': 'refund',
  'refund.held': 'refund',
  'refund.initiator-save': 'setting',

  'subscription.activate': 'subscription',
  'subscription.reverse': 'subscription',
  'subscription.shorten': 'subscription',
  'subscription.pause': 'subscription_pause',
  'auto-renew.request': 'standing_order',
  'auto-renew.approve': 'standing_order',
  'auto-renew.decline': 'standing_order',
  'auto-renew.stop': 'standing_order',
  'plan.create': 'bet4me_plan',
  'plan.update': 'bet4me_plan',

  'tips-post.create': 'tips_post',
  'tips-post.update': 'tips_post',
  'tips-post.delete': 'tips_post',
  'image-type.upload': 'image_type',
  'tip-ticket.create': 'tip_ticket',
  'tip-ticket.replace': 'tip_ticket',
  'tip-result.enter': 'tip_selection',
  'tip-result.correct': 'tip_selection',
  'tip-result.override-feed': 'tip_selection',
  'winnings.update': 'winnings_content',
  'tips-subscriber.create': 'tips_subscriber',
  'tips-subscriber.language': 'tips_subscriber',
  'price-package.create': 'price_package',
  'promo-code.create': 'promo_code',
  'promo-code.update': 'promo_code',
  'agent.create': 'agent',
  // An agent's payout (decision 093): asked, approved, and how M-Pesa ended it.
  'agent-payout.request': 'agent_payout',
  'agent-payout.approve': 'agent_payout',
  'agent-payout.paid': 'agent_payout',
  'agent-payout.failed': 'agent_payout',
  'agent-payout.unknown': 'agent_payout',
  'agent-payout.held': 'agent_payout',
  // A referrer's free days (decision 088), recorded on the subscription they got.
  'referral.reward': 'subscription',
  'price-package.update': 'price_package',
  'price-package.trial': 'price_package',
  'trial.start': 'trial_use',
  'sms-tip.update': 'bet_category',
  'bet-category.create': 'bet_category',
  'bet-category.update': 'bet_category',
  'post-category.create': 'post_category',
  'post-category.update': 'post_category',

  'sms.resend': 'sms_message',
  'sms.resend-by-cause': 'sms_message',
  'sms.opt-out': 'sms_opt_out',
  'sms.opt-out.clear': 'sms_opt_out',
  'broadcast.send': 'broadcast',

  'consent.given': 'marketing_consent',
  'consent.withdrawn': 'marketing_consent',
  'privacy.export': 'privacy_subject',
  'privacy.erase': 'privacy_subject',
  'privacy.retention': 'privacy_subject',
  'privacy.request': 'privacy_request',
  'privacy.request.done': 'privacy_request',
  'breach.record': 'data_breach',
  'breach.notified': 'data_breach',
  'compliance.update': 'compliance_item',
  'exclusion.record': 'self_exclusion',
  'under-18.mark': 'under_18_mark',

  'tax.settings': 'tax_device',
  'tax.initialise': 'tax_device',
  'tax.resend': 'tax_invoice',
  'tax.retry': 'tax_invoice',
  'books.close': 'books_period',
  'books.confirm-close': 'books_period',
  'books.reopen': 'books_period',
  'books.confirm-reopen': 'books_period',
  'tax.reissue': 'tax_invoice',
  'tax.invoice-link': 'tax_invoice',
  'tax-identity.client': 'client',
  'tax-identity.subscriber': 'tips_subscriber',
  'setting.update': 'setting',
  'secrets-key.rotate': 'secrets_key',
  'backup.create': 'backup',
  'backup.download': 'backup',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export type AuditEntity = (typeof AUDIT_ACTIONS)[AuditAction];

/**
 * Every kind of record the trail writes has a name on the audit screen and is one of its filter's
 * choices (the contract's list): a kind missing there does not compile.
 */
const _everyEntityNamed: Record<AuditEntity, string> = AUDIT_ENTITY_NAMES;
