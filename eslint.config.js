import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const THREAD_MODULE = [{
  selector: "NewExpression[callee.name='URL'] > Literal[value=/\\.ts$/]",
  message: 'name a thread or child module with threadModule(), which maps it to the built .js',
}];
const STORE_KIND = [
  "MemberExpression[property.name='kind'][object.name='store']",
  "MemberExpression[property.name='kind'][object.property.name='store']",
  "VariableDeclarator[init.name='store'] > ObjectPattern > Property[key.name='kind']",
  "VariableDeclarator[init.property.name='store'] > ObjectPattern > Property[key.name='kind']",
].map((selector) => ({ selector, message: 'ask store.capabilities (src/store/api.ts), not which engine the store is' }));

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
  // Two rules of the house, each with the folder that is its exception: `npm start` runs the
  // built .js, so a thread module named by its .ts path only exists under tsx and every one
  // goes through threadModule (src/threads/); domain code asks the store what it can do
  // (StoreCapabilities in src/store/api.ts), never which engine it is.
  { files: ['src/**/*.ts'], ignores: ['src/threads/**', 'src/store/**'], rules: { 'no-restricted-syntax': ['error', ...THREAD_MODULE, ...STORE_KIND] } },
  { files: ['src/store/**/*.ts'], rules: { 'no-restricted-syntax': ['error', ...THREAD_MODULE] } },
  { files: ['src/threads/**/*.ts'], rules: { 'no-restricted-syntax': ['error', ...STORE_KIND] } },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
