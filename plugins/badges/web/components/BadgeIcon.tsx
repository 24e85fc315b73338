/** A badge's emoji on a disc of its colour (decorative: the name is always next to it or in the label). */
export function BadgeIcon({ icon, color, size = 40, locked = false, label }: { icon: string; color: string; size?: number; locked?: boolean; label?: string }) {
  const safe = /^#[0-9a-f]{6}$/i.test(color) ? color : '#3B82F6';
  return (
    <span
      className={`curio-badge-icon${locked ? ' is-locked' : ''}`}
      style={{ width: size, height: size, fontSize: Math.round(size * 0.5), background: `${safe}22`, borderColor: safe }}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      <span aria-hidden="true">{icon}</span>
    </span>
  );
}
