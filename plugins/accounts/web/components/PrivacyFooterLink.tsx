/** The footer's link to the privacy page (slot shell.footer). */
import { Link } from 'react-router-dom';
import { useTranslation } from '../../../../web/src/index.ts';

export default function PrivacyFooterLink() {
  const { t } = useTranslation('accounts');
  return <Link to="/privacy">{t('privacy.footerLink')}</Link>;
}
