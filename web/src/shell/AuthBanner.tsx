import { useTranslation } from 'react-i18next';
import { useAuth } from '../lib/auth.tsx';
import { useOnline } from '../lib/online.ts';
import { Icon } from '../components/Icon.tsx';

/**
 * Sign-in status (spec part 1 §2): offline, checking, reconnecting, or the session notice with
 * Retry and dismiss. Hidden when signed in, online and not loading or retrying.
 */
export function AuthBanner() {
  const { t } = useTranslation('core');
  const online = useOnline();
  const { isLoading, isRetrying, sessionNotice, refresh, dismissSessionNotice } = useAuth();
  let kind: 'offline' | 'checking' | 'reconnecting' | 'session' | null = null;
  if (!online) kind = 'offline';
  else if (isLoading) kind = 'checking';
  else if (isRetrying) kind = 'reconnecting';
  else if (sessionNotice) kind = 'session';
  return (
    <div className="curio-auth-banner-region" role="status" aria-live="polite">
      {kind && (
        <div className={`curio-auth-banner is-${kind}`} data-testid="auth-banner">
          {kind === 'offline' && <Icon name="wifi-off" size={16} />}
          {(kind === 'checking' || kind === 'reconnecting') && <span className="curio-spinner curio-spinner--tiny" aria-hidden="true" />}
          {kind === 'session' && <Icon name="alert" size={16} />}
          <span className="curio-auth-banner__text">
            {kind === 'offline' && t('banner.offline')}
            {kind === 'checking' && t('banner.checking')}
            {kind === 'reconnecting' && t('banner.reconnecting')}
            {kind === 'session' && t('banner.sessionExpired')}
          </span>
          {kind === 'session' && (
            <>
              <button type="button" className="button is-small is-white is-rounded" onClick={() => void refresh()}>
                {t('banner.retry')}
              </button>
              <button type="button" className="curio-icon-button is-small" aria-label={t('banner.dismiss')} onClick={dismissSessionNotice}>
                <Icon name="x" size={14} />
              </button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
