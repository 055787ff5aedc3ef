/**
 * Every TanStack Query key of the back office: one factory per feature family, in one place (the
 * "query key factory" of bulletproof-react and TkDodo). A key's first element is its family, and
 * invalidating a key refreshes every key that starts with it: `tips.all` refreshes the subscribers,
 * subscriptions, prices and posts of the tips screens at once. Features meet here, never in each
 * other's files: a mutation in one feature that changes another's screens invalidates that family
 * by name (a user's reassignment refreshes `clients.all`). A lint rule (eslint.config.js) refuses a
 * literal array as a `queryKey` anywhere else.
 */
export const queryKeys = {
  audit: {
    all: ['audit-log'] as const,
    log: (filter: unknown) => ['audit-log', filter] as const,
  },
  auth: {
    all: ['auth'] as const,
    me: () => ['auth', 'me'] as const,
    devices: () => ['auth', 'devices'] as const,
    twoFactor: () => ['auth', '2fa'] as const,
  },
  backups: {
    all: ['backups'] as const,
  },
  bets: {
    all: ['bets'] as const,
    open: (query: unknown) => ['bets', 'open', query] as const,
    closed: (query: unknown) => ['bets', 'closed', query] as const,
  },
  bonuses: {
    all: ['bonuses'] as const,
    list: (which: string, query: unknown) => ['bonuses', which, query] as const,
    paid: (query: unknown) => ['bonuses', 'paid', query] as const,
  },
  catalogue: {
    all: ['catalogue'] as const,
  },
  clients: {
    all: ['clients'] as const,
    list: (query: unknown) => ['clients', 'all', query] as const,
    active: (query: unknown) => ['clients', 'active', query] as const,
    show: (clientId: number) => ['clients', 'show', clientId] as const,
    subList: (kind: string, clientId: number, query: unknown) => ['clients', kind, clientId, query] as const,
  },
  dashboard: {
    all: ['dashboard'] as const,
    income: () => ['dashboard', 'income'] as const,
    /** The admin's alerts, one request (decision 078); under `all`, so a money check run refreshes them. */
    adminAlerts: () => ['dashboard', 'admin-alerts'] as const,
  },
  mpesa: {
    all: ['mpesa-transactions'] as const,
    transactions: (view: string, query: unknown) => ['mpesa-transactions', view, query] as const,
    tipsDeposits: (query: unknown) => ['mpesa-transactions', 'tips-deposits', query] as const,
  },
  /**
   * The claim dialog's questions about one payment (who it might be, what it would buy).
   * Deliberately outside `mpesa.all`: a claim refreshes the payment lists, and if the same refresh
   * re-asked these questions the server would answer 409 "already claimed" right after the green
   * "claimed". The dialog closes on success and they go with it.
   */
  claimQuestions: {
    all: ['mpesa-claim-questions'] as const,
    candidates: (transactionId: number | null, search: string) => ['mpesa-claim-questions', transactionId, 'candidates', search] as const,
    preview: (transactionId: number | null, kind: string, id: number) => ['mpesa-claim-questions', transactionId, 'preview', kind, id] as const,
  },
  paymentRequests: {
    all: ['payment-requests'] as const,
    request: (id: number) => ['payment-requests', id] as const,
    options: (payer: unknown) => ['payment-requests', 'options', payer] as const,
  },
  compliance: {
    all: ['compliance'] as const,
  },
  exclusions: {
    all: ['exclusions'] as const,
    register: (page: number, perPage: number, search: string) => ['exclusions', 'register', page, perPage, search] as const,
  },
  privacy: {
    all: ['privacy'] as const,
    breaches: (page: number, perPage: number) => ['privacy', 'breaches', page, perPage] as const,
    requests: (page: number, perPage: number) => ['privacy', 'requests', page, perPage] as const,
    consentOf: (phone: string | null) => ['privacy', 'consent', phone] as const,
    consent: ['privacy', 'consent'] as const,
    subject: (phone: string | null) => ['privacy', 'subject', phone] as const,
  },
  reconciliation: {
    all: ['mpesa-reconciliation'] as const,
    days: (from: string, to: string) => ['mpesa-reconciliation', 'days', from, to] as const,
    status: () => ['mpesa-reconciliation', 'status'] as const,
    statements: () => ['mpesa-reconciliation', 'statements'] as const,
    statement: (statementId: number | null, kind: string, page: number, perPage: number) =>
      ['mpesa-reconciliation', 'statement', statementId, kind, page, perPage] as const,
    figureRows: (day: string | undefined, figure: string | undefined, page: number, perPage: number) =>
      ['mpesa-reconciliation', 'rows', day, figure, page, perPage] as const,
  },
  refunds: {
    all: ['refunds'] as const,
    list: (query: unknown, status: unknown) => ['refunds', query, status] as const,
    preview: (paymentId: number | null) => ['refunds', 'preview', paymentId] as const,
  },
  promoCodes: {
    all: ['promo-codes'] as const,
    list: (query: unknown) => ['promo-codes', query] as const,
  },
  search: {
    all: ['search'] as const,
    results: (q: string) => ['search', q] as const,
  },
  reports: {
    all: ['reports'] as const,
    report: (name: string, filter: unknown) => ['reports', name, filter] as const,
    staff: (query: unknown) => ['reports', 'staff', query] as const,
    promotions: (query: unknown) => ['reports', 'promotions', query] as const,
    retention: (filter: unknown) => ['reports', 'retention', filter] as const,
    cohorts: (filter: unknown) => ['reports', 'cohorts', filter] as const,
    recovery: (query: unknown) => ['reports', 'recovery', query] as const,
  },
  settings: {
    all: ['settings'] as const,
    feed: () => ['settings', 'feed'] as const,
  },
  sms: {
    all: ['sms'] as const,
    backlog: () => ['sms', 'backlog'] as const,
    broadcasts: (page: number, perPage: number) => ['sms', 'broadcasts', page, perPage] as const,
    message: (id: number) => ['sms', 'message', id] as const,
    log: (status: unknown, query: unknown, provider: unknown = null) => ['sms', 'log', status, query, provider] as const,
    providers: () => ['sms', 'providers'] as const,
    costReport: (month: string) => ['sms', 'cost-report', month] as const,
    inbox: (search: unknown, page: number, perPage: number) => ['sms', 'inbox', search, page, perPage] as const,
    person: (path: string, query: unknown, table: unknown) => ['sms', path, query, table] as const,
    optOut: (who: unknown) => ['sms', 'opt-out', who] as const,
    estimate: (encoding: string, parts: number, recipients: number | null | undefined) => ['sms', 'estimate', encoding, parts, recipients] as const,
  },
  subscriptions: {
    all: ['subscriptions'] as const,
    list: (which: string, query: unknown) => ['subscriptions', which, query] as const,
  },
  tax: {
    all: ['tax'] as const,
    invoices: (query: unknown) => ['tax', 'invoices', query] as const,
    settings: () => ['tax', 'settings'] as const,
    summary: (month: string) => ['tax', 'summary', month] as const,
    transmissions: (query: unknown) => ['tax', 'transmissions', query] as const,
    books: () => ['tax', 'books'] as const,
  },
  tips: {
    all: ['tips'] as const,
    posts: ['tips', 'posts'] as const,
    postList: (query: unknown) => ['tips', 'posts', 'all', query] as const,
    post: (id: number) => ['tips', 'posts', 'view', id] as const,
    postForEditing: (id: number) => ['tips', 'posts', 'edit', id] as const,
    postForm: () => ['tips', 'posts', 'form'] as const,
    prices: ['tips', 'prices'] as const,
    packages: (medium: string) => ['tips', 'prices', medium] as const,
    trials: () => ['tips', 'prices', 'trials'] as const,
    tickets: ['tips', 'tickets'] as const,
    recentTickets: () => ['tips', 'tickets', 'recent'] as const,
    awaitingResults: () => ['tips', 'tickets', 'awaiting-results'] as const,
    feed: ['tips', 'feed'] as const,
    feedFixtures: (query: unknown) => ['tips', 'feed', 'fixtures', query] as const,
    dayTickets: (day: string) => ['tips', 'tickets', 'day', day] as const,
    record: ['tips', 'record'] as const,
    trackRecord: (query: unknown) => ['tips', 'record', query] as const,
    recordTickets: (query: unknown) => ['tips', 'tickets', 'record', query] as const,
    recordCategories: () => ['tips', 'record', 'bet-categories'] as const,
    winnings: ['tips', 'winnings'] as const,
    winningsCategories: () => ['tips', 'winnings', 'bet-categories'] as const,
    smsTips: ['tips', 'sms-tips'] as const,
    smsTipsView: () => ['tips', 'sms-tips', 'view'] as const,
    smsTipsForm: () => ['tips', 'sms-tips', 'form'] as const,
    smsTipsProgress: () => ['tips', 'sms-tips', 'progress'] as const,
    subscribers: (scope: string, query: unknown) => ['tips', 'subscribers', scope, query] as const,
    subscriber: (id: number) => ['tips', 'subscribers', 'show', id] as const,
    autoRenewals: (subscriberId: number) => ['tips', 'subscribers', 'auto-renewals', subscriberId] as const,
    subscriberForm: () => ['tips', 'subscribers', 'form'] as const,
    subscriptions: (scope: string, query: unknown) => ['tips', 'subscriptions', scope, query] as const,
  },
  users: {
    all: ['users'] as const,
    list: () => ['users', 'all'] as const,
    adminGrants: () => ['users', 'admin-grants'] as const,
    assignmentChoices: (page: number, perPage: number, search: string) => ['users', 'assign-clients', page, perPage, search] as const,
    clients: (userId: number, page: number, perPage: number, search: string) => ['users', 'clients', userId, page, perPage, search] as const,
  },
};
