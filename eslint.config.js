// Lint: typescript-eslint, import cycles, module boundaries (ARCHITECTURE "rules of the house"),
// and ReDoS-prone regular expressions (the trust stage scans hostile text).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import regexp from 'eslint-plugin-regexp';
import globals from 'globals';

const CORE_STAGES = ['budget', 'evidence', 'trust', 'effects'];
const EDGES = ['executor', 'store', 'adapters', 'gateway', 'cli', 'inspector'];

/** `no-restricted-imports` patterns forbidding imports of the given top-level modules. */
const forbid = (mods, why) => ({
  patterns: mods.map((m) => ({
    group: [`../${m}`, `../${m}/*`, `../../${m}`, `../../${m}/*`],
    message: why,
    // Pure stages may name the Store interface's types; they never import an implementation.
    allowTypeImports: m === 'store',
  })),
});

export default tseslint.config(
  // src/contract/generated/: Ajv standalone code and schema text written by `npm run schema`.
  { ignores: ['dist/**', 'node_modules/**', 'schema/**', 'coverage/**', '.trc/**', 'bench/.out/**', 'src/contract/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX, regexp },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      'import-x/no-cycle': ['error', { maxDepth: 10 }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Safety rules only (ReDoS, ambiguous alternatives); style is left to the author.
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-dupe-disjunctions': 'error',
      'regexp/no-misleading-capturing-group': 'error',
      'regexp/no-misleading-unicode-character': 'error',
    },
  },
  {
    files: ['src/contract/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', forbid([...CORE_STAGES, ...EDGES], 'contract/ imports nothing from the rest of the library')] },
  },
  ...CORE_STAGES.map((stage) => ({
    files: [`src/${stage}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        forbid([...CORE_STAGES.filter((s) => s !== stage), ...EDGES], `${stage}/ is a pure stage: import only contract/ (and the Store interface type)`),
      ],
    },
  })),
  // One pipeline: the gateway and the adapters (invokers and renderers) import the executor, the
  // contract, the store and each other's renderers — never a stage's module (type imports of
  // their shapes are fine: they run nothing).
  ...['gateway', 'adapters'].map((edge) => ({
    files: [`src/${edge}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...CORE_STAGES.map((m) => ({
              group: [`../${m}`, `../${m}/*`, `../../${m}`, `../../${m}/*`],
              message: `${edge}/ runs every call through the executor's pipeline: import the executor (or the contract), never the ${m} stage`,
              allowTypeImports: true,
            })),
            {
              group: ['../executor/*', '!../executor/index.js', '../../executor/*', '!../../executor/index.js'],
              message: `${edge}/ uses the executor through its index, never a stage inside it`,
            },
            ...(edge === 'adapters' ? [{ group: ['../gateway', '../gateway/*', '../../gateway', '../../gateway/*'], message: 'adapters/ never import the gateway' }] : []),
          ],
        },
      ],
    },
  })),
  // Nothing outside executor/ reaches into a stage: the executor is used through its index.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/executor/**', 'src/gateway/**', 'src/adapters/**', ...CORE_STAGES.map((s) => `src/${s}/**`), 'src/contract/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['../executor/*', '!../executor/index.js', '../../executor/*', '!../../executor/index.js'], message: 'use the executor through its index, never a stage inside it' }] }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.{ts,mjs}'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
