/**
 * `npm start` and `npm run e2e` build the SPA only when its inputs changed: a hash of the web
 * sources, the contract, the build config and the lock file is kept beside the build
 * (apps/web/dist/.source-hash). `npm run build` always builds (and empties dist, the hash with it).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'apps/web/dist');
const hashFile = join(dist, '.source-hash');
const inputs = [
  'apps/web/src',
  'apps/web/build',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'apps/web/postcss.config.cjs',
  'apps/web/tsconfig.json',
  'packages/contract/src',
  'packages/contract/package.json',
  'package-lock.json',
];

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

export function sourceHash(): string {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of files(join(root, input))) {
      if (/\.test\.tsx?$/.test(file)) continue;
      hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

function main(): number {
  const hash = sourceHash();
  const built = existsSync(join(dist, 'index.html')) && existsSync(hashFile) && readFileSync(hashFile, 'utf8').trim() === hash;
  if (built) {
    console.log('The web app is built and unchanged: not rebuilding (npm run build forces it).');
    return 0;
  }
  console.log('Building the web app (its sources changed since the last build; the first build takes a few minutes)...');
  // The build's own lines (one per asset) are shown only when it fails; its warnings always.
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) {
    process.stdout.write(output);
    return result.status ?? 1;
  }
  const warnings = output.split('\n').filter((line) => /\bwarn|\(!\)|error/i.test(line));
  if (warnings.length > 0) console.warn(warnings.join('\n'));
  writeFileSync(hashFile, `${hash}\n`);
  return 0;
}

process.exit(main());
