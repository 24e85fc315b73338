import { EmojiIcon } from '../../../../web/src/index.ts';

/**
 * A badge's icon on a disc of its colour (decorative: the name is always next to it or in the
 * label). The stored icon stays an emoji (the API's field); it is drawn as an SVG symbol when the
 * shell's set has one, so it never shows as empty boxes without a colour-emoji font (issue 21).
 */
export function BadgeIcon({ icon, color, size = 40, locked = false, label }: { icon: string; color: string; size?: number; locked?: boolean; label?: string }) {
  const safe = /^#[0-9a-f]{6}$/i.test(color) ? color : '#3B82F6';
  return (
    <span
      className={`curio-badge-icon${locked ? ' is-locked' : ''}`}
      style={{ width: size, height: size, fontSize: Math.round(size * 0.5), background: `${safe}22`, borderColor: safe, color: `color-mix(in srgb, ${safe} 65%, var(--curio-text, #1f1d2b))` }}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      data-icon={icon}
    >
      <EmojiIcon emoji={icon} size={Math.round(size * 0.55)} />
    </span>
  );
}
