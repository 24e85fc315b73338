/**
 * Dark mode is written once. A member who chose Dark gets `data-theme="dark"` on <html> (put there
 * by the server from the curio-theme cookie); one who left the choice on System gets no attribute,
 * and the page must follow the OS without JavaScript. Every top-level rule whose selectors start
 * with `:root[data-theme='dark']` is therefore copied, at build time, into
 * `@media (prefers-color-scheme: dark)` with `:root:not([data-theme='light'])` in its place, right
 * after it (same order, so the cascade is the same for both ways of being dark).
 *
 * A PostCSS plugin given to Vite's inline `css.postcss` config (PostCSS comes with Vite).
 */
const DARK = /^:root\[data-theme=(['"]?)dark\1\]/;
const SYSTEM_DARK = ":root:not([data-theme='light'])";

interface Node {
  type: string;
  parent?: Node;
  selectors?: string[];
  clone(overrides?: Record<string, unknown>): Node;
  after(node: Node): void;
  append(node: Node): void;
}

export function darkScheme() {
  return {
    postcssPlugin: 'curio-dark-scheme',
    Once(root: { walkRules(cb: (rule: any) => void): unknown }, helpers: { AtRule: new (opts: { name: string; params: string }) => any }) {
      const rules: Node[] = [];
      root.walkRules((rule: Node) => {
        if (rule.parent?.type !== 'root') return;
        if (rule.selectors!.some((s) => DARK.test(s))) rules.push(rule);
      });
      for (const rule of rules) {
        const selectors = rule.selectors!.filter((s) => DARK.test(s)).map((s) => s.replace(DARK, SYSTEM_DARK));
        const media = new helpers.AtRule({ name: 'media', params: '(prefers-color-scheme: dark)' });
        media.append(rule.clone({ selectors }));
        rule.after(media);
      }
    },
  };
}
darkScheme.postcss = true;
