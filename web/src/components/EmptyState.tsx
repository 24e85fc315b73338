import type { ReactNode } from 'react';
import { Icon } from './Icon.tsx';

export interface EmptyStateProps {
  title: ReactNode;
  description?: ReactNode;
  /** an icon name (see Icon) or emoji */
  icon?: string;
  /** a button or link */
  action?: ReactNode;
  /** 'error' gives a red tint (load failures) */
  tone?: 'neutral' | 'error';
  compact?: boolean;
  className?: string;
}

export function EmptyState({ title, description, icon = 'inbox', action, tone = 'neutral', compact = false, className }: EmptyStateProps) {
  return (
    <div className={`curio-empty${compact ? ' is-compact' : ''}${tone === 'error' ? ' is-error' : ''} ${className ?? ''}`}>
      <span className="curio-empty__icon">
        <Icon name={tone === 'error' && icon === 'inbox' ? 'alert' : icon} size={compact ? 24 : 32} />
      </span>
      <p className="curio-empty__title">{title}</p>
      {description && <p className="curio-empty__description">{description}</p>}
      {action && <div className="curio-empty__action">{action}</div>}
    </div>
  );
}
