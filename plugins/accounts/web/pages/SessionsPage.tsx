import { useState } from 'react';
import { EmptyState, Icon, Page, RelativeTime, Spinner, toast, useApi, useTranslation, withRetry } from '../../../../web/src/index.ts';
import { logoutAllSessions } from '../../../../web/src/api/generated/accounts.ts';
import { EXPIRING_SOON_MS, LOGOUT_ALL_MIN_MS, SESSIONS_KEY, SESSIONS_POLL_MS, describeAgent, type SessionInfo } from '../lib.ts';
import '../accounts.css';

function SessionDetails({ s }: { s: SessionInfo }) {
  const { t } = useTranslation('accounts');
  const device = describeAgent(s.userAgent);
  return (
    <dl className="acc-session__details">
      <div>
        <dt>{t('sessions.sessionId')}</dt>
        <dd className="acc-session__id">
          {s.sessionId}
          {s.isCurrent ? t('sessions.currentMark') : ''}
        </dd>
      </div>
      <div>
        <dt>{t('sessions.expires')}</dt>
        <dd>
          <RelativeTime date={s.expiresAt} />
        </dd>
      </div>
      <div>
        <dt>{t('sessions.type')}</dt>
        <dd>{s.rememberMe ? t('sessions.extended') : t('sessions.regular')}</dd>
      </div>
      <div>
        <dt>{t('sessions.lastActivity')}</dt>
        <dd>
          <RelativeTime date={s.lastActivity} />
        </dd>
      </div>
      <div>
        <dt>{t('sessions.device')}</dt>
        <dd>{device ?? t('sessions.unknownDevice')}</dd>
      </div>
      {s.ip && (
        <div>
          <dt>{t('sessions.ipAddress')}</dt>
          <dd>{s.ip}</dd>
        </div>
      )}
    </dl>
  );
}

/** /sessions (spec part 1 §2 Session management): polled every 30 s. */
export default function SessionsPage() {
  const { t } = useTranslation('accounts');
  const { data, error, isLoading, isValidating, mutate } = useApi<{ sessions: SessionInfo[] }>(SESSIONS_KEY, { refreshInterval: SESSIONS_POLL_MS });
  const [loggingOut, setLoggingOut] = useState(false);

  const sessions = data?.sessions ?? [];
  const current = sessions.find((s) => s.isCurrent);
  const others = sessions.filter((s) => !s.isCurrent);
  const expiringSoon = current ? new Date(current.expiresAt).getTime() - Date.now() < EXPIRING_SOON_MS : false;

  const logoutOthers = async () => {
    setLoggingOut(true);
    const started = Date.now();
    try {
      const r = await withRetry(() => logoutAllSessions(), { retries: 2, retryIf: (e: any) => !e?.status || e.status >= 500 || e.status === 408 });
      await new Promise((res) => setTimeout(res, Math.max(0, LOGOUT_ALL_MIN_MS - (Date.now() - started))));
      toast({ title: t('sessions.loggedOut'), description: t('sessions.loggedOutText', { count: r.deletedCount }), variant: 'success' });
      await mutate();
    } catch (e) {
      await new Promise((res) => setTimeout(res, Math.max(0, LOGOUT_ALL_MIN_MS - (Date.now() - started))));
      toast({ title: t('sessions.error'), description: (e as Error)?.message || t('sessions.logoutFailed'), variant: 'destructive' });
    } finally {
      setLoggingOut(false);
    }
  };

  const refresh = (
    <button type="button" className={`button is-light${isValidating && !isLoading ? ' is-loading' : ''}`} onClick={() => void mutate()} disabled={isLoading}>
      <Icon name="refresh" size={16} />
      <span>{t('sessions.refresh')}</span>
    </button>
  );

  return (
    <Page title={t('sessions.title')} actions={refresh} width="narrow" className="acc-sessions">
      {isLoading ? (
        <Spinner center label={t('sessions.loading')} />
      ) : error && !data ? (
        <EmptyState
          tone="error"
          title={t('sessions.loadFailed')}
          description={error.message}
          action={
            <button type="button" className="button is-light" onClick={() => void mutate()}>
              {t('sessions.retry')}
            </button>
          }
        />
      ) : (
        <>
          <section className="box acc-session is-current" aria-labelledby="acc-current-h">
            <h2 className="title is-5" id="acc-current-h">
              <Icon name="shield" size={18} /> {t('sessions.currentSession')}
            </h2>
            {current ? <SessionDetails s={current} /> : <p className="has-text-grey">{t('sessions.noCurrent')}</p>}
            {expiringSoon && (
              <div className="notification is-warning is-light acc-session__warning" role="status">
                <p className="has-text-weight-semibold">
                  <Icon name="alert" size={16} /> {t('sessions.expiringSoon')}
                </p>
                <p>{t('sessions.expiringSoonText')}</p>
              </div>
            )}
          </section>

          <section className="box" aria-labelledby="acc-others-h">
            <div className="acc-sessions__others-head">
              <h2 className="title is-5 mb-0" id="acc-others-h">
                {t('sessions.otherSessions')} <span className="tag is-rounded">{t('sessions.otherCount', { count: others.length })}</span>
              </h2>
              {others.length > 0 && (
                <button type="button" className={`button is-danger is-light${loggingOut ? ' is-loading' : ''}`} onClick={logoutOthers} disabled={loggingOut} aria-busy={loggingOut}>
                  {loggingOut ? t('sessions.loggingOut') : t('sessions.logoutAll')}
                </button>
              )}
            </div>
            {others.length === 0 ? (
              <p className="has-text-grey mt-3">{t('sessions.noOthers')}</p>
            ) : (
              <ul className="acc-sessions__list">
                {others.map((s) => (
                  <li key={s.sessionId} className="acc-session">
                    <SessionDetails s={s} />
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section className="box acc-tips" aria-labelledby="acc-tips-h">
            <h2 className="title is-5" id="acc-tips-h">
              <Icon name="info" size={18} /> {t('sessions.tipsTitle')}
            </h2>
            <ul>
              <li>{t('sessions.tipRegular')}</li>
              <li>{t('sessions.tipExtended')}</li>
              <li>{t('sessions.tipActivity')}</li>
              <li>{t('sessions.tipShared')}</li>
              <li>{t('sessions.tipRemember')}</li>
            </ul>
          </section>
        </>
      )}
    </Page>
  );
}
