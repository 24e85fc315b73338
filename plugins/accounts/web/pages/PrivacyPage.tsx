/** What Curio keeps, why and for how long (issue 24; the same list as PRIVACY.md). */
import { Page, useTranslation } from '../../../../web/src/index.ts';

export const PRIVACY_ROWS = ['account', 'content', 'social', 'sessions', 'throttles', 'tokens', 'notifications', 'push', 'browser', 'archives', 'jobs', 'live', 'mail', 'audit', 'logs'] as const;

export default function PrivacyPage() {
  const { t } = useTranslation('accounts');
  return (
    <Page title={t('privacy.title')}>
      <p className="mb-4">{t('privacy.intro')}</p>
      {/* focusable: on narrow screens the table scrolls sideways (keyboard users scroll it too) */}
      <div className="table-container" tabIndex={0} role="region" aria-label={t('privacy.title')}>
        <table className="table is-fullwidth is-striped acc-privacy">
          <caption className="is-sr-only">{t('privacy.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('privacy.what')}</th>
              <th scope="col">{t('privacy.why')}</th>
              <th scope="col">{t('privacy.howLong')}</th>
            </tr>
          </thead>
          <tbody>
            {PRIVACY_ROWS.map((r) => (
              <tr key={r}>
                <th scope="row">{t(`privacy.rows.${r}.what`)}</th>
                <td>{t(`privacy.rows.${r}.why`)}</td>
                <td>{t(`privacy.rows.${r}.howLong`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2 className="title is-5 mt-5">{t('privacy.deletionTitle')}</h2>
      <p className="mb-3">{t('privacy.deletion')}</p>
      <h2 className="title is-5 mt-5">{t('privacy.exportTitle')}</h2>
      <p>{t('privacy.export')}</p>
    </Page>
  );
}
