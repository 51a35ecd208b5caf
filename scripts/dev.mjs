// `npm run dev`: the developer's watch mode (not for a contest: `npm start` runs the compiled server).
// Runs the server from its TypeScript sources under `tsx watch` (restarted on every saved change, on
// port PORT, 3000 by default) and Vite's dev server for the web (http://localhost:5173, with hot reload;
// it proxies /api and /socket.io to port 3000, see web/vite.config.ts). Ctrl+C stops both; when either
// ends, the other is stopped too.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const children = [
  spawn(process.execPath, [tsx, 'watch', '--clear-screen=false', 'server/src/server.ts'], {
    cwd: root,
    stdio: 'inherit',
  }),
  spawn('npm', ['run', 'dev', '-w', 'web'], { cwd: root, stdio: 'inherit' }),
];

let ending = false;
const end = (code) => {
  if (ending) return;
  ending = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
};
for (const child of children) child.once('exit', (code) => end(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => end(0));
