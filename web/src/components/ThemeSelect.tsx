import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon.tsx';
import { THEME_CHOICES, useThemeChoice, type ThemeChoice } from '../lib/theme.ts';

/**
 * System / Light / Dark, for everyone (the footer; Settings for members, who also store it with
 * their preferences through `onChange`). A native select: keyboard and screen readers for free.
 */
export function ThemeSelect({ onChange, showLabel = true, className }: { onChange?: (c: ThemeChoice) => void; showLabel?: boolean; className?: string }) {
  const { t } = useTranslation('core');
  const id = useId();
  const [choice, setChoice] = useThemeChoice();
  return (
    <div className={`curio-theme-select ${className ?? ''}`}>
      <label htmlFor={id} className={showLabel ? 'curio-locale__label' : 'is-sr-only'}>
        <Icon name="sun-moon" size={16} /> <span>{t('theme.label')}</span>
      </label>
      <div className="select is-small is-rounded">
        <select
          id={id}
          value={choice}
          data-testid="theme-select"
          onChange={(e) => {
            const c = e.target.value as ThemeChoice;
            setChoice(c);
            onChange?.(c);
          }}
        >
          {THEME_CHOICES.map((c) => (
            <option key={c} value={c}>
              {t(`theme.${c}`)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
