// One lint configuration for the workspace (ESLint flat config): the
// recommended JavaScript and TypeScript rules, without type information so
// `pnpm lint` stays fast on two cores. Each package runs `eslint .`.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config({ ignores: ['**/dist/**', '**/node_modules/**', '**/src/generated/**', '.kubelab/**', '.turbo/**'] }, js.configs.recommended, ...tseslint.configs.recommended, {
  languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: globals.node },
  rules: {
    // Kubernetes objects arrive as JSON of many shapes; tests and decoders read them loosely.
    '@typescript-eslint/no-explicit-any': 'off',
    '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    // Non-null assertions are checked by the strict compiler settings' noUncheckedIndexedAccess.
    '@typescript-eslint/no-non-null-assertion': 'off',
    // Tests match kubectl's column output literally, spaces included.
    'no-regex-spaces': 'off',
    'no-empty': ['error', { allowEmptyCatch: true }],
  },
});
