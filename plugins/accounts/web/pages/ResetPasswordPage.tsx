import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { SchemaForm, toast, useAuth, useDocumentTitle, useTranslation, type WebUser } from '../../../../web/src/index.ts';
import { confirmPasswordReset, type PasswordResetConfirmBody } from '../../../../web/src/api/generated/accounts.ts';
import schema from '../../schemas/password-reset-confirm-body.schema.json';
import { AuthCard, submitOrToast } from '../components/AuthCard.tsx';
import { signInDestination } from '../after-sign-in.ts';

/** /auth/reset?token=…: choose a new password; every other session ends and this one signs in (then as any sign-in: signInDestination). */
export default function ResetPasswordPage() {
  const { t } = useTranslation('accounts');
  useDocumentTitle(t('recovery.resetTitle'));
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { setUser } = useAuth();
  const navigate = useNavigate();

  const onSubmit = (values: PasswordResetConfirmBody) =>
    submitOrToast(t('recovery.resetFailed'), async () => {
      const user = await confirmPasswordReset({ body: { ...values, token } });
      toast({ title: t('recovery.resetDone'), description: t('recovery.resetDoneText'), variant: 'success' });
      // signed in: Home, or back to an onboarding left half-way (after-sign-in.ts)
      const to = await signInDestination(null);
      await setUser(user as WebUser);
      navigate(to.to, { replace: true, state: to.state });
    });

  return (
    <AuthCard title={t('recovery.resetTitle')} intro={t('recovery.resetIntro')}>
      {token ? (
        <SchemaForm<PasswordResetConfirmBody>
          id="acc-reset-form"
          schema={schema}
          ns="accounts"
          fields={['newPassword']}
          initialValues={{ token }}
          onSubmit={onSubmit}
          submitLabel={t('recovery.setPassword')}
          pendingLabel={t('recovery.saving')}
          fullWidthSubmit
        />
      ) : (
        <div className="notification is-warning is-light" role="alert">
          {t('recovery.missingToken')}
        </div>
      )}
      <p className="acc-auth__switch">
        <Link to="/auth/forgot">{t('recovery.askAgain')}</Link>
      </p>
    </AuthCard>
  );
}
