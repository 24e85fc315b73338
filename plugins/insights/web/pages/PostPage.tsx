import { useParams, useNavigate } from 'react-router-dom';
import { useTranslation, useApi, Page, Spinner, EmptyState, useDocumentTitle } from '../../../../web/src/index.ts';
import { getPostUrl } from '../../../../web/src/api/generated/insights.ts';
import { PostCard } from '../components/PostCard.tsx';
import type { Post } from '../types.ts';
import '../components/insights.css';

/** /insights/:id — one insight with its comments open (a link target for notifications and shares). */
export default function PostPage() {
  const { t } = useTranslation('insights');
  const { id } = useParams();
  const navigate = useNavigate();
  const valid = /^\d{1,10}$/.test(id ?? '');
  const { data, error, isLoading } = useApi<Post>(valid ? getPostUrl({ id: Number(id) }) : null);
  useDocumentTitle(data ? t('post.by', { name: data.user.username }) : t('page.title'));
  return (
    <Page width="narrow">
      {isLoading && <Spinner center />}
      {(!valid || error) && <EmptyState icon="alert" title={t('page.notFound')} />}
      {data && <PostCard post={data} commentsOpen priority onDeleted={() => navigate('/')} />}
    </Page>
  );
}
