// One lint configuration for the whole repository.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["**/node_modules/**", "**/.next/**", "**/dist/**", "**/generated/**", ".data/**", "**/next-env.d.ts", "**/test-results/**", "**/playwright-report/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", fetch: "readonly", Buffer: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-explicit-any": "off",
      // Environment is read once per app (env.ts); packages take configuration as arguments.
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "Read the environment in the app's env module and pass configuration in." }],
    },
  },
  // Type-aware rules where a tsconfig covers the file (bench/ and plain .mjs/.js have none): promises that
  // nobody awaits or that are handed where a void callback is expected, and assertions that change nothing.
  {
    files: ["apps/**/*.{ts,tsx}", "packages/**/*.{ts,tsx}", "e2e/**/*.ts", "scripts/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
    },
  },
  // React ignores what an event handler returns: an async handler in the portal catches its own errors.
  {
    files: ["apps/web/**/*.tsx"],
    rules: { "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }] },
  },
  {
    files: [
      "**/env.ts",
      "**/*.test.ts",
      "**/*.test.tsx",
      "**/test/**",
      "**/testing.ts",
      "**/test-support.ts",
      "**/testing.ts",
      "**/test-support.ts",
      "e2e/**",
      "scripts/**",
      "bench/**",
      ".ci/**",
      "**/*.config.ts",
      "**/*.config.js",
      "**/*.config.mjs",
      "packages/db/src/cli/**",
      "packages/db/scripts/**",
      "packages/accounts/scripts/**",
      "packages/client/examples/**",
    ],
    rules: { "no-restricted-properties": "off" },
  },
);
