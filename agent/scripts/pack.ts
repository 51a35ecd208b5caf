/**
 * `npm run agent:pack`: makes the agent installable on a lab machine that has only Node.js 20.
 * Bundles the CLI with everything it imports (shared, zod, ps-list) into one file, copies ps-list's
 * Windows helper beside it (ps-list finds it next to the code), writes a package.json with no
 * dependencies, and packs `agent/dist/concurso-agent-<version>.tgz`. On the lab machine:
 * `npm install -g concurso-agent-<version>.tgz`, then `concurso-agent --server … --key-file …` —
 * no network needed for the install.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleAgentCli } from './bundle-cli.js';

const agentDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(agentDir, 'dist', 'package');
const pkg = JSON.parse(await readFile(path.join(agentDir, 'package.json'), 'utf8')) as { version: string };

// Only what this script writes: `npm run agent:build` keeps its executables in dist/bin.
await rm(out, { recursive: true, force: true });
await rm(path.join(agentDir, 'dist', `concurso-agent-${pkg.version}.tgz`), { force: true });
await mkdir(out, { recursive: true });
await bundleAgentCli(agentDir, path.join(out, 'concurso-agent.mjs'));
const psList = path.dirname(createRequire(import.meta.url).resolve('ps-list'));
await cp(path.join(psList, 'vendor'), path.join(out, 'vendor'), { recursive: true });
await cp(path.join(agentDir, 'README.md'), path.join(out, 'README.md'));
await writeFile(
  path.join(out, 'package.json'),
  JSON.stringify(
    {
      name: 'concurso-agent',
      version: pkg.version,
      description: 'Agente del concurso: termina los programas bloqueados y reporta cada intento al servidor',
      type: 'module',
      bin: { 'concurso-agent': 'concurso-agent.mjs' },
      engines: { node: '>=20' },
      files: ['concurso-agent.mjs', 'vendor', 'README.md'],
    },
    null,
    2,
  ) + '\n',
);
const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', path.join(agentDir, 'dist')], {
  cwd: out,
  encoding: 'utf8',
}).trim();
console.log(`Agente empaquetado: agent/dist/${tarball.split('\n').pop()}`);
