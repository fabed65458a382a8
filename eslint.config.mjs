// ESLint 9 flat config (docs/build.md "Lint and format"): typescript-eslint's recommended rules on the
// TypeScript tree (not the type-aware set: it triples the run, see docs/build.md), the two Rules of Hooks, and
// plain recommended rules on the .mjs/.cjs/.js scripts. Formatting is Prettier's job (.prettierrc.json).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'test-results/', 'public/'] },
  js.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommended],
    rules: {
      // A leading underscore names what is there on purpose and unread: Express's fourth error-handler argument,
      // a field left out of a rest copy.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // React code only: elsewhere `use` is an ordinary callback name (withRedis(globals, use)), not React's hook.
    files: ['client/**/*.{ts,tsx}', 'shared/**/*.{ts,tsx}', '**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
