// Lint for the whole monorepo: TypeScript rules, React hooks, and the import boundaries of
// STYLE.md (web features never import each other; API domains meet only through services).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';

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
    // An API domain reaches another domain only through that domain's service, never its queries or tables.
    files: ['apps/api/src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./[^/]+/(queries|routes)\\.ts$',
              message: "Use the other domain's service.ts, not its queries or routes.",
            },
          ],
        },
      ],
    },
  },
);
