import { useState } from 'react';
import { toast, useTranslation, type WebUser } from '../../../../web/src/index.ts';
import './EmailVerifyBanner.css';

/**
 * Shell banner (slot shell.banner) while the member's email address is unconfirmed. Bundled with
 * the shell (not a lazy chunk): a banner arriving after the page would push it down (layout shift).
 */
export default function EmailVerifyBanner({ user }: { user: WebUser }) {
  // its texts are in the ones the shell bundles (namespace nav): it shows before any page's texts
  const { t } = useTranslation('nav');
  const [sending, setSending] = useState(false);
  if (user.emailVerified !== false) return null;
  const resend = async () => {
    setSending(true);
    try {
      const { resendEmailVerification } = await import('../../../../web/src/api/generated/accounts.ts');
      const r = await resendEmailVerification();
      toast({ title: t('accounts.verify.resent'), description: r.message, variant: 'success' });
    } catch (e) {
      toast({ title: t('accounts.verify.resendFailed'), description: (e as Error).message, variant: 'destructive' });
    } finally {
      setSending(false);
    }
  };
  // in a Bulma container: as wide as the pages' content at every breakpoint (full width on phones)
  return (
    <div className="container acc-verify-banner-wrap">
      <div className="notification is-warning is-light acc-verify-banner" role="status" id="acc-verify-banner">
        <p>{t('accounts.verify.banner', { email: user.email ?? '' })}</p>
        <button type="button" className={`button is-small is-warning${sending ? ' is-loading' : ''}`} onClick={resend} disabled={sending}>
          {t('accounts.verify.resend')}
        </button>
      </div>
    </div>
  );
}
