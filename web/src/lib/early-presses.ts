/**
 * Presses made on a page the server rendered, before the browser has made it live.
 *
 * A server-rendered page shows its buttons before its JavaScript runs: the browser first loads
 * the texts and styles (main.tsx), then hydrates the shell, then the page's own code arrives
 * (a lazy chunk). A press in that window used to do nothing (no listener yet, or React dropping
 * a click on a part it cannot hydrate yet), so a visitor on a slow phone tapped "Free now" or
 * "Near me" and nothing happened. Here such presses are held from the first moment and pressed
 * again, in order, once the page is live (`pageIsLive`, from the page host's effects), or after
 * 15 seconds at the latest, so that nothing is held for ever. A press on an element that
 * hydration drew anew (a mismatch) goes to the element in its place, if it has the same text.
 *
 * Links are left alone: before the JavaScript runs they navigate like any link, which works.
 */
const PRESSABLE = 'button, [role="button"], [role="tab"], [role="switch"], [role="checkbox"], [role="menuitem"], input[type="checkbox"], input[type="radio"]';
const LATEST_MS = 15000;

/** A press: the element, and how to find it again if hydration drew it anew (a mismatch). */
interface Press {
  el: HTMLElement;
  path: string;
  text: string;
}

let held: Press[] = [];
let holding = false;
let release: (() => void) | null = null;

function onPress(event: MouseEvent): void {
  const target = event.target instanceof Element ? event.target.closest<HTMLElement>(PRESSABLE) : null;
  if (!target || !event.isTrusted) return;
  if (target.closest('a[href]') && !target.matches('button, input')) return;
  if (!document.getElementById('root')?.contains(target)) return;
  event.preventDefault();
  event.stopPropagation();
  if (!held.some((p) => p.el === target)) held.push({ el: target, path: pathOf(target), text: target.textContent ?? '' });
}

/** The element's place under #root (tag and position at each level): stable when React redraws the same markup. */
function pathOf(el: Element): string {
  const parts: string[] = [];
  for (let e: Element | null = el; e && e.id !== 'root'; e = e.parentElement) {
    const parent: Element | null = e.parentElement;
    const index = parent ? [...parent.children].indexOf(e) + 1 : 1;
    parts.unshift(`${e.tagName.toLowerCase()}:nth-child(${index})`);
  }
  return `#root > ${parts.join(' > ')}`;
}

/** The pressed element, or the one drawn in its place with the same text (never a different control). */
function current(p: Press): HTMLElement | null {
  if (p.el.isConnected) return p.el;
  let again: HTMLElement | null = null;
  try {
    again = document.querySelector<HTMLElement>(p.path);
  } catch {
    return null;
  }
  return again && again.tagName === p.el.tagName && (again.textContent ?? '') === p.text ? again : null;
}

/** Starts holding presses on the server-rendered page (main.tsx, before hydrating). */
export function holdEarlyPresses(): void {
  if (holding || typeof window === 'undefined') return;
  holding = true;
  window.addEventListener('click', onPress, true);
  const timer = window.setTimeout(() => pageIsLive(), LATEST_MS);
  release = () => window.clearTimeout(timer);
}

/** The page is live: stop holding, and press again what was pressed meanwhile. */
export function pageIsLive(): void {
  if (!holding) return;
  holding = false;
  window.removeEventListener('click', onPress, true);
  release?.();
  release = null;
  const presses = held;
  held = [];
  // after this commit's effects, so the handlers the page just attached see the press
  window.setTimeout(() => {
    for (const p of presses) {
      const el = current(p);
      if (el && !(el as HTMLButtonElement).disabled) el.click();
    }
  }, 0);
}
