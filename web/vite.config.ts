// Vite config of the browser client. The dev and preview servers proxy the API and the push channel to
// the Fastify server, so the client always talks to its own origin (as in production).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';

const API_TARGET = 'http://127.0.0.1:3000';

/**
 * The agent's version (agent/package.json), which `npm run agent:build` names its files with; the key
 * dialog names the files to copy with it (features/teams/agent-version.ts).
 */
const agentPackage = JSON.parse(
  readFileSync(fileURLToPath(new URL('../agent/package.json', import.meta.url)), 'utf8'),
) as { version: string };

const proxy: Record<string, ProxyOptions> = {
  '/api': { target: API_TARGET },
  '/socket.io': { target: API_TARGET, ws: true },
};

export default defineConfig({
  // Explicit root: `vite build web` from the repository root and `npm run build -w web` agree.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  define: { __AGENT_VERSION__: JSON.stringify(agentPackage.version) },
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Chakra's default system (every recipe and token) is most of the entry chunk; trimming it saved
    // under 25 kB gzip and would leave later screens' components unstyled.
    // exceljs (about 930 kB) is the largest chunk; it loads only when 'Excel' is pressed.
    chunkSizeWarningLimit: 1000,
    rolldownOptions: {
      // `@concurso/shared` re-exports its zod schemas; the web only uses constants and types, so its
      // modules are declared side-effect free and zod stays out of the bundle.
      treeshake: {
        moduleSideEffects: (id: string) => !/[\\/]shared[\\/]src[\\/]/.test(id),
      },
      output: {
        // Everything the first page needs in one chunk. Without this group, modules shared by the
        // entry and the lazy screens were split into several small initial chunks, which gzip worse
        // (about 6 kB more for /). The lazy screens import what they share from it.
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
});
