/**
 * Import rules that ESLint's per-file rules cannot express (run by `npm run lint`):
 * - no import circles anywhere;
 * - a context (lib/<ctx>) reaches another only through its public entry point, lib/<other>/index.ts,
 *   never its files, and above all never its *.repo.ts. The contract, the database layer, the
 *   configuration and observability (logs, metrics) are shared infrastructure; the edge (lib/http) also binds each context's
 *   *.routes.ts declarations into the registry.
 */
const SHARED = '^lib/(contract|db|config|observability)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import circles make load order matter and hide layering mistakes: break them.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-foreign-repository',
      severity: 'error',
      comment: "A context never reads another context's repository: use that context's public entry point.",
      from: { path: '^(lib|app)/([^/]+)/', pathNot: '[.]test[.]ts$' },
      to: { path: '^lib/([^/]+)/.+[.]repo[.]ts$', pathNot: '^lib/$2/' },
    },
    {
      name: 'context-entry-point-only',
      severity: 'error',
      comment: 'Reach another context through lib/<ctx>/index.ts (its public entry point), not its files.',
      from: { path: '^lib/([^/]+)/', pathNot: ['^lib/http/', '[.]test[.]ts$'] },
      to: { path: '^lib/([^/]+)/[^/]', pathNot: ['^lib/$1/', SHARED, '^lib/[^/]+/index[.]ts$'] },
    },
    {
      name: 'edge-entry-points-and-routes',
      severity: 'error',
      comment: 'The edge binds *.routes.ts declarations; for everything else it uses the entry points too.',
      from: { path: '^lib/http/', pathNot: '[.]test[.]ts$' },
      to: { path: '^lib/([^/]+)/[^/]', pathNot: ['^lib/http/', SHARED, '^lib/[^/]+/index[.]ts$', '^lib/.+[.](routes|contract)[.]ts$'] },
    },
    {
      name: 'contracts-are-browser-safe',
      severity: 'error',
      comment:
        'A wire contract (lib/<ctx>/*.contract.ts) and the catalogue of them (lib/http/contracts.ts) are imported by browser code: they import only zod, lib/contract, other contracts and their context terms.',
      from: { path: ['[.]contract[.]ts$', '^lib/http/contracts[.]ts$'] },
      to: { pathNot: ['^node_modules/zod/', '^lib/contract/', '^lib/.+[.]contract[.]ts$', '^lib/[^/]+/terms[.]ts$'] },
    },
    {
      name: 'contracts-reach-no-server-code',
      severity: 'error',
      comment:
        'What a wire contract imports, directly or through lib/contract, is bundled for the browser: none of it may reach the configuration, the database or a package other than zod (server-only kit such as lib/contract/policies.ts stays out of the chain).',
      from: { path: ['[.]contract[.]ts$', '^lib/http/contracts[.]ts$'] },
      to: { reachable: true, path: ['^lib/(config|db)/', '^node_modules/(?!zod/)', '^(node:)?(crypto|fs|http|net|path|os|stream)$'] },
    },
    {
      name: 'pages-through-the-edge',
      severity: 'error',
      comment: 'Pages and route bindings use the edge (lib/http) or a context entry point.',
      from: { path: '^app/' },
      to: { path: '^lib/([^/]+)/[^/]', pathNot: ['^lib/http/', '^lib/contract/', '^lib/[^/]+/index[.]ts$', '^lib/.+[.]contract[.]ts$'] },
    },
    {
      name: 'client-stands-alone',
      severity: 'error',
      comment: 'The TypeScript client is installed into other projects: its source imports only its own files (global fetch, no packages).',
      from: { path: '^clients/typescript/src/' },
      to: { pathNot: '^clients/typescript/src/' },
    },
    {
      name: 'client-examples-use-the-client',
      severity: 'error',
      comment: 'Examples show the client as a caller uses it: the client and Node built-ins, nothing of the service.',
      from: { path: '^clients/typescript/examples/' },
      to: { pathNot: '^clients/typescript/src/', dependencyTypesNot: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|[.]next|drizzle|test-results|clients/typescript/dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
