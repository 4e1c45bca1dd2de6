/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";

// The UI of the Periscope desktop app (Tauri 2). Tauri loads `dist/` in production and the dev
// server on port 1420 during `tauri dev`.
export default defineConfig({
  plugins: [react()],
  resolve: {
    // @rjsf/core imports Ajv for a test helper only; Ajv is not installed (see src/tools/noAjv.ts).
    alias: { "@rjsf/validator-ajv8": fileURLToPath(new URL("./src/tools/noAjv.ts", import.meta.url)) },
  },
  base: "./",
  clearScreen: false,
  server: {
    port: 1420,
    strictPort: true,
    watch: { ignored: ["**/src-tauri/**"] },
  },
  envPrefix: ["VITE_", "TAURI_ENV_"],
  build: {
    outDir: "dist",
    // WebKitGTK / WKWebView: stay on syntax Safari 15 understands.
    target: "safari15",
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    restoreMocks: true,
    // Components translate their strings: i18next is initialised (in English) before any test.
    setupFiles: ["src/i18n/index.ts"],
    // Bundled like the app, so the alias above applies inside @rjsf/core.
    server: { deps: { inline: ["@rjsf/core"] } },
  },
});
