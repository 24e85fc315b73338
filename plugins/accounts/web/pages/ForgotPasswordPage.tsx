import { useState } from 'react';
import { Link } from 'react-router-dom';
import { SchemaForm, useDocumentTitle, useTranslation } from '../../../../web/src/index.ts';
import { requestPasswordReset, type PasswordResetRequestBody } from '../../../../web/src/api/generated/accounts.ts';
import schema from '../../schemas/password-reset-request-body.schema.json';
import { AuthCard, submitOrToast } from '../components/AuthCard.tsx';

/** /auth/forgot: ask for a reset link. The answer is the same whatever the address. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('accounts');
  useDocumentTitle(t('recovery.forgotTitle'));
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = (values: PasswordResetRequestBody) =>
    submitOrToast(t('recovery.requestFailed'), async () => {
      await requestPasswordReset({ body: values });
      setSentTo(values.email);
    });

  return (
    <AuthCard title={t('recovery.forgotTitle')} intro={t('recovery.forgotIntro')}>
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
    </AuthCard>
  );
}
