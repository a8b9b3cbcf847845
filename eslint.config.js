import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Typed linting: the store's reads are asynchronous, so a forgotten await is a bug.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
      // IRI and XML validity rules are about control characters by definition.
      'no-control-regex': 'off',
    },
  },
  {
    // `npm start` runs the built .js: a thread module named by its .ts path only exists under
    // tsx, so every one goes through threadModule (src/threads/threadModule.ts).
    files: ['src/**/*.ts'],
    ignores: ['src/threads/**'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "NewExpression[callee.name='URL'] > Literal[value=/\\.ts$/]",
        message: 'name a thread or child module with threadModule(), which maps it to the built .js',
      }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
