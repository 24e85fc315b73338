/**
 * The app's CSS does not block the first paint.
 *
 * Vite links the entry's CSS as a stylesheet, which the browser must download before painting
 * anything, though nothing but the boot screen (styled inline in index.html) is on screen before the
 * JavaScript has run. In production builds this turns that link into a preload (same priority, no
 * blocking), and main.tsx applies the stylesheet and waits for it before React renders, so no page
 * is ever shown unstyled. The dev server is left as it is.
 */
import type { Plugin } from 'vite';

export const ASYNC_STYLE_ATTRIBUTE = 'data-curio-style';

export function asyncCss(): Plugin {
  return {
    name: 'curio-async-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        return html.replace(/<link rel="stylesheet"([^>]*?) href="([^"]+\.css)"([^>]*)>/g, `<link rel="preload" as="style"$1 href="$2"$3 ${ASYNC_STYLE_ATTRIBUTE}>`);
      },
    },
  };
}
