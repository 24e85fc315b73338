import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../components/Page.tsx';

export function NotFound() {
  const { t } = useTranslation('core');
  useDocumentTitle(t('notFound.title'));
  return (
    <section className="section curio-not-found">
      <div className="container has-text-centered">
        <p className="curio-not-found__code" aria-hidden="true">
          404
        </p>
        <h1 className="title is-2">{t('notFound.title')}</h1>
        <p className="subtitle is-6 has-text-grey">{t('notFound.description')}</p>
        <Link to="/" className="button is-primary is-rounded">
          {t('notFound.home')}
        </Link>
      </div>
    </section>
  );
}
