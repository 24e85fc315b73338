import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SUPPORTED_LOCALES, currentLocale, setLocale, type Locale } from '../i18n.ts';
import { useAppConfig } from '../lib/app-config.tsx';
import { Icon } from '../components/Icon.tsx';

/** en / fr, remembered in localStorage and the curio-locale cookie (the server's renders); sets <html lang>. */
export function LocaleSwitcher({ compact = false, className }: { compact?: boolean; className?: string }) {
  const { t, i18n } = useTranslation('core');
  const id = useId();
  const { locales } = useAppConfig();
  const available = SUPPORTED_LOCALES.filter((l) => !locales?.length || locales.includes(l));
  const value = currentLocale();
  void i18n.language; // re-render on language change
  return (
    <div className={`curio-locale ${compact ? 'is-compact' : ''} ${className ?? ''}`}>
      <label htmlFor={id} className={compact ? 'is-sr-only' : 'curio-locale__label'}>
        <Icon name="globe" size={16} /> <span>{t('footer.language')}</span>
      </label>
      {compact && <Icon name="globe" size={16} className="curio-locale__icon" />}
      <div className="select is-small is-rounded">
        <select id={id} value={value} onChange={(e) => void setLocale(e.target.value as Locale)} data-testid="locale-switcher">
          {available.map((l) => (
            <option key={l} value={l} lang={l}>
              {compact ? l.toUpperCase() : t(`locales.${l}`)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
