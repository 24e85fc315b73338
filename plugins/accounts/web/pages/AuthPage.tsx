import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError, SchemaForm, TabPanel, Tabs, toast, useAppConfig, useAuth, useDocumentTitle, useTranslation, withRetry, type WebUser, safeNextPath } from '../../../../web/src/index.ts';
import { login, register, type LoginBody, type RegisterBody } from '../../../../web/src/api/generated/accounts.ts';
import loginSchema from '../../schemas/login-body.schema.json';
import registerSchema from '../../schemas/register-body.schema.json';
import { AuthCard, submitOrToast } from '../components/AuthCard.tsx';
import { signInDestination, type SignInDestination } from '../after-sign-in.ts';

/**
 * Login and register retry twice, 1 s doubling, capped at 5 s (spec §9) — but only when the failure
 * can get better: network errors, 408 and 5xx. A wrong password (401) is never resent: each attempt
 * counts against the sign-in throttle.
 */
const AUTH_RETRY = {
  retries: 2,
  baseDelay: 1000,
  maxDelay: 5000,
  retryIf: (e: unknown) => {
    const s = e instanceof ApiError ? e.status : 0;
    return s === 0 || s === 408 || s >= 500;
  },
};

type Tab = 'signin' | 'register';

export default function AuthPage() {
  const { t } = useTranslation('accounts');
  const { appName } = useAppConfig();
  const { setUser } = useAuth();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'register' ? 'register' : 'signin';
  useDocumentTitle(tab === 'register' ? t('auth.signUpTab') : t('auth.signInTab'));

  const setTab = (next: string) => {
    const p = new URLSearchParams(params);
    if (next === 'register') p.set('tab', 'register');
    else p.delete('tab');
    setParams(p, { replace: true });
  };

  const done = async (user: WebUser, onboarding = false) => {
    // back to the page the visitor asked for (same-origin paths only); a new member goes through
    // the onboarding first (issue 21), which then takes them there; a member who left it half-way
    // and signs in without a page to go to is taken back to it (after-sign-in.ts)
    const next = safeNextPath(params.get('next'));
    const to: SignInDestination = onboarding ? { to: next === '/' ? '/welcome' : `/welcome?next=${encodeURIComponent(next)}` } : await signInDestination(params.get('next'));
    await setUser(user);
    navigate(to.to, { replace: true, state: to.state });
  };

  const onSignIn = (values: LoginBody) =>
    submitOrToast(t('auth.signInFailed'), async () => {
      const user = await withRetry(() => login({ body: values }), AUTH_RETRY);
      toast({ title: t('auth.welcomeBack'), description: t('auth.signedIn'), variant: 'success' });
      await done(user as WebUser);
    });

  const onRegister = (values: RegisterBody) =>
    submitOrToast(t('auth.registrationFailed'), async () => {
      const user = await withRetry(() => register({ body: values }), AUTH_RETRY);
      toast({ title: t('auth.welcome', { appName }), description: t('auth.accountCreated'), variant: 'success' });
      await done(user as WebUser, true);
    });

  return (
    <AuthCard title={t('auth.title', { appName })} intro={t('auth.subtitle')}>
      <Tabs
        idPrefix="acc-auth"
        label={t('auth.tabsLabel')}
        variant="is-fullwidth"
        active={tab}
        onChange={setTab}
        tabs={[
          { id: 'signin', label: t('auth.signInTab') },
          { id: 'register', label: t('auth.signUpTab') },
        ]}
      />
      <TabPanel idPrefix="acc-auth" id="signin" active={tab}>
        <SchemaForm<LoginBody>
          id="acc-signin-form"
          schema={loginSchema}
          ns="accounts"
          initialValues={{ rememberMe: false }}
          onSubmit={onSignIn}
          submitLabel={t('auth.signIn')}
          pendingLabel={t('auth.signingIn')}
          fullWidthSubmit
        />
        <p className="acc-auth__forgot has-text-centered mt-2">
          <Link to="/auth/forgot" id="acc-forgot-link">
            {t('recovery.forgotLink')}
          </Link>
        </p>
        <p className="acc-auth__switch">
          {t('auth.noAccount', { appName })}{' '}
          <button type="button" className="button is-ghost is-small p-0" onClick={() => setTab('register')}>
            {t('auth.switchToSignUp')}
          </button>
        </p>
      </TabPanel>
      <TabPanel idPrefix="acc-auth" id="register" active={tab}>
        <SchemaForm<RegisterBody>
          id="acc-register-form"
          schema={registerSchema}
          ns="accounts"
          initialValues={{ rememberMe: false }}
          onSubmit={onRegister}
          submitLabel={t('auth.createAccount')}
          pendingLabel={t('auth.creatingAccount')}
          fullWidthSubmit
        />
        <p className="acc-auth__switch">
          {t('auth.haveAccount')}{' '}
          <button type="button" className="button is-ghost is-small p-0" onClick={() => setTab('signin')}>
            {t('auth.switchToSignIn')}
          </button>
        </p>
      </TabPanel>
      <p className="help has-text-centered mt-3">{t('auth.rememberHint')}</p>
    </AuthCard>
  );
}
