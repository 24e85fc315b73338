import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Icon, SchemaForm, toast, useDocumentTitle, useTranslation } from '../../../../web/src/index.ts';
import { requestPasswordReset, type PasswordResetRequestBody } from '../../../../web/src/api/generated/accounts.ts';
import schema from '../../schemas/password-reset-request-body.schema.json';
import '../accounts.css';

/** /auth/forgot: ask for a reset link. The answer is the same whatever the address. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('accounts');
  useDocumentTitle(t('recovery.forgotTitle'));
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = async (values: PasswordResetRequestBody) => {
    try {
      await requestPasswordReset({ body: values });
      setSentTo(values.email);
    } catch (e) {
      toast({ title: t('recovery.requestFailed'), description: (e as Error).message, variant: 'destructive' });
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
          <h1 className="title is-4">{t('recovery.forgotTitle')}</h1>
          <p className="has-text-grey">{t('recovery.forgotIntro')}</p>
        </div>
        {sentTo ? (
          <div className="notification is-success is-light" role="status" id="acc-reset-sent">
            {t('recovery.sent', { email: sentTo })}
          </div>
        ) : (
          <SchemaForm<PasswordResetRequestBody>
            id="acc-forgot-form"
            schema={schema}
            ns="accounts"
            onSubmit={onSubmit}
            submitLabel={t('recovery.sendLink')}
            pendingLabel={t('recovery.sending')}
            fullWidthSubmit
          />
        )}
        <p className="acc-auth__switch">
          <Link to="/auth">{t('recovery.backToSignIn')}</Link>
        </p>
      </div>
    </section>
  );
}
