// Lint with the layering of ARCHITECTURE.md as rules: app -> lib/http -> lib/<context> -> lib/db.
import tseslint from 'typescript-eslint';

const UUID_RULE = {
  selector: 'Literal[regex.pattern=/\\{8\\}-|\\{36\\}/]',
  message: 'Check ids with isUuid() or declare them with uuid() (lib/contract/ids.ts).',
};
const API_PATH = '/^\\/(api|oauth)\\//';
const API_PATH_MESSAGE = 'Call the operation by its contract (CONTRACTS from lib/http/contracts.ts), not by a path.';
// A form's action or a link's href is a navigation, not an API call (the consent form posts to /oauth/authorize).
const API_PATH_RULES = [
  { selector: `Literal[value=${API_PATH}]:not(JSXAttribute > Literal)`, message: API_PATH_MESSAGE },
  { selector: `TemplateElement[value.raw=${API_PATH}]`, message: API_PATH_MESSAGE },
];

const restrict = (patterns, message) => ({ 'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }] });

export default tseslint.config(
  {
    ignores: [
      '.next/**',
      'node_modules/**',
      '.data/**',
      'drizzle/**',
      'test-results/**',
      'playwright-report/**',
      'next-env.d.ts',
      'bench/peer-better-auth/.next/**',
      'bench/peer-better-auth/next-env.d.ts',
      'clients/typescript/dist/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      // Configuration is one typed module (lib/config); nothing else reads the environment.
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through getConfig() (lib/config).' }],
    },
  },
  {
    // One UUID rule (lib/contract/ids.ts), never a hand-written copy that drifts from the documented one.
    files: ['lib/**/*.ts', 'app/**/*.ts', 'app/**/*.tsx'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', UUID_RULE] },
  },
  {
    // Pages call operations by contract (lib/http/contracts.ts), never by a path of their own: the
    // path, method and types then cannot drift from what the service serves. Route modules bind paths.
    files: ['app/**/*.ts', 'app/**/*.tsx'],
    ignores: ['app/api/**', 'app/oauth/**/route.ts', 'app/mcp/route.ts'],
    rules: { 'no-restricted-syntax': ['error', UUID_RULE, ...API_PATH_RULES] },
  },
  {
    files: ['lib/**/*.ts'],
    ignores: ['lib/http/**', 'lib/db/**', 'lib/**/*.repo.ts'],
    rules: {
      ...restrict(
        ['next', 'next/*', '@/lib/http', '@/lib/http/*', 'drizzle-orm', 'drizzle-orm/*'],
        'Domain code never sees HTTP, and only *.repo.ts files and lib/db use drizzle-orm.',
      ),
    },
  },
  {
    files: ['lib/**/*.repo.ts'],
    rules: { ...restrict(['next', 'next/*', '@/lib/http', '@/lib/http/*'], 'Repositories never see HTTP.') },
  },
  {
    files: ['lib/http/**/*.ts'],
    rules: {
      ...restrict(['next', 'next/*', 'drizzle-orm', 'drizzle-orm/*'], 'The edge works on Web Request/Response and reaches the database through repositories.'),
    },
  },
  {
    files: ['lib/db/**/*.ts'],
    rules: { ...restrict(['@/lib/http', '@/lib/http/*', 'next', 'next/*'], 'The database layer is the bottom layer.') },
  },
  {
    files: ['lib/contract/**/*.ts'],
    rules: {
      ...restrict(
        ['@/lib/http', '@/lib/http/*', '@/lib/db', '@/lib/db/*', 'next', 'next/*', 'drizzle-orm', 'drizzle-orm/*'],
        'The contract is plain data and types.',
      ),
    },
  },
  {
    files: ['app/**/*.ts', 'app/**/*.tsx'],
    rules: {
      ...restrict(
        ['@/lib/db', '@/lib/db/*', 'drizzle-orm', 'drizzle-orm/*', '@/lib/*/*.repo', '@/lib/*/*/*.repo'],
        'Pages and routes go through the API (lib/http), never the database.',
      ),
    },
  },
  {
    // The client package stands alone: it is installed into other projects, without this repository.
    files: ['clients/**/*.ts'],
    rules: { ...restrict(['@/**', 'next', 'next/*', 'zod'], 'The client imports only its own files (no runtime dependencies).') },
  },
  {
    // Tests may read persisted state directly to prove what a use case wrote.
    files: ['**/*.test.ts', 'tests/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: [
      'lib/config/**/*.ts',
      'tests/**/*.ts',
      'e2e/**/*.ts',
      'scripts/**/*.ts',
      'bench/**/*.ts',
      'clients/typescript/examples/**/*.ts',
      '*.config.ts',
      'playwright.config.ts',
      'vitest.config.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
);
