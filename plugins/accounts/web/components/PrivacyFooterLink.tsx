/** The footer's link to the privacy page (slot shell.footer). */
import { Link } from 'react-router-dom';
import { useTranslation } from '../../../../web/src/index.ts';

export default function PrivacyFooterLink() {
  // in the texts the shell bundles (namespace nav): the footer is on every page
  const { t } = useTranslation('nav');
  return <Link to="/privacy">{t('accounts.privacy')}</Link>;
}
