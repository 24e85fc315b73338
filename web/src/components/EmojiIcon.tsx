import { Fragment, useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import { ICON_PATHS, StrokeSvg } from './Icon.tsx';

/**
 * Icons drawn as SVG for the emoji people pick as symbols (badge icons): an emoji renders as empty
 * boxes on a system without a colour-emoji font (issue 21), an SVG always renders. Stroke paths
 * in the style of the shell's Icon set (24×24, 2 px; Feather/Lucide shapes, MIT), keyed by name.
 */
export const SYMBOL_PATHS: Record<string, string> = {
  trophy:
    'M6 9H4.5a2.5 2.5 0 0 1 0-5H6 M18 9h1.5a2.5 2.5 0 0 0 0-5H18 M4 22h16 M10 14.66V17c0 .55-.47.98-.97 1.21C7.85 18.75 7 20.24 7 22 M14 14.66V17c0 .55.47.98.97 1.21C16.15 18.75 17 20.24 17 22 M18 2H6v7a6 6 0 0 0 12 0V2z',
  ticket: 'M2 9a3 3 0 0 1 0 6v2a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-2a3 3 0 0 1 0-6V7a2 2 0 0 0-2-2H4a2 2 0 0 0-2 2z M13 5v2 M13 17v2 M13 11v2',
  compass: ICON_PATHS.compass,
  museum: ICON_PATHS.museum,
  pen: 'M12 20h9 M16.5 3.5a2.12 2.12 0 0 1 3 3L7 19l-4 1 1-4z',
  notes: 'M14.5 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V7.5z M14 2v6h6 M16 13H8 M16 17H8 M10 9H8',
  heart: ICON_PATHS.heart,
  star: ICON_PATHS.star,
  sparkles: 'M12 3l1.9 5.8L20 10l-6.1 1.2L12 17l-1.9-5.8L4 10l6.1-1.2z M19 3v4 M21 5h-4 M5 17v4 M7 19H3',
  eye: 'M1 12s4-8 11-8 11 8 11 8-4 8-11 8-11-8-11-8z M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
  handshake:
    'M11 17l2 2a1 1 0 1 0 3-3 M14 14l2.5 2.5a1 1 0 1 0 3-3l-3.88-3.88a3 3 0 0 0-4.24 0l-.88.88a1 1 0 1 1-3-3l2.81-2.81a5.79 5.79 0 0 1 7.06-.87l.47.28a2 2 0 0 0 1.42.25L21 4 M21 3l1 11h-2 M3 3L2 14l6.5 6.5a1 1 0 1 0 3-3 M3 4h8',
  globe: ICON_PATHS.globe,
  award: ICON_PATHS.award,
  camera: ICON_PATHS.camera,
  'map-pin': ICON_PATHS['map-pin'],
  map: ICON_PATHS.map,
  users: ICON_PATHS.users,
  message: ICON_PATHS.message,
  calendar: ICON_PATHS.calendar,
  crown: 'M2 6l4 11h12l4-11-6 5-4-7-4 7z M5 21h14',
  flag: 'M4 15s1-1 4-1 5 2 8 2 4-1 4-1V3s-1 1-4 1-5-2-8-2-4 1-4 1z M4 22v-7',
  book: 'M4 19.5A2.5 2.5 0 0 1 6.5 17H20 M6.5 2H20v20H6.5A2.5 2.5 0 0 1 4 19.5v-15A2.5 2.5 0 0 1 6.5 2z',
  palette: 'M12 22a10 10 0 1 1 10-10c0 2.5-2 4-4.5 4H16a2 2 0 0 0-1.5 3.3A1.7 1.7 0 0 1 13 22z M7.5 10.5h.01 M10.5 7h.01 M15 7.5h.01 M17 11h.01',
  flame: 'M8.5 14.5A2.5 2.5 0 0 0 11 12c0-1.38-.5-2-1-3-1.07-2.14-.22-4.05 2-6 .5 2.5 2 4.9 4 6.5 2 1.6 3 3.5 3 5.5a7 7 0 1 1-14 0c0-1.15.43-2.29 1-3a2.5 2.5 0 0 0 2.5 2.5z',
  zap: 'M13 2L3 14h9l-1 8 10-12h-9z',
  'thumbs-up': 'M7 10v12 M15 5.88L14 10h5.83a2 2 0 0 1 1.92 2.56l-2.33 8A2 2 0 0 1 17.5 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.76a2 2 0 0 0 1.79-1.11L12 2a3.13 3.13 0 0 1 3 3.88z',
  rocket: 'M4.5 16.5c-1.5 1.26-2 5-2 5s3.74-.5 5-2c.71-.84.7-2.13-.09-2.91a2.18 2.18 0 0 0-2.91-.09z M12 15l-3-3a22 22 0 0 1 2-3.95A12.88 12.88 0 0 1 22 2c0 2.72-.78 7.5-6 11a22.35 22.35 0 0 1-4 2z M9 12H4s.55-3.03 2-4c1.62-1.08 5 0 5 0 M12 15v5s3.03-.55 4-2c1.08-1.62 0-5 0-5',
  mountain: 'M8 3l4 8 5-5 5 15H2z',
};

/** Emoji (without variation selectors) → symbol name. Several emoji share one symbol. */
const EMOJI_SYMBOLS: Record<string, string> = {};
const add = (name: string, list: string) => {
  for (const e of list.split(' ')) EMOJI_SYMBOLS[e.replace(/\uFE0F/g, '')] = name;
};
add('trophy', '🏆');
add('ticket', '🎟️ 🎫');
add('compass', '🧭');
add('museum', '🏛️ 🏛');
add('pen', '✍️ ✏️ 🖊️ 🖋️');
add('notes', '📝 📄 📃');
add('heart', '❤️ 💖 💜 💙 💚 🧡 💛 ❣️ 😍');
add('star', '⭐ 🌠');
add('sparkles', '🌟 ✨ 💫');
add('eye', '👀 👁️ 🔍 🔎');
add('handshake', '🤝');
add('globe', '🌍 🌎 🌏 🌐');
add('award', '🏅 🎖️ 🥇 🥈 🥉 🎉 🎊');
add('camera', '📷 📸');
add('map-pin', '📍');
add('map', '🗺️');
add('users', '👥 👪 🧑‍🤝‍🧑');
add('message', '💬 🗨️');
add('calendar', '📅 🗓️ 📆');
add('crown', '👑');
add('flag', '🚩 🏁');
add('book', '📚 📖 📕 📘');
add('palette', '🎨 🖼️');
add('flame', '🔥');
add('zap', '⚡');
add('thumbs-up', '👍');
add('rocket', '🚀');
add('mountain', '⛰️ 🏔️');

/** The symbol drawn for an emoji (null when the set has none). */
export function symbolOfEmoji(emoji: string | null | undefined): string | null {
  const key = String(emoji ?? '').trim().replace(/\uFE0F/g, '');
  return EMOJI_SYMBOLS[key] ?? null;
}

/** The emoji an admin picks for each symbol (stored as the badge's icon: the API keeps its emoji field). */
export const SYMBOL_EMOJI: Record<string, string> = {
  trophy: '🏆',
  award: '🏅',
  star: '⭐',
  sparkles: '🌟',
  ticket: '🎟️',
  compass: '🧭',
  museum: '🏛️',
  pen: '✍️',
  notes: '📝',
  heart: '❤️',
  eye: '👀',
  handshake: '🤝',
  globe: '🌍',
  camera: '📷',
  'map-pin': '📍',
  map: '🗺️',
  users: '👥',
  message: '💬',
  calendar: '📅',
  crown: '👑',
  flag: '🚩',
  book: '📚',
  palette: '🎨',
  flame: '🔥',
  zap: '⚡',
  'thumbs-up': '👍',
  rocket: '🚀',
  mountain: '⛰️',
};

let colorEmoji: boolean | null = null;
/**
 * Whether this browser draws emoji in colour (a colour-emoji font is installed): an emoji drawn
 * in black on a canvas comes out with coloured pixels only then. Without one, an unknown emoji is
 * not shown (it would be an empty box) and the fallback symbol is.
 */
export function browserDrawsColorEmoji(): boolean {
  if (colorEmoji !== null) return colorEmoji;
  try {
    const c = document.createElement('canvas');
    c.width = c.height = 20;
    const g = c.getContext('2d', { willReadFrequently: true });
    if (!g) return (colorEmoji = true);
    g.fillStyle = '#000';
    g.textBaseline = 'top';
    g.font = '16px sans-serif';
    g.fillText('\u{1F600}', 0, 0);
    const px = g.getImageData(0, 0, 20, 20).data;
    colorEmoji = false;
    for (let i = 0; i < px.length; i += 4) {
      if (px[i + 3] > 0 && (Math.abs(px[i] - px[i + 1]) > 20 || Math.abs(px[i + 1] - px[i + 2]) > 20)) {
        colorEmoji = true;
        break;
      }
    }
  } catch {
    colorEmoji = true;
  }
  return colorEmoji;
}

export interface EmojiIconProps {
  emoji: string;
  size?: number;
  /** the symbol when the emoji has none and the browser cannot draw it */
  fallback?: string;
  className?: string;
  style?: CSSProperties;
  strokeWidth?: number;
}

/**
 * An emoji shown as its SVG symbol when the set has one; otherwise the emoji itself where the
 * browser draws colour emoji, else the fallback symbol. Decorative (aria-hidden): the name it
 * stands for is always next to it or in its container's label.
 */
export function EmojiIcon({ emoji, size = 20, fallback = 'award', className, style, strokeWidth = 2 }: EmojiIconProps) {
  const symbol = symbolOfEmoji(emoji);
  // the server and the first render show the emoji (no canvas there); the browser decides at mount
  const [drawable, setDrawable] = useState(true);
  useEffect(() => {
    if (!symbol) setDrawable(browserDrawsColorEmoji());
  }, [symbol]);
  const name = symbol ?? (drawable ? null : fallback);
  const d = name ? SYMBOL_PATHS[name] : null;
  if (!d) {
    return (
      <span className={`curio-emoji-icon ${className ?? ''}`} style={{ fontSize: size * 0.9, lineHeight: 1, ...style }} aria-hidden="true" data-emoji={emoji}>
        {emoji}
      </span>
    );
  }
  return <StrokeSvg d={d} size={size} className={`curio-emoji-icon ${className ?? ''}`} style={style} strokeWidth={strokeWidth} attrs={{ 'aria-hidden': true, 'data-symbol': name }} />;
}

/** An emoji and what may follow it (variation selectors, skin tones, joined emoji). */
const EMOJI_RE = /\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier}|\u200D\p{Extended_Pictographic}\uFE0F?)*/gu;

/**
 * A text with each emoji the set has a symbol for drawn as that SVG symbol (at about the text's
 * size) in its place, every other character as it is: a sentence written with an emoji in it (a
 * spec's toast text) never shows an empty box. The symbols are decorative (aria-hidden).
 */
export function EmojiText({ text, size = 16 }: { text: string; size?: number }): ReactNode {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(EMOJI_RE)) {
    const at = m.index ?? 0;
    if (!symbolOfEmoji(m[0])) continue;
    if (at > last) parts.push(text.slice(last, at));
    parts.push(<EmojiIcon emoji={m[0]} size={size} className="curio-emoji-inline" />);
    last = at + m[0].length;
  }
  if (!parts.length) return text;
  if (last < text.length) parts.push(text.slice(last));
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>{p}</Fragment>
      ))}
    </>
  );
}

/** Black or white, whichever reads better on a #rrggbb background (WCAG relative luminance). */
export function inkOn(hex: string): '#ffffff' | '#111111' {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return '#ffffff';
  const n = parseInt(m[1], 16);
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * lin((n >> 16) & 255) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255);
  // contrast with white (1.05 / (l + .05)) against contrast with black ((l + .05) / .05)
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? '#ffffff' : '#111111';
}
