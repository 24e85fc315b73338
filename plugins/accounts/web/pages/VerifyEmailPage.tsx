import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Icon, Spinner, useAuth, useDocumentTitle, useTranslation } from '../../../../web/src/index.ts';
import { verifyEmail } from '../../../../web/src/api/generated/accounts.ts';
import '../accounts.css';

/** /auth/verify?token=…: confirms the address at once (signed in or not). */
export default function VerifyEmailPage() {
  const { t } = useTranslation('accounts');
  useDocumentTitle(t('recovery.verifyTitle'));
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { user, refresh } = useAuth();
  const [state, setState] = useState<{ status: 'pending' | 'done' | 'failed'; message?: string }>({ status: token ? 'pending' : 'failed' });
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    verifyEmail({ body: { token } })
      .then(async () => {
        setState({ status: 'done' });
        await refresh().catch(() => null);
      })
      .catch((e: Error) => setState({ status: 'failed', message: e.message }));
  }, [token, refresh]);

  return (
    <section className="section acc-auth">
      <div className="acc-auth__card box">
        <div className="acc-auth__head">
          <span className="acc-brand__mark" aria-hidden="true">
            <Icon name="museum" size={22} />
          </span>
          <h1 className="title is-4">{t('recovery.verifyTitle')}</h1>
        </div>
        {state.status === 'pending' && <Spinner center label={t('recovery.verifying')} />}
        {state.status === 'done' && (
          <div className="notification is-success is-light" role="status" id="acc-verify-done">
            {t('recovery.verified')}
          </div>
        )}
        {state.status === 'failed' && (
          <div className="notification is-danger is-light" role="alert" id="acc-verify-failed">
            {token ? (state.message ?? t('recovery.verifyFailed')) : t('recovery.missingToken')}
          </div>
        )}
        <p className="acc-auth__switch">
          <Link to={user ? '/' : '/auth'}>{user ? t('recovery.goHome') : t('recovery.backToSignIn')}</Link>
        </p>
      </div>
    </section>
  );
}
