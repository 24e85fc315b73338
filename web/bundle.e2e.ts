/**
 * The production build's entry chunk (issue 19: the public pages' initial JavaScript): what
 * index.html loads before anything else — the entry and the chunks it imports statically — must not
 * hold what only some pages or some moments need: any plugin's texts (they load per language and
 * namespace, i18n.ts), the second language of the shell's own texts, the forms component, the
 * photo viewer, the maps library. Sizes are bench:web's business (not timed or measured here):
 * this only checks that the split holds. Needs `npm run build:web`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'web', 'dist');

/** The entry chunk and every chunk it imports statically (import … from "./x.js" / import "./x.js"). */
function entryClosure(): Map<string, string> {
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]*src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
  if (!entry) throw new Error('no entry script in web/dist/index.html');
  const out = new Map<string, string>();
  const todo = [entry];
  while (todo.length) {
    const f = todo.pop()!;
    if (out.has(f)) continue;
    const code = fs.readFileSync(path.join(DIST, 'assets', f), 'utf8');
    out.set(f, code);
    // static imports only: `import{a as b}from"./x.js"`, `import"./x.js"` (not import("./x.js"))
    for (const m of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[^'"();]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) todo.push(m[1]);
  }
  return out;
}

/** The longest text of a locale file: a string no code contains by chance. */
function longestText(file: string): string {
  const texts: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') texts.push(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(JSON.parse(fs.readFileSync(file, 'utf8')));
  return texts.filter((t) => !/[{}<>"\\]/.test(t)).sort((a, b) => b.length - a.length)[0];
}

describe('web build: the entry chunk leaves lazy parts out', function () {
  let closure: Map<string, string>;
  before(function () {
    if (!fs.existsSync(path.join(DIST, 'index.html'))) throw new Error('web/dist is not built: run npm run build:web first');
    closure = entryClosure();
  });

  const holding = (needle: string | RegExp) => [...closure].filter(([, code]) => (typeof needle === 'string' ? code.includes(needle) : needle.test(code))).map(([f]) => f);

  it('loads React, the router, i18next and SWR, and the shell (sanity: the walk finds them)', () => {
    expect(closure.size).to.be.greaterThan(3);
    expect(holding('react.transitional.element').length, 'React').to.be.greaterThan(0);
    expect(holding('curio-boot').length + holding('curio-app').length, 'the shell').to.be.greaterThan(0);
  });

  it('holds no plugin texts and only one language of the shell texts', () => {
    const plugins = fs.readdirSync(path.join(ROOT, 'plugins')).filter((id) => fs.existsSync(path.join(ROOT, 'plugins', id, 'locales', 'en.json')));
    expect(plugins.length).to.be.greaterThan(3);
    for (const id of plugins) {
      for (const lng of ['en', 'fr']) {
        const text = longestText(path.join(ROOT, 'plugins', id, 'locales', `${lng}.json`));
        expect(holding(text), `${id}/${lng} text "${text.slice(0, 40)}…" in the entry`).to.deep.equal([]);
      }
    }
    for (const lng of ['en', 'fr']) {
      const text = longestText(path.join(ROOT, 'web', 'src', 'locales', `${lng}.json`));
      expect(holding(text), `shell ${lng} text in the entry`).to.deep.equal([]);
    }
  });

  it('holds neither the forms component, nor the photo viewer, nor the maps library', () => {
    expect(holding('core:form.commaHint'), 'SchemaForm').to.deep.equal([]);
    expect(holding('insights-lightbox'), 'PhotoLightbox').to.deep.equal([]);
    expect(holding(/maps\.googleapis\.com|google\.maps\./), 'maps').to.deep.equal([]);
  });
});
