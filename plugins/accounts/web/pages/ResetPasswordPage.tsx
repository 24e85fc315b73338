import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Icon, SchemaForm, toast, useAuth, useDocumentTitle, useTranslation, type WebUser } from '../../../../web/src/index.ts';
import { confirmPasswordReset, type PasswordResetConfirmBody } from '../../../../web/src/api/generated/accounts.ts';
import schema from '../../schemas/password-reset-confirm-body.schema.json';
import '../accounts.css';

/** /auth/reset?token=…: choose a new password; every other session ends and this one signs in. */
export default function ResetPasswordPage() {
  const { t } = useTranslation('accounts');
  useDocumentTitle(t('recovery.resetTitle'));
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { setUser } = useAuth();
  const navigate = useNavigate();

  const onSubmit = async (values: PasswordResetConfirmBody) => {
    try {
      const user = await confirmPasswordReset({ body: { ...values, token } });
      toast({ title: t('recovery.resetDone'), description: t('recovery.resetDoneText'), variant: 'success' });
      await setUser(user as WebUser);
      navigate('/', { replace: true });
    } catch (e) {
      toast({ title: t('recovery.resetFailed'), description: (e as Error).message, variant: 'destructive' });
      throw e;
    }
  };

  return (
    <section className="section acc-auth">
      <div className="acc-auth__card box">
        <div className="acc-auth__head">
          <span className="acc-brand__mark" aria-hidden="true">
            <Icon name="museum" size={22} />
          </span>
          <h1 className="title is-4">{t('recovery.resetTitle')}</h1>
          <p className="has-text-grey">{t('recovery.resetIntro')}</p>
        </div>
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
      </div>
    </section>
  );
}
