import { ADMIN_CATEGORY_ID } from './constants.ts';

/**
 * The permission matrix of BUSINESS-RULES.md, as data. The server checks every route against it
 * (one guard); the web uses the same table to decide which menu entries a user sees. Scoping to a
 * staff user's own clients is a rule of the services, not of this table.
 */
export type Role = 'admin' | 'staff';

export const permissionMatrix = {
  'use:profile': ['admin', 'staff'],
  'view:dashboard': ['admin', 'staff'],
  'view:dashboard-income': ['admin'],
  'view:admin-alerts': ['admin'],
  'manage:clients': ['admin', 'staff'],
  'create:clients': ['admin'],
  'manage:bets': ['admin', 'staff'],
  'view:bonuses': ['admin', 'staff'],
  'view:money-totals': ['admin'],
  'view:subscriptions': ['admin'],
  'view:mpesa': ['admin'],
  'claim:payments': ['admin'],
  'reconcile:payments': ['admin'],
  'request:payments': ['admin', 'staff'],
  'pay:bonuses': ['admin'],
  'manage:users': ['admin'],
  'assign:clients': ['admin'],
  'manage:settings': ['admin'],
  'manage:catalogue': ['admin'],
  'view:sms-log': ['admin'],
  'resend:sms': ['admin'],
  'view:sms-inbox': ['admin'],
  'manage:opt-outs': ['admin'],
  'send:broadcasts': ['admin'],
  'write:sms': ['admin', 'staff'],
  'manage:tips-content': ['admin', 'staff'],
  'correct:tip-results': ['admin'],
  'manage:tips-subscribers': ['admin', 'staff'],
  'view:tips-subscribers-all': ['admin'],
  'view:tips-subscriptions-active': ['admin', 'staff'],
  'view:tips-subscriptions-all': ['admin'],
  'manage:tips-prices': ['admin'],
  'manage:promo-codes': ['admin'],
  'manage:agents': ['admin'],
  'view:tips-deposits': ['admin'],
  'upload:images': ['admin'],
  'view:audit': ['admin'],
  'view:reports': ['admin'],
  'watch:events': ['admin', 'staff'],
  'manage:privacy': ['admin'],
  'manage:backups': ['admin'],
  'manage:refunds': ['admin'],
  'manage:tax': ['admin'],
  'manage:compliance': ['admin'],
  'view:exclusions': ['admin'],
  'record:exclusions': ['admin', 'staff'],
  'use:search': ['admin', 'staff'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissionMatrix;

export function roleOf(categoryId: number): Role {
  return categoryId === ADMIN_CATEGORY_ID ? 'admin' : 'staff';
}

export function can(role: Role, permission: Permission): boolean {
  return (permissionMatrix[permission] as readonly Role[]).includes(role);
}
