import { useTranslation } from 'react-i18next';
import { canonicalRole, normalizeRole } from '../lib/roles.ts';

const COLOURS: Record<string, string> = {
  admin: 'curio-tag--red',
  museummanager: 'curio-tag--blue',
  ambassador: 'curio-tag--purple',
};

export interface RoleBadgeProps {
  role: string | null | undefined;
  /** hide the default Traveler role (most users) */
  hideTraveler?: boolean;
  size?: 'small' | 'normal' | 'medium';
  className?: string;
}

/** Role badge: Admin red, Museum Manager blue, Ambassador purple, other grey. */
export function RoleBadge({ role, hideTraveler = false, size = 'small', className }: RoleBadgeProps) {
  const { t } = useTranslation('core');
  const name = canonicalRole(role);
  const n = normalizeRole(name);
  if (hideTraveler && (n === 'traveler' || !role)) return null;
  const colour = COLOURS[n] ?? 'curio-tag--grey';
  return <span className={`tag is-rounded ${size === 'normal' ? '' : `is-${size}`} ${colour} curio-role ${className ?? ''}`}>{t(`roles.${name}`, { defaultValue: name })}</span>;
}
