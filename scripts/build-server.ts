/**
 * npm run build:server — the server as plain JavaScript in dist/server, run by `npm start` with
 * `node dist/server/core/bin/start.js`.
 *
 * TypeScript compiles core/ and plugins/ (not their tests, test helpers or web pages: see
 * tsconfig.server.json), rewriting `./x.ts` imports to `./x.js`; then the files the modules read
 * beside themselves (locales, e-mail templates, JSON Schemas, the common-passwords list) are copied
 * into the same tree. The project's own folders (config/, schemas/, seeds/, web/dist, data/) are
 * read where they are (core/config.ts: ROOT and CODE_ROOT).
 *
 * Why: under tsx every module is compiled at start and a loader thread stays for the life of the
 * process (about 48 MB of resident memory on its own); the compiled server starts sooner and holds
 * less (issue 18, scripts/bench/README.md).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'server');

/** what a compiled module may read beside itself: not sources, docs, web pages or test fixtures */
function copied(rel: string): boolean {
  const parts = rel.split(path.sep);
  if (parts.includes('web') || parts.includes('fixtures') || parts.includes('testing') || parts.includes('quality')) return false;
  return !/\.(ts|tsx|md|css)$/.test(rel);
}

function copyAssets(dir: string) {
  let n = 0;
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = path.join(entry.parentPath, entry.name);
    const rel = path.relative(ROOT, abs);
    if (!copied(rel)) continue;
    fs.mkdirSync(path.dirname(path.join(OUT, rel)), { recursive: true });
    fs.copyFileSync(abs, path.join(OUT, rel));
    n++;
  }
  return n;
}

const started = Date.now();
fs.rmSync(OUT, { recursive: true, force: true });
try {
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(ROOT, 'tsconfig.server.json')], { cwd: ROOT, stdio: 'inherit' });
} catch {
  console.error('build:server: TypeScript reported errors (above); nothing was written');
  process.exit(1);
}
const assets = copyAssets('core') + copyAssets('plugins');
// the compiled tree is ES modules like the sources (package.json "type": "module" is above it)
const modules = fs.readdirSync(OUT, { recursive: true }).filter((f) => String(f).endsWith('.js')).length;
console.log(`build:server: ${modules} modules and ${assets} files beside them in ${path.relative(ROOT, OUT)} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
