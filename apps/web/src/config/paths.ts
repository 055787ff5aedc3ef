/** Every screen path of spec section 2, named once; the router and the menu both read these. */
export const paths = {
  login: '/login',
  dashboard: '/dashboard',
  me: '/me',
  tips: {
    addPost: '/tips/posts/add',
    allPosts: '/tips/posts/all',
    updateSmsTips: '/tips/posts/update-sms-tips',
    viewSmsTips: '/tips/posts/view-sms-tips',
    winnings: '/tips/winnings',
    results: '/tips/results',
    record: '/tips/record',
    addSubscriber: '/tips/subscribers/add',
    activeSubscribers: '/tips/subscribers/active',
    allSubscribers: '/tips/subscribers/all',
    activeSubscriptions: '/tips/subscriptions/active',
    allSubscriptions: '/tips/subscriptions/all',
    webTipsPrices: '/tips/prices/web-tips',
    smsTipsPrices: '/tips/prices/sms-tips',
    mpesa: '/tips/mpesa/all',
  },
  clients: {
    active: '/clients/active',
    all: '/clients',
  },
  bets: {
    open: '/bets/open',
    closed: '/bets/closed',
  },
  bonuses: {
    all: '/bonuses',
    paid: '/bonuses/paid',
    unpaid: '/bonuses/unpaid',
  },
  subscriptions: {
    recent: '/subscriptions',
    all: '/subscriptions/all',
  },
  mpesa: {
    all: '/mpesa',
    unclaimed: '/mpesa/unclaimed',
    reconciliation: '/mpesa/reconciliation',
  },
  sms: {
    log: '/sms',
    inbox: '/sms/inbox',
    broadcasts: '/sms/broadcasts',
    costs: '/sms/costs',
  },
  settings: '/settings',
  backups: '/backups',
  tax: '/tax',
  refunds: '/refunds',
  audit: '/audit',
  privacy: '/privacy',
  exclusions: '/exclusions',
  reports: '/reports',
  catalogue: '/catalogue',
  promoCodes: '/promo-codes',
  agents: '/agents',
  users: {
    all: '/users',
    assignClients: '/users/assign-clients',
  },
} as const;

/** /audit narrowed to one record's history, e.g. auditPathFor('client', 12). */
export function auditPathFor(entity: string, entityId: string | number): string {
  return `${paths.audit}?${new URLSearchParams({ entity, entity_id: String(entityId) }).toString()}`;
}
