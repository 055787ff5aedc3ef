// Lint for the whole monorepo: TypeScript rules, React hooks, and the import boundaries of
// STYLE.md (web features never import each other; API domains meet only through services).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import apiModules from './eslint/api-modules.js';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'tmp-scratch/**', 'apps/api/drizzle/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Playwright reads the fixtures a fixture needs from its first parameter's pattern: `{}` for none.
    files: ['apps/web/e2e/**/*.ts'],
    rules: { 'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }] },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // Every query key comes from the one factory (lib/query-keys.ts; ARCHITECTURE.md, "The web app").
      'no-restricted-syntax': [
        'error',
        {
          selector: "Property[key.name='queryKey'] > ArrayExpression",
          message: 'Take the query key from queryKeys (src/lib/query-keys.ts), not a literal array.',
        },
      ],
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/include': ['apps/**/*'],
      'import/resolver': {
        typescript: { project: ['apps/web/tsconfig.json', 'apps/web/e2e/tsconfig.json', 'apps/api/tsconfig.json'], noWarnOnMultipleProjects: true },
      },
      'boundaries/elements': [
        { type: 'web-app', pattern: 'apps/web/src/app' },
        { type: 'web-feature', pattern: 'apps/web/src/features/*', capture: ['feature'] },
        { type: 'web-shared', pattern: 'apps/web/src/(components|lib|hooks|config)' },
        { type: 'api-module', pattern: 'apps/api/src/modules/*', capture: ['domain'] },
        { type: 'api-core', pattern: 'apps/api/src/*' },
      ],
    },
    rules: {
      'boundaries/element-types': [
        'error',
        {
          default: 'allow',
          rules: [
            {
              from: ['web-feature'],
              disallow: ['web-app', ['web-feature', { feature: '!${from.feature}' }]],
              message: 'A feature may not import another feature or the app shell (shared -> features -> app).',
            },
            { from: ['web-shared'], disallow: ['web-feature', 'web-app'], message: 'Shared code may not import features.' },
          ],
        },
      ],
    },
  },
  {
    // Decision 028. An API module reaches another only through its service.ts; only src/app.ts
    // registers routes; http/ imports no module (eslint/api-modules.js).
    files: ['apps/api/src/**/*.ts'],
    plugins: { 'api-modules': apiModules },
    rules: {
      'api-modules/module-boundary': 'error',
      // A service that re-exported its queries.ts, the tables or another module's code would let
      // other modules past the boundary above.
      // No exception: the client-search and row helpers (nameOrPhoneContains, iso) and the staff-scope
      // door that clients/service.ts once passed on now live in db/ (list.ts, rows.ts, scope.ts).
      'api-modules/no-leaking-reexport': 'error',
      // Each table is written by the module that owns it; others call that module's service.
      'api-modules/own-tables-only': [
        'error',
        {
          owners: {
            auditLog: 'audit',
            backupRuns: 'backups',
            taxDevice: 'tax',
            taxInvoiceCounters: 'tax',
            taxItems: 'tax',
            taxInvoices: 'tax',
            booksPeriods: 'books',
            buyerTaxIdentities: 'tax',
            betCategories: 'catalogue',
            postCategories: 'catalogue',
            bets: 'bets',
            bonuses: 'bonuses',
            bonusPayments: 'bonuses',
            bonusAllocations: 'bonuses',
            clients: 'clients',
            clientAssignments: 'clients',
            clientPlatformPasswords: 'clients',
            bet4mePlans: 'catalogue',
            ledgerEntries: 'ledger',
            mpesaPayments: 'mpesa',
            refunds: 'refunds',
            stkRequests: 'mpesa',
            mpesaStatements: 'reconciliation',
            mpesaStatementRows: 'reconciliation',
            mpesaPullRuns: 'reconciliation',
            moneyChecks: 'reconciliation',
            subscriptions: 'subscriptions',
            smsMessages: 'sms',
            smsOptOuts: 'sms',
            smsOptOutEvents: 'sms',
            phoneLanguages: 'sms',
            marketingConsents: 'sms',
            marketingConsentEvents: 'sms',
            rateBuckets: 'sms',
            smsInbound: 'self-service',
            broadcasts: 'broadcasts',
            promotionRefusals: 'advert-rules',
            promoCodes: 'promo-codes',
            promoCodeUses: 'promo-codes',
            trialUses: 'trials',
            agents: 'referrals',
            referralRewards: 'referrals',
            agentCommissions: 'referrals',
            agentPayouts: 'agent-payouts',
            erasedPhones: 'privacy',
            privacyRequests: 'privacy',
            dataBreaches: 'privacy',
            retentionRuns: 'privacy',
            complianceItems: 'compliance',
            ageDeclarations: 'compliance',
            ageHeldPayments: 'compliance',
            settings: 'settings',
            portalCodes: 'portal',
            portalSessions: 'portal',
            tipsSubscribers: 'tips-subscribers',
            pricePackages: 'tips-prices',
            tipTickets: 'tips-record',
            tipSelections: 'tips-record',
            tipTicketProofs: 'tips-record',
            feedFixtures: 'feed',
            feedQuota: 'feed',
            tipsPosts: 'tips-posts',
            tipsPostBets: 'tips-posts',
            imageTypes: 'tips-posts',
            smsTipVersions: 'tips-sms',
            winningsContent: 'tips-winnings',
            users: 'users',
            userCategories: 'users',
            adminGrants: 'users',
            sessions: 'auth',
            userSecondFactors: 'second-factor',
            recoveryCodes: 'second-factor',
            twoFactorChallenges: 'auth',
            loginAttempts: 'auth',
            ussdPurchases: 'ussd',
            paymentRecoveries: 'recovery',
            standingOrders: 'auto-renew',
            selfExclusions: 'exclusions',
            under18Marks: 'exclusions',
            refusedSales: 'exclusions',
            subscriptionPauses: 'pauses',
          },
          // Writes that cross on purpose, each with its reason. Anything else is an error.
          allow: [
            {
              module: 'privacy',
              tables: '*',
              reason: "erasure and retention reach every table holding a person's data in one transaction (decision 025)",
            },
            { module: 'auth', tables: ['users'], reason: "signing in and changing one's password write the user's own row" },
            { module: 'users', tables: ['sessions'], reason: "trashing a user revokes their sessions in the same transaction" },
            { module: 'bets', tables: ['bonuses'], reason: 'a won bet earns its bonus in the same statement sequence that settles it' },
          ],
        },
      ],
    },
  },
);
