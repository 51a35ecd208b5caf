// Lint for every workspace; `npm test` runs it. Type-aware rules stay off to keep it fast.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** A boundaries policy: files of the `from` element may import the `to` elements. */
const mayImport = (from, to) => ({
  from: { element: { type: from } },
  allow: { to: { element: { types: { anyOf: to } } } },
});

/**
 * The server's modules in layers, lowest first (server/src/modules/README.md): a module imports only
 * modules of lower layers, through their index.ts, so no two modules can import each other, however
 * far round. A module in no layer may import nothing at all (no policy names it): add it here.
 */
const SERVER_LAYERS = [
  ['users', 'health', 'catalogs', 'chain'],
  ['auth', 'schools', 'coaches', 'levels', 'processes'],
  ['departaments', 'contests'],
  ['careers', 'teams', 'exercises'],
  ['members', 'board', 'messages', 'fingerprints'],
  ['agent', 'observed', 'imports'],
  ['logs', 'stats', 'captures'],
  ['evidence'],
];
/** The boundaries element type of the server modules of layer `i` (0 the lowest). */
const layerType = (i) => `module-layer-${i + 1}`;
const MODULE_TYPES = SERVER_LAYERS.map((_, i) => layerType(i));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'bench/out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // The boundary of docs/design.md section 2: shared imports neither server nor web; web never imports server.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@concurso/server*', '@concurso/web*', '**/server/**', '**/web/**'] },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@concurso/server*', '**/server/**', '@concurso/testkit*'] },
      ],
    },
  },
  {
    // Product code never loads the test kit (testkit/README.md); its own tests beside the code may.
    files: ['server/src/**/*.ts', 'agent/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@concurso/testkit*', '**/testkit/**'] }] },
  },
  {
    // The test kit reaches a server module only through its public index.ts, as another module does
    // (server/src/modules/README.md); the rest of a module's folder is private to it.
    files: ['testkit/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/server/src/modules/*/*', '!**/server/src/modules/*/index.js'] },
      ],
    },
  },
  {
    // Browser journeys and measurements reach the server through the test kit (test servers,
    // factories, processes) or over HTTP, never by importing its code or its tests (docs/architecture.md).
    files: ['e2e/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/server/src/**', '**/server/test/**'] }] },
  },
  {
    // The web's folders (web/src/features/README.md): a feature imports the generic pieces (ui/), the
    // catalogue frame (catalog-screen/), the API and its caches (api/), the app-wide client state
    // (stores/), the fixed paths (app/paths.ts) and its own folder, never another feature (a piece two
    // features need moves to ui/ or catalog-screen/). ui/ imports no feature, nor the frame or the
    // shell. Only the shell (app/) and the entry know every feature: the route table loads them.
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
      'boundaries/include': ['web/src/**/*'],
      'boundaries/elements': [
        { type: 'feature', pattern: 'web/src/features/*', capture: ['feature'] },
        { type: 'catalog-screen', pattern: 'web/src/catalog-screen' },
        { type: 'ui', pattern: 'web/src/ui' },
        { type: 'api', pattern: 'web/src/api' },
        { type: 'stores', pattern: 'web/src/stores' },
        { type: 'app', pattern: 'web/src/app' },
      ],
      // The shell's one module a feature may read: the fixed paths, free of the screens.
      'boundaries/files': [
        { category: 'paths', pattern: 'web/src/app/paths.ts' },
        { category: 'test', pattern: 'web/src/**/*.test.ts' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          // Imports inside one element (a feature's own files) are not checked: always allowed.
          policies: [
            mayImport('feature', ['ui', 'catalog-screen', 'api', 'stores']),
            {
              from: { element: { type: 'feature' } },
              allow: { to: { element: { type: 'app' }, file: { categories: 'paths' } } },
            },
            mayImport('catalog-screen', ['ui', 'api', 'stores']),
            mayImport('ui', ['stores']),
            // The door opens one way (web/README.md): stores use the API, the API never imports a store; its
            // tests may, to check the whole wiring (a 401 ending the session store, a list failure's dialog).
            mayImport('stores', ['api']),
            {
              from: { element: { type: 'api' }, file: { categories: 'test' } },
              allow: { to: { element: { type: 'stores' } } },
            },
            mayImport('app', ['feature', 'catalog-screen', 'ui', 'api', 'stores']),
          ],
        },
      ],
    },
  },
  {
    // The server's layers (server/src/*/README.md): lib/ stands below everything; db/, plugins/ and
    // realtime/ never import a module (db/entities.ts, the entity list for discovery, excepted: it
    // names the modules' *.entity.ts files); what a plugin needs of a module is declared by the plugin
    // as an interface and handed over by app.ts. Modules may use every layer below, and a module of a
    // lower layer (SERVER_LAYERS) only through its public index.ts; only the app's own files (app.ts,
    // server.ts, config.ts) know every module, through those same index.ts files.
    files: ['server/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { boundaries },
    settings: {
      // The server imports its TypeScript files by their '.js' names (ESM): TypeScript's own resolution.
      'import/resolver': { typescript: { project: 'server/tsconfig.json' } },
      'boundaries/include': ['server/src/**/*'],
      'boundaries/elements': [
        { type: 'lib', pattern: 'server/src/lib' },
        { type: 'db', pattern: 'server/src/db' },
        { type: 'plugins', pattern: 'server/src/plugins' },
        { type: 'realtime', pattern: 'server/src/realtime' },
        ...SERVER_LAYERS.flatMap((modules, i) =>
          modules.map((module) => ({ type: layerType(i), pattern: `server/src/modules/${module}` })),
        ),
        { type: 'unlayered-module', pattern: 'server/src/modules/*', capture: ['module'] },
        // What is left: the app's own files (app.ts, server.ts, config.ts), after every folder above.
        { type: 'app', pattern: 'server/src' },
      ],
      'boundaries/files': [
        { category: 'entity', pattern: 'server/src/modules/*/*.entity.ts' },
        { category: 'entity-list', pattern: 'server/src/db/entities.ts' },
        { category: 'public', pattern: 'server/src/modules/*/index.ts' },
        { category: 'config', pattern: 'server/src/config.ts' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            mayImport('db', ['lib']),
            // db/seed-demo-cli.ts, an entry point of its own (`npm run seed:demo`), reads the configuration.
            {
              from: { element: { type: 'db' } },
              allow: { to: { element: { type: 'app' }, file: { categories: 'config' } } },
            },
            {
              from: { element: { type: 'db' }, file: { categories: 'entity-list' } },
              allow: { to: { element: { types: { anyOf: MODULE_TYPES } }, file: { categories: 'entity' } } },
            },
            mayImport('plugins', ['lib', 'db']),
            mayImport('realtime', ['lib', 'db', 'plugins']),
            ...MODULE_TYPES.map((type) => mayImport(type, ['lib', 'db', 'plugins', 'realtime'])),
            // One direction: a module reaches the public index.ts of modules of lower layers only.
            ...MODULE_TYPES.slice(1).map((type, i) => ({
              from: { element: { type } },
              allow: {
                to: {
                  element: { types: { anyOf: MODULE_TYPES.slice(0, i + 1) } },
                  file: { categories: 'public' },
                },
              },
            })),
            mayImport('app', ['lib', 'db', 'plugins', 'realtime']),
            {
              from: { element: { type: 'app' } },
              allow: { to: { element: { types: { anyOf: MODULE_TYPES } }, file: { categories: 'public' } } },
            },
          ],
        },
      ],
    },
  },
  {
    // No import cycle, between modules or inside one: a cycle makes load order matter (a value used
    // before its module ran) and hides which side depends on which. Type-only imports are not followed,
    // nor npm packages (`ignoreExternal`): none imports our code back, and walking their files was
    // three quarters of the lint's time (about 20 s of CPU of a fresh clone's `npm run check`).
    files: ['server/src/**/*.ts', 'shared/src/**/*.ts', 'agent/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        // The workspaces' projects, through the root tsconfig.json's references.
        createTypeScriptImportResolver({ project: 'tsconfig.json' }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
);
