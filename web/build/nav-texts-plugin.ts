import fs from 'node:fs';
import path from 'node:path';

const PREFIX = '\0curio-nav:';

/**
 * `plugins/<id>/locales/<lng>.json?nav`: a module of only the `nav` texts of a plugin's locale file
 * (the bars' labels, the footer's links). The shell bundles these few hundred bytes for every
 * plugin (i18n.ts, namespace `nav`), so that drawing the bars no longer loads a plugin's whole
 * namespace (accounts' 7 kB gzip for "Profile"), and a page loads only the texts it shows.
 */
export function navTexts() {
  return {
    name: 'curio-nav-texts',
    enforce: 'pre' as const,
    resolveId(source: string, importer: string | undefined) {
      const [file, query] = source.split('?');
      if (query !== 'nav' || !file.endsWith('.json')) return null;
      return PREFIX + (importer && !path.isAbsolute(file) ? path.resolve(path.dirname(importer), file) : file);
    },
    load(id: string) {
      if (!id.startsWith(PREFIX)) return null;
      const data = JSON.parse(fs.readFileSync(id.slice(PREFIX.length), 'utf8')) as { nav?: unknown };
      // JSON: the id ends in .json, so Vite's JSON plugin makes the module of it
      return JSON.stringify(data.nav ?? {});
    },
  };
}
