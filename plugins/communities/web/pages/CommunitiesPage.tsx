import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { EmptyState, Icon, Page, Slot, Spinner, TabPanel, Tabs, useApi, useAuth, useSlot, useTranslation } from '../../../../web/src/index.ts';
import { CommunityCard } from '../components/CommunityCard.tsx';
import { CommunityFormDialog } from '../components/CommunityFormDialog.tsx';
import { canCreateCommunity, type CommunityCardData } from '../lib.ts';
import '../communities.css';

/** Search starts only when the query is longer than 2 characters (spec part 2 §5). */
const MIN_QUERY = 3;

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const h = setTimeout(() => setV(value), ms);
    return () => clearTimeout(h);
  }, [value, ms]);
  return v;
}

/**
 * /communities and /groups: the communities list (search, cards, Create Community, empty state) and,
 * when the groups plugin fills the `communities.groupsTab` slot, a Groups tab (the default on /groups).
 */
export default function CommunitiesPage() {
  const { t } = useTranslation('communities');
  const { user } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const groupsAvailable = useSlot('communities.groupsTab').length > 0;
  const onGroups = location.pathname.toLowerCase().startsWith('/groups');
  const tab = onGroups && groupsAvailable ? 'groups' : 'communities';
  const [query, setQuery] = useState('');
  const debounced = useDebounced(query.trim(), 300);
  const q = debounced.length >= MIN_QUERY ? debounced : '';
  const { data, error, isLoading, mutate } = useApi<CommunityCardData[]>(tab === 'communities' ? `/api/communities${q ? `?q=${encodeURIComponent(q)}` : ''}` : null);
  const [creating, setCreating] = useState(false);
  const mayCreate = canCreateCommunity(user?.role);

  const title = tab === 'groups' ? t('list.titleGroups') : t('list.titleCommunities');
  const communitiesList = (
    <>
        <form className="field cm-search" role="search" onSubmit={(e) => e.preventDefault()}>
          <label className="label is-sr-only" htmlFor="cm-search">
            {t('list.searchLabel')}
          </label>
          <div className="control has-icons-left">
            <input id="cm-search" className="input is-medium" type="search" value={query} placeholder={t('list.searchPlaceholder')} onChange={(e) => setQuery(e.target.value)} />
            <span className="icon is-left" aria-hidden="true">
              <Icon name="search" size={18} />
            </span>
          </div>
          {query.trim().length > 0 && query.trim().length < MIN_QUERY && <p className="help">{t('list.searchHint')}</p>}
        </form>
        {isLoading ? (
          <Spinner center label={t('list.loading')} />
        ) : error ? (
          <EmptyState
            tone="error"
            icon="alert"
            title={t('list.loadFailed')}
            action={
              <button type="button" className="button" onClick={() => void mutate()}>
                {t('common.retry')}
              </button>
            }
          />
        ) : !data || data.length === 0 ? (
          <EmptyState
            icon="users"
            title={t('list.empty')}
            description={q ? t('list.emptySearch') : mayCreate ? t('list.emptyCreate') : t('list.emptyHelp')}
            action={
              mayCreate && !q ? (
                <button type="button" className="button is-primary" onClick={() => setCreating(true)}>
                  {t('create.title')}
                </button>
              ) : undefined
            }
          />
        ) : (
          <div className="cm-grid" aria-live="polite">
            {data.map((c) => (
              <CommunityCard key={c.id} c={c} />
            ))}
          </div>
        )}
    </>
  );
  return (
    <Page
      title={title}
      subtitle={t('list.subtitle')}
      width="wide"
      actions={
        tab === 'communities' && mayCreate ? (
          <button type="button" className="button is-primary cm-iconbutton" onClick={() => setCreating(true)}>
            <Icon name="plus" size={18} />
            <span>{t('create.title')}</span>
          </button>
        ) : null
      }
    >
      {groupsAvailable && (
        <Tabs
          idPrefix="cm-list"
          label={title}
          active={tab}
          onChange={(id) => navigate(id === 'groups' ? '/groups' : '/communities')}
          tabs={[
            { id: 'communities', label: t('list.tabs.communities') },
            { id: 'groups', label: t('list.tabs.groups') },
          ]}
        />
      )}
      {groupsAvailable ? (
        <TabPanel idPrefix="cm-list" id="communities" active={tab} className="cm-list-panel">
          {communitiesList}
        </TabPanel>
      ) : (
        communitiesList
      )}
      {groupsAvailable && (
        <TabPanel idPrefix="cm-list" id="groups" active={tab} className="cm-list-panel">
          <Slot name="communities.groupsTab" />
        </TabPanel>
      )}
      <CommunityFormDialog open={creating} onClose={() => setCreating(false)} onSaved={(c) => navigate(`/communities/${c.id}`)} />
    </Page>
  );
}
