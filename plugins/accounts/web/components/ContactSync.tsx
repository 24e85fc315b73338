import { useEffect } from 'react';
import { currentLocale, type WebUser } from '../../../../web/src/index.ts';
import { updateContactSettings } from '../../../../web/src/api/generated/accounts.ts';

/**
 * Tells the server the member's time zone and language (slot shell.banner, renders nothing):
 * reminders and the weekly digest follow the member's clock, emails their language. Once per
 * browser session and whenever either changes.
 */
export default function ContactSync({ user }: { user: WebUser }) {
  const locale = currentLocale();
  useEffect(() => {
    let timeZone = 'UTC';
    try {
      timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    } catch {
      /* keep UTC */
    }
    const key = `curio.contact.${user.id}`;
    const value = `${timeZone}|${locale}`;
    try {
      if (sessionStorage.getItem(key) === value) return;
    } catch {
      /* storage unavailable: send anyway */
    }
    const lang = locale === 'fr' ? 'fr' : 'en';
    updateContactSettings({ body: { timeZone, locale: lang } })
      .then(() => {
        try {
          sessionStorage.setItem(key, value);
        } catch {
          /* ignore */
        }
      })
      .catch(() => {
        /* next session tries again */
      });
  }, [user.id, locale]);
  return null;
}
