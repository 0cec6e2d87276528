// Lint: typescript-eslint's type-aware rules over every TypeScript file the two tsconfigs cover (sources,
// benchmarks and tests). The promise rules are the point: a floating or misused promise in a stage or the
// gateway is a lost error or an unhandled rejection that kills the process.
// shared/tvm/mainnet-config.ts is left out: a config BOC as one literal, deeper than the parser recurses.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['shared/tvm/mainnet-config.ts', 'dist/**', 'node_modules/**', 'data/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: {
        project: ['./test/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
    },
  },
);
