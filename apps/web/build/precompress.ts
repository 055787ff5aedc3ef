import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const compressible = /\.(js|css|html|svg|json|txt|map)$/;

/** Writes `<file>.br` and `<file>.gz` beside every text file of the build (served as is by the API). */
export function compressDirectory(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      compressDirectory(path);
      continue;
    }
    if (!compressible.test(name)) continue;
    const content = readFileSync(path);
    if (content.length < 1024) continue;
    writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(content, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
      }),
    );
  }
}

/** Vite plugin: precompress the output once it is written. */
export function precompress() {
  let outDir = 'dist';
  return {
    name: 'betdesk-precompress',
    apply: 'build' as const,
    configResolved(config: { root: string; build: { outDir: string } }) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      compressDirectory(outDir);
    },
  };
}
