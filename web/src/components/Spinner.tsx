import { useTranslation } from 'react-i18next';

export interface SpinnerProps {
  size?: 'small' | 'medium' | 'large';
  /** text for screen readers (and shown under the spinner when `showLabel`) */
  label?: string;
  showLabel?: boolean;
  /** centre it in a padded block */
  center?: boolean;
  className?: string;
}

export function Spinner({ size = 'medium', label, showLabel = false, center = false, className }: SpinnerProps) {
  const { t } = useTranslation('core');
  const text = label ?? t('loading');
  return (
    <div className={`curio-spinner-wrap${center ? ' is-centered' : ''} ${className ?? ''}`} role="status" aria-live="polite">
      <span className={`curio-spinner curio-spinner--${size}`} aria-hidden="true" />
      {showLabel ? <p className="curio-spinner__label">{text}</p> : <span className="is-sr-only">{text}</span>}
    </div>
  );
}
