import { useEffect, useState, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import {
  EmptyState,
  Icon,
  InfiniteList,
  Modal,
  Slot,
  Spinner,
  TabPanel,
  Tabs,
  useApi,
  useAuth,
  useDocumentTitle,
  useHashTarget,
  useInfiniteApi,
  useMutation,
  useSWRConfig,
  useTranslation,
  type ApiError,
  CoverImage,
} from '../../../../web/src/index.ts';
import { joinCommunity, leaveCommunity } from '../../../../web/src/api/generated/communities.ts';
import { failToast, okToast, parseId, typeLabelKey, type Community, type Post } from '../lib.ts';
import { CommunityFormDialog } from '../components/CommunityFormDialog.tsx';
import { Menu, type MenuItem } from '../components/Menu.tsx';
import { MembersTab } from '../components/MembersTab.tsx';
import { PostCard } from '../components/PostCard.tsx';
import { PostComposer } from '../components/PostComposer.tsx';
import {
  AssignRolesPanel,
  BulkMembersPanel,
  DeleteCommunityPanel,
  ImagePanel,
  JoinRequestsPanel,
  PrivacyRulesPanel,
  ReportsPanel,
  ReviewPostsPanel,
} from '../components/Panels.tsx';
import '../communities.css';

type TabId = 'discussion' | 'meetups' | 'members' | 'management';
type Section = 'info' | 'privacy' | 'requests' | 'members' | 'roles' | 'reports' | 'review' | 'delete';

/** /communities/:id — header, Discussion / Meetups / Members / Management tabs, the Manage Community menu. */
export default function CommunityPage() {
  const { t } = useTranslation('communities');
  const { id: raw } = useParams();
  const id = parseId(raw);
  const { data: c, error, isLoading, mutate } = useApi<Community>(id ? `/api/communities/${id}` : null);
  useDocumentTitle(c?.name ?? t('detail.notFound'));

  if (id && isLoading) return <Spinner center size="large" label={t('detail.loading')} />;
  if (!id || error?.status === 404 || (!isLoading && !error && !c)) {
    return (
      <section className="section">
        <EmptyState
          icon="users"
          title={t('detail.notFound')}
          description={t('detail.notFoundText')}
          action={
            <Link to="/communities" className="button">
              {t('detail.back')}
            </Link>
          }
        />
      </section>
    );
  }
  if (error || !c) {
    return (
      <section className="section">
        <EmptyState
          tone="error"
          icon="alert"
          title={t('detail.loadFailed')}
          description={error?.message}
          action={
            <button type="button" className="button" onClick={() => void mutate()}>
              {t('common.retry')}
            </button>
          }
        />
      </section>
    );
  }
  return <CommunityView c={c} refetch={() => void mutate()} />;
}

function CommunityView({ c, refetch }: { c: Community; refetch: () => void }) {
  const { t } = useTranslation('communities');
  const { user } = useAuth();
  const { mutate: mutateAll } = useSWRConfig();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab') as TabId | null;
  const tabs: Array<{ id: TabId; label: string; count?: number }> = [
    { id: 'discussion', label: t('tabs.discussion') },
    { id: 'meetups', label: t('tabs.meetups') },
    { id: 'members', label: t('tabs.members'), count: c.memberCount },
  ];
  if (c.isCreator) tabs.push({ id: 'management', label: t('tabs.management') });
  const tab: TabId = tabs.some((x) => x.id === requested) ? (requested as TabId) : 'discussion';
  const setTab = (next: TabId) =>
    setParams(
      (p) => {
        const n = new URLSearchParams(p);
        if (next === 'discussion') n.delete('tab');
        else n.set('tab', next);
        return n;
      },
      { replace: true },
    );
  const [editing, setEditing] = useState(false);
  const [deleteSignal, setDeleteSignal] = useState(0);
  const [scrollTo, setScrollTo] = useState<Section | null>(null);
  const [modPanel, setModPanel] = useState<Section | null>(null);

  /** After a change: the community, its members, posts and panels are fetched again. */
  const refreshAll = () => {
    refetch();
    void mutateAll((key) => typeof key === 'string' && key.includes(`/api/communities/${c.id}/`));
  };

  useEffect(() => {
    if (!scrollTo || tab !== 'management') return;
    const el = document.getElementById(`cm-section-${scrollTo}`);
    if (el) {
      el.scrollIntoView({ behavior: 'smooth', block: 'start' });
      el.querySelector<HTMLElement>('h3')?.focus();
    }
    setScrollTo(null);
  }, [scrollTo, tab]);

  const join = useMutation(() => joinCommunity({ params: { id: c.id }, body: {} }), { retries: 0 });
  const leave = useMutation(() => leaveCommunity({ params: { id: c.id } }), { retries: 0 });

  async function onJoin() {
    try {
      const r = await join.trigger();
      if (r.status === 'requested') okToast(t('toasts.requestSent'), t('toasts.requestSentText'));
      else okToast(t('toasts.joined'));
      refreshAll();
    } catch (e) {
      failToast(t('toasts.joinFailed'), e, t('toasts.joinFailedDefault'));
    }
  }
  async function onLeave() {
    try {
      const r = await leave.trigger();
      okToast(r.status === 'cancelled' ? t('toasts.requestWithdrawn') : t('toasts.left'));
      refreshAll();
    } catch (e) {
      failToast(t('toasts.leaveFailed'), e);
    }
  }

  const goSection = (s: Section) => {
    setTab('management');
    setScrollTo(s);
  };
  const manageItems: MenuItem[] = [
    { key: 'info', label: t('manage.editInfo'), onSelect: () => setEditing(true) },
    { key: 'privacy', label: t('manage.privacyRules'), onSelect: () => goSection('privacy') },
    { key: 'requests', label: withCount(t('manage.pendingRequests'), c.pendingRequestsCount), onSelect: () => goSection('requests') },
    { key: 'members', label: t('manage.manageMembers'), onSelect: () => goSection('members') },
    { key: 'roles', label: t('manage.assignRoles'), onSelect: () => goSection('roles') },
    { key: 'reports', label: withCount(t('manage.reportedContent'), c.openReportsCount), onSelect: () => goSection('reports') },
    { key: 'review', label: withCount(t('manage.reviewPosts'), c.pendingPostsCount), onSelect: () => goSection('review') },
    {
      key: 'delete',
      label: t('manage.deleteCommunity'),
      danger: true,
      divider: true,
      onSelect: () => {
        goSection('delete');
        setDeleteSignal((n) => n + 1);
      },
    },
  ];
  // Community admins and moderators (not the creator) reach the panels they may use from a menu.
  const modItems: MenuItem[] = [];
  if (!c.isCreator && c.permissions.canManageMembers) {
    modItems.push({ key: 'requests', label: withCount(t('manage.pendingRequests'), c.pendingRequestsCount), onSelect: () => setModPanel('requests') });
    modItems.push({ key: 'members', label: t('manage.manageMembers'), onSelect: () => setModPanel('members') });
  }
  if (!c.isCreator && c.permissions.canModerate) {
    modItems.push({ key: 'reports', label: withCount(t('manage.reportedContent'), c.openReportsCount), onSelect: () => setModPanel('reports') });
    modItems.push({ key: 'review', label: withCount(t('manage.reviewPosts'), c.pendingPostsCount), onSelect: () => setModPanel('review') });
  }

  const typeKey = typeLabelKey(c.type);
  const shownTags = c.tags;
  let actionArea: ReactNode = null;
  if (!user) actionArea = null;
  else if (c.isCreator)
    actionArea = (
      <>
        <span className="tag is-primary is-medium" data-testid="creator-label">
          {t('detail.creator')}
        </span>
        <Menu
          label={
            <>
              <Icon name="settings" size={16} />
              <span>{t('manage.menu')}</span>
            </>
          }
          buttonClassName="button is-light"
          testId="manage-menu"
          items={manageItems}
        />
      </>
    );
  else if (c.isMember)
    actionArea = (
      <>
        {modItems.length > 0 && (
          <Menu
            label={
              <>
                <Icon name="shield" size={16} />
                <span>{t('manage.moderation')}</span>
              </>
            }
            buttonClassName="button is-light"
            testId="moderation-menu"
            items={modItems}
          />
        )}
        <button type="button" className={`button is-light${leave.isPending ? ' is-loading' : ''}`} onClick={() => void onLeave()} disabled={leave.isPending}>
          {t('detail.leave')}
        </button>
      </>
    );
  else if (c.isBanned) actionArea = <span className="tag is-danger is-light is-medium">{t('detail.banned')}</span>;
  else if (c.joinRequestStatus === 'pending')
    actionArea = (
      <>
        <span className="tag is-info is-light is-medium">{t('detail.requestPending')}</span>
        <button type="button" className={`button is-light${leave.isPending ? ' is-loading' : ''}`} onClick={() => void onLeave()} disabled={leave.isPending}>
          {t('detail.withdraw')}
        </button>
      </>
    );
  else
    actionArea = (
      <button type="button" className={`button is-primary${join.isPending ? ' is-loading' : ''}`} onClick={() => void onJoin()} disabled={join.isPending}>
        {t('detail.join')}
      </button>
    );

  const readable = c.membershipType === 'open' || c.isMember;

  return (
    <div className="cm-detail">
      <header className="cm-hero">
        <div className="cm-hero__image"><CoverImage src={c.imageUrl} info={c.imageInfo} kind="community" category={c.type} seed={c.name} priority /></div>
        <div className="container cm-hero__body">
          <div className="cm-hero__text">
            <h1 className="title is-3">{c.name}</h1>
            <ul className="cm-hero__facts">
              <li>
                <Icon name="users" size={16} /> <span data-testid="member-count">{t('common.members', { count: c.memberCount })}</span>
              </li>
              {c.location && (
                <li>
                  <Icon name="map" size={16} /> {c.location}
                </li>
              )}
              <li>
                <span className={`tag is-rounded ${c.membershipType === 'private' ? 'is-warning' : 'is-info'} is-light`}>
                  {c.membershipType === 'private' ? t('membership.private') : t('membership.open')}
                </span>
              </li>
              {typeKey && (
                <li>
                  <span className="tag is-rounded is-light">{t(typeKey)}</span>
                </li>
              )}
            </ul>
            {shownTags.length > 0 && (
              <div className="tags mt-2">
                {shownTags.map((tag) => (
                  <span key={tag} className="tag is-primary is-light">
                    {tag}
                  </span>
                ))}
              </div>
            )}
          </div>
          <div className="cm-hero__actions">{actionArea}</div>
        </div>
      </header>

      <div className="container cm-detail__body">
        {c.description && <p className="cm-detail__description cm-prewrap">{c.description}</p>}
        {!c.isMember && c.membershipType === 'private' && !c.isBanned && c.joinRequestStatus !== 'pending' && <p className="help mb-3">{t('detail.privateJoinHelp')}</p>}
        <Tabs idPrefix="cm-tabs" label={c.name} tabs={tabs} active={tab} onChange={(x) => setTab(x as TabId)} />

        <TabPanel idPrefix="cm-tabs" id="discussion" active={tab}>
          <Discussion c={c} readable={readable} onChanged={refreshAll} onReview={() => (c.isCreator ? goSection('review') : setModPanel('review'))} />
        </TabPanel>
        <TabPanel idPrefix="cm-tabs" id="meetups" active={tab}>
          <Slot
            name="community.meetups"
            communityId={c.id}
            isMember={c.isMember}
            isCreator={c.isCreator}
            role={c.role}
            fallback={<EmptyState icon="calendar" title={t('meetups.empty')} />}
          />
        </TabPanel>
        <TabPanel idPrefix="cm-tabs" id="members" active={tab}>
          {readable ? <MembersTab community={c} onChanged={refreshAll} /> : <EmptyState icon="shield" title={t('detail.privateMembers')} />}
        </TabPanel>
        {c.isCreator && (
          <TabPanel idPrefix="cm-tabs" id="management" active={tab}>
            <div className="cm-management">
              <ManageSection id="info" title={t('manage.editInfo')}>
                <ImagePanel community={c} onChanged={refreshAll} />
                <button type="button" className="button is-light mt-3" onClick={() => setEditing(true)}>
                  <Icon name="edit" size={16} />
                  <span>{t('manage.editInfo')}</span>
                </button>
              </ManageSection>
              <ManageSection id="privacy" title={t('manage.privacyRules')}>
                <PrivacyRulesPanel community={c} onChanged={refreshAll} />
              </ManageSection>
              <ManageSection id="requests" title={withCount(t('manage.pendingRequests'), c.pendingRequestsCount)}>
                <JoinRequestsPanel community={c} onChanged={refreshAll} />
              </ManageSection>
              <ManageSection id="members" title={t('manage.manageMembers')}>
                <BulkMembersPanel community={c} onChanged={refreshAll} />
              </ManageSection>
              <ManageSection id="roles" title={t('manage.assignRoles')}>
                <AssignRolesPanel community={c} onChanged={refreshAll} />
              </ManageSection>
              <ManageSection id="reports" title={withCount(t('manage.reportedContent'), c.openReportsCount)}>
                <ReportsPanel community={c} onChanged={refreshAll} />
              </ManageSection>
              <ManageSection id="review" title={withCount(t('manage.reviewPosts'), c.pendingPostsCount)}>
                <ReviewPostsPanel community={c} onChanged={refreshAll} />
              </ManageSection>
              <ManageSection id="delete" title={t('manage.deleteCommunity')} danger>
                <DeleteCommunityPanel community={c} openSignal={deleteSignal} />
              </ManageSection>
            </div>
          </TabPanel>
        )}
      </div>

      <CommunityFormDialog open={editing} community={c} onClose={() => setEditing(false)} onSaved={() => refreshAll()} />
      <Modal open={modPanel !== null} onClose={() => setModPanel(null)} size="large" title={modPanel ? sectionTitle(t, modPanel) : ''}>
        {modPanel === 'requests' && <JoinRequestsPanel community={c} onChanged={refreshAll} />}
        {modPanel === 'members' && <BulkMembersPanel community={c} onChanged={refreshAll} />}
        {modPanel === 'reports' && <ReportsPanel community={c} onChanged={refreshAll} />}
        {modPanel === 'review' && <ReviewPostsPanel community={c} onChanged={refreshAll} />}
      </Modal>
    </div>
  );
}

function withCount(label: string, n: number): string {
  return n > 0 ? `${label} (${n})` : label;
}

function sectionTitle(t: (k: string) => string, s: Section): string {
  const keys: Record<Section, string> = {
    info: 'manage.editInfo',
    privacy: 'manage.privacyRules',
    requests: 'manage.pendingRequests',
    members: 'manage.manageMembers',
    roles: 'manage.assignRoles',
    reports: 'manage.reportedContent',
    review: 'manage.reviewPosts',
    delete: 'manage.deleteCommunity',
  };
  return t(keys[s]);
}

function ManageSection({ id, title, children, danger = false }: { id: Section; title: string; children: ReactNode; danger?: boolean }) {
  return (
    <section id={`cm-section-${id}`} className={`box cm-section${danger ? ' is-danger' : ''}`} aria-labelledby={`cm-section-${id}-title`}>
      <h3 id={`cm-section-${id}-title`} className="title is-5" tabIndex={-1}>
        {title}
      </h3>
      {children}
    </section>
  );
}

function Discussion({ c, readable, onChanged, onReview }: { c: Community; readable: boolean; onChanged: () => void; onReview: () => void }) {
  const { t } = useTranslation('communities');
  const feed = useInfiniteApi<Post>(readable ? `/api/communities/${c.id}/posts` : null, { limit: 20 });
  // a notification's link (/communities/3#post-12) lands on the post once the feed shows it
  useHashTarget(feed.items.length > 0);
  const [overrides, setOverrides] = useState<Map<number, Post>>(new Map());
  const [rulesOpen, setRulesOpen] = useState(false);
  const refresh = () => {
    setOverrides(new Map());
    void feed.mutate();
  };

  if (!readable) return <EmptyState icon="shield" title={t('detail.privateDiscussion')} description={t('detail.privateDiscussionText')} />;

  const restriction = !c.isMember ? null : !c.permissions.canPost ? (c.restrictions?.isMuted ? t('restrictions.mutedNotice') : t('restrictions.cannotPostNotice')) : null;
  const commentBlocked = c.isMember && !c.permissions.canComment ? (c.restrictions?.isMuted ? t('restrictions.mutedNotice') : t('restrictions.cannotCommentNotice')) : null;
  const items = feed.items.map((p) => overrides.get(p.id) ?? p);

  return (
    <div className="cm-discussion">
      {c.rules && (
        <div className="cm-rules">
          <button type="button" className="cm-linkbutton" aria-expanded={rulesOpen} onClick={() => setRulesOpen((v) => !v)}>
            <Icon name="info" size={16} /> {t('detail.rules')}
          </button>
          {rulesOpen && <p className="cm-prewrap mt-2">{c.rules}</p>}
        </div>
      )}
      {c.permissions.canModerate && c.pendingPostsCount > 0 && (
        <div className="notification is-info is-light cm-notice">
          <span>{t('review.waiting', { count: c.pendingPostsCount })}</span>
          <button type="button" className="button is-small is-info" onClick={onReview}>
            {t('manage.reviewPosts')}
          </button>
        </div>
      )}
      {c.permissions.canPost && (
        <>
          {c.restrictions?.requiresApproval && <p className="help mb-2">{t('restrictions.approvalNotice')}</p>}
          <PostComposer
            communityId={c.id}
            onPosted={() => {
              refresh();
              onChanged();
            }}
          />
        </>
      )}
      {restriction && (
        <div className="notification is-warning is-light" role="status" data-testid="post-restriction">
          {restriction}
        </div>
      )}
      {!c.isMember && <p className="help mb-3">{t('detail.joinToPost')}</p>}
      <InfiniteList
        items={items}
        getKey={(p) => p.id}
        hasMore={feed.hasMore}
        loadMore={feed.loadMore}
        isLoading={feed.isLoading}
        isLoadingMore={feed.isLoadingMore}
        error={feed.error}
        errorState={<EmptyState tone="error" icon="alert" title={t('detail.postsFailed')} description={(feed.error as ApiError | undefined)?.message} />}
        empty={<EmptyState icon="message" title={t('detail.noPosts')} description={c.permissions.canPost ? t('detail.noPostsHelp') : undefined} />}
        renderItem={(p) => (
          <PostCard
            post={p}
            viewer={{ isMember: c.isMember, canComment: c.permissions.canComment, commentBlockedReason: commentBlocked, canModerate: c.permissions.canModerate }}
            onChange={(np) => setOverrides((m) => new Map(m).set(np.id, np))}
            onRefresh={() => {
              refresh();
              onChanged();
            }}
          />
        )}
      />
    </div>
  );
}
