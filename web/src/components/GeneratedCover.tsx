import { useId } from 'react';
import { ICON_PATHS } from './Icon.tsx';

/**
 * A designed cover for anything without an image of its own (museums, communities, groups,
 * meetups, museum events): an SVG made from its kind and category — a palette, a pattern of the
 * category's motif and one large motif — never initials on a gradient. Scales to any box
 * (preserveAspectRatio slice); decorative unless given a label.
 */
export type CoverKind = 'museum' | 'community' | 'group' | 'meetup' | 'event';

const LEAF = 'M11 20A7 7 0 0 1 4 13c0-6 7-10 16-10 0 9-4 17-9 17z M4 21c3-6 7-10 12-13';
const FLASK = 'M9 3h6 M10 3v6l-5 9a2 2 0 0 0 2 3h10a2 2 0 0 0 2-3l-5-9V3 M7 15h10';
const BLOCKS = 'M4 14h7v7H4z M13 14h7v7h-7z M8.5 6h7v8h-7z';
const MASK = 'M4 5c5 2 11 2 16 0v6a8 8 0 0 1-16 0z M8 10h2 M14 10h2 M9 15c2 1.5 4 1.5 6 0';
const CAP = 'M2 9l10-5 10 5-10 5z M6 11v5c3 2 9 2 12 0v-5 M22 9v6';

/** motif and palette per category (the museum catalogue's categories) and per kind */
const THEMES: Record<string, { motif: string; from: string; to: string }> = {
  'Art Museums': { motif: ICON_PATHS.image, from: '#7b2ff7', to: '#f107a3' },
  'History Museums': { motif: ICON_PATHS.museum, from: '#8e5b2b', to: '#d9a441' },
  'Science Museums': { motif: FLASK, from: '#0f4c81', to: '#1fb5c9' },
  "Children's Museums": { motif: BLOCKS, from: '#ff7a18', to: '#ffd200' },
  'Botanical Gardens & Arboretums': { motif: LEAF, from: '#1d6b3a', to: '#7bc043' },
  'Specialty Museums': { motif: ICON_PATHS.star, from: '#5a3f99', to: '#e2b93b' },
  'Anthropology & Ethnography Museums': { motif: MASK, from: '#8c2f39', to: '#e07a5f' },
  'Living History Sites & Historic Houses': { motif: ICON_PATHS.home, from: '#4a5d23', to: '#c9a227' },
  'University Museums': { motif: CAP, from: '#1b2a6b', to: '#4f6bd8' },
  community: { motif: ICON_PATHS.users, from: '#3e56c4', to: '#22a6b3' },
  group: { motif: ICON_PATHS.message, from: '#6a4bc4', to: '#d8589a' },
  meetup: { motif: ICON_PATHS.calendar, from: '#0b7a75', to: '#7cc47f' },
  event: { motif: ICON_PATHS.calendar, from: '#b23a48', to: '#f2a541' },
  museum: { motif: ICON_PATHS.museum, from: '#34495e', to: '#5d8aa8' },
};

export function coverTheme(kind: CoverKind, category?: string | null) {
  return (category && THEMES[category]) || THEMES[kind] || THEMES.museum;
}

function hash(s: string): number {
  let h = 2166136261;
  for (const ch of s) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

export interface GeneratedCoverProps {
  kind: CoverKind;
  category?: string | null;
  /** varies the layout between covers of one category (e.g. the name) */
  seed?: string;
  /** accessible name; absent: decorative */
  label?: string;
  className?: string;
}

export function GeneratedCover({ kind, category, seed = '', label, className }: GeneratedCoverProps) {
  const id = useId().replace(/:/g, '');
  const theme = coverTheme(kind, category);
  const h = hash(`${kind}|${category ?? ''}|${seed}`);
  const angle = h % 360;
  const big = 150 + (h % 50);
  const bx = 230 + ((h >> 8) % 90);
  const by = 20 + ((h >> 16) % 40);
  const motifs = [];
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 9; col++) {
      const x = col * 48 + (row % 2 ? 24 : 0) - 10;
      const y = row * 48 - 6;
      motifs.push(<path key={`${row}-${col}`} d={theme.motif} transform={`translate(${x} ${y}) scale(0.9)`} />);
    }
  }
  return (
    <svg
      className={`curio-cover ${className ?? ''}`}
      viewBox="0 0 400 225"
      preserveAspectRatio="xMidYMid slice"
      xmlns="http://www.w3.org/2000/svg"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true, focusable: 'false' })}
      data-cover={category || kind}
    >
      <defs>
        <linearGradient id={`${id}-g`} gradientTransform={`rotate(${angle % 90} 0.5 0.5)`}>
          <stop offset="0" stopColor={theme.from} />
          <stop offset="1" stopColor={theme.to} />
        </linearGradient>
      </defs>
      <rect width="400" height="225" fill={`url(#${id}-g)`} />
      <g fill="none" stroke="#fff" strokeOpacity="0.13" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round">
        {motifs}
      </g>
      <circle cx={bx + big / 2} cy={by + big / 2} r={big / 1.6} fill="#fff" fillOpacity="0.1" />
      <path
        d={theme.motif}
        transform={`translate(${bx} ${by}) scale(${big / 24})`}
        fill="none"
        stroke="#fff"
        strokeOpacity="0.85"
        strokeWidth={1.4}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
