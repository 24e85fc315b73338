import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import {
  Avatar,
  EmptyState,
  Icon,
  InfiniteList,
  RelativeTime,
  Slot,
  Spinner,
  TabPanel,
  Tabs,
  formatDateTime,
  useApi,
  CoverUpload,
  CoverImage,
  useDocumentTitle,
  useInfiniteApi,
  useMutation,
  useSWRConfig,
  useTranslation,
  useHashTarget,
  confirmDialog,
} from '../../../../web/src/index.ts';
import {
  addGroupMember,
  createGroupPost,
  createGroupPostComment,
  deleteGroupComment,
  deleteGroupPost,
  joinGroup,
  leaveGroup,
  likeGroupPost,
  removeGroupMember,
} from '../../../../web/src/api/generated/groups.ts';
import { displayName, failToast, okToast, parseId, profilePath, type Group, type GroupComment, type GroupMember, type GroupPost } from '../lib.ts';
import '../groups.css';
import { MentionText } from '../../../accounts/web/components/MentionText.tsx';
import { MentionInput } from '../../../accounts/web/components/MentionInput.tsx';

type TabId = 'discussion' | 'members' | 'meetups' | 'about';

/** /groups/:id — Discussion, Members, Meetups (slot), About; Join and Leave. */
export default function GroupPage() {
  const { t } = useTranslation('groups');
  const { id: raw } = useParams();
  const id = parseId(raw);
  const { data: g, error, isLoading, mutate } = useApi<Group>(id ? `/api/groups/${id}` : null);
  useDocumentTitle(g?.name ?? t('detail.notFound'));
  if (id && isLoading) return <Spinner center size="large" label={t('detail.loading')} />;
  if (error?.status === 403) {
    return (
      <section className="section">
        <EmptyState icon="shield" title={t('detail.private')} description={error.message} action={<Link to="/groups" className="button">{t('detail.back')}</Link>} />
      </section>
    );
  }
  if (!id || error?.status === 404 || (!error && !g)) {
    return (
      <section className="section">
        <EmptyState icon="users" title={t('detail.notFound')} action={<Link to="/groups" className="button">{t('detail.back')}</Link>} />
      </section>
    );
  }
  if (error || !g) {
    return (
      <section className="section">
        <EmptyState tone="error" icon="alert" title={t('detail.loadFailed')} description={error?.message} action={<button type="button" className="button" onClick={() => void mutate()}>{t('common.retry')}</button>} />
      </section>
    );
  }
  return <GroupView g={g} refetch={() => void mutate()} />;
}

function GroupView({ g, refetch }: { g: Group; refetch: () => void }) {
  const { t, i18n } = useTranslation('groups');
  const { mutate: mutateAll } = useSWRConfig();
  const [params, setParams] = useSearchParams();
  const tabs: Array<{ id: TabId; label: string; count?: number }> = [
    { id: 'discussion', label: t('tabs.discussion') },
    { id: 'members', label: t('tabs.members'), count: g.memberCount },
    { id: 'meetups', label: t('tabs.meetups') },
    { id: 'about', label: t('tabs.about') },
  ];
  const requested = params.get('tab');
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
  const refreshAll = () => {
    refetch();
    void mutateAll((key) => typeof key === 'string' && key.includes(`/api/groups/${g.id}/`));
    void mutateAll('/api/user/groups');
  };
  const join = useMutation(() => joinGroup({ params: { id: g.id } }), { retries: 0 });
  const leave = useMutation(() => leaveGroup({ params: { id: g.id } }), { retries: 0 });
  const isAdmin = g.role === 'admin';

  return (
    <div className="gr-detail">
      <header className="gr-hero">
        <div className="container">
          <figure className="gr-cover">
            <CoverImage src={g.imageUrl} info={g.imageInfo} kind="group" seed={g.name} sizes="(min-width: 1024px) 960px, 100vw" priority />
          </figure>
          {g.isCreator && <CoverUpload url={`/api/groups/${g.id}/image`} maxBytes={5 * 1024 * 1024} onDone={() => refetch()} className="gr-cover__upload" />}
        </div>
        <div className="container gr-hero__body">
          <div>
            <h1 className="title is-3">{g.name}</h1>
            <ul className="gr-facts">
              <li>
                <Icon name="users" size={16} /> <span data-testid="group-member-count">{t('common.members', { count: g.memberCount })}</span>
              </li>
              {g.location && (
                <li>
                  <Icon name="map" size={16} /> {g.location}
                </li>
              )}
              <li>
                <span className={`tag is-rounded is-light ${g.isPrivate ? 'is-warning' : 'is-info'}`} title={g.isPrivate ? undefined : t('privacy.publicHint')}>
                  {g.isPrivate ? t('privacy.private') : t('privacy.public')}
                </span>
              </li>
            </ul>
            {g.tags.length > 0 && (
              <div className="tags mt-2">
                {g.tags.map((tag) => (
                  <span key={tag} className="tag is-primary is-light">
                    {tag}
                  </span>
                ))}
              </div>
            )}
          </div>
          <div className="gr-hero__actions">
            {g.isCreator ? (
              <span className="tag is-primary is-medium">{t('detail.creator')}</span>
            ) : g.isMember ? (
              <button
                type="button"
                className={`button is-light${leave.isPending ? ' is-loading' : ''}`}
                disabled={leave.isPending}
                onClick={async () => {
                  try {
                    await leave.trigger();
                    okToast(t('toasts.left'));
                    refreshAll();
                  } catch (e) {
                    failToast(t('toasts.leaveFailed'), e);
                  }
                }}
              >
                {t('detail.leave')}
              </button>
            ) : (
              <button
                type="button"
                className={`button is-primary${join.isPending ? ' is-loading' : ''}`}
                disabled={join.isPending}
                onClick={async () => {
                  try {
                    await join.trigger();
                    okToast(t('toasts.joined'));
                    refreshAll();
                  } catch (e) {
                    failToast(t('toasts.joinFailed'), e);
                  }
                }}
              >
                {t('detail.join')}
              </button>
            )}
          </div>
        </div>
      </header>
      <div className="container gr-detail__body">
        <Tabs idPrefix="gr-tabs" label={g.name} tabs={tabs} active={tab} onChange={(x) => setTab(x as TabId)} />
        <TabPanel idPrefix="gr-tabs" id="discussion" active={tab}>
          {g.isMember ? <Discussion g={g} /> : <EmptyState icon="message" title={t('detail.joinToParticipate')} />}
        </TabPanel>
        <TabPanel idPrefix="gr-tabs" id="members" active={tab}>
          <Members g={g} isAdmin={isAdmin} onChanged={refreshAll} />
        </TabPanel>
        <TabPanel idPrefix="gr-tabs" id="meetups" active={tab}>
          <Slot name="group.meetups" groupId={g.id} isMember={g.isMember} isCreator={g.isCreator} role={g.role} fallback={<EmptyState icon="calendar" title={t('meetups.empty')} />} />
        </TabPanel>
        <TabPanel idPrefix="gr-tabs" id="about" active={tab}>
          <div className="box">
            <h2 className="title is-5">{t('about.title')}</h2>
            <p className="gr-prewrap mb-3">{g.description || t('about.noDescription')}</p>
            <dl className="gr-about">
              {g.location && (
                <>
                  <dt>{t('about.location')}</dt>
                  <dd>{g.location}</dd>
                </>
              )}
              <dt>{t('about.privacy')}</dt>
              <dd>{g.isPrivate ? t('about.privateText') : t('about.publicText')}</dd>
              <dt>{t('about.createdBy')}</dt>
              <dd>{g.creator ? <Link to={profilePath(g.creator)}>{displayName(g.creator)}</Link> : displayName(null)}</dd>
              <dt>{t('about.created')}</dt>
              <dd>{formatDateTime(new Date(g.createdAt), i18n.resolvedLanguage || 'en', { dateStyle: 'long' })}</dd>
              <dt>{t('about.posts')}</dt>
              <dd>{g.postsCount}</dd>
            </dl>
          </div>
        </TabPanel>
      </div>
    </div>
  );
}

function Discussion({ g }: { g: Group }) {
  const { t } = useTranslation('groups');
  const feed = useInfiniteApi<GroupPost>(`/api/groups/${g.id}/posts`, { limit: 20 });
  const [overrides, setOverrides] = useState<Map<number, GroupPost>>(new Map());
  const [text, setText] = useState('');
  // a notification's link (/groups/3#post-12) lands on the post once the feed shows it
  useHashTarget(feed.items.length > 0);
  const post = useMutation((content: string) => createGroupPost({ params: { id: g.id }, body: { content, type: 'text' } }), { retries: 0 });
  const refresh = () => {
    setOverrides(new Map());
    void feed.mutate();
  };
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) return;
    try {
      await post.trigger(text.trim());
      okToast(t('toasts.postCreated'));
      setText('');
      refresh();
    } catch (err) {
      failToast(t('toasts.postFailed'), err);
    }
  }
  return (
    <div>
      <form className="box" onSubmit={submit}>
        <label className="label" htmlFor="gr-post">
          {t('discussion.label')}
        </label>
        <MentionInput multiline id="gr-post" className="textarea" rows={3} maxLength={10000} value={text} placeholder={t('discussion.placeholder')} onChange={setText} />
        <div className="gr-right mt-2">
          <button type="submit" className={`button is-primary${post.isPending ? ' is-loading' : ''}`} disabled={!text.trim() || post.isPending}>
            {t('discussion.submit')}
          </button>
        </div>
      </form>
      <InfiniteList
        items={feed.items.map((p) => overrides.get(p.id) ?? p)}
        getKey={(p) => p.id}
        hasMore={feed.hasMore}
        loadMore={feed.loadMore}
        isLoading={feed.isLoading}
        isLoadingMore={feed.isLoadingMore}
        error={feed.error}
        errorState={<EmptyState tone="error" icon="alert" title={t('discussion.loadFailed')} />}
        empty={<EmptyState icon="message" title={t('discussion.empty')} />}
        renderItem={(p) => <PostItem post={p} onChange={(np) => setOverrides((m) => new Map(m).set(np.id, np))} onRemoved={refresh} />}
      />
    </div>
  );
}

function PostItem({ post: p, onChange, onRemoved }: { post: GroupPost; onChange: (p: GroupPost) => void; onRemoved: () => void }) {
  const { t } = useTranslation('groups');
  const [open, setOpen] = useState(false);
  const like = useMutation(() => likeGroupPost({ params: { id: p.id } }));
  const remove = useMutation(() => deleteGroupPost({ params: { id: p.id } }), { retries: 0 });
  return (
    <article id={`post-${p.id}`} className="box gr-post" data-testid="group-post" data-post-id={p.id}>
      <header className="gr-post__head">
        <Avatar src={p.user?.profileImageUrl} info={p.user?.profileImageInfo} name={displayName(p.user)} size={40} decorative />
        <div>
          {p.user ? (
            <Link to={profilePath(p.user)} className="has-text-weight-semibold">
              {displayName(p.user)}
            </Link>
          ) : (
            <span>{displayName(null)}</span>
          )}
          <p className="is-size-7 gr-muted">
            <RelativeTime date={p.createdAt} />
          </p>
        </div>
      </header>
      <p className="gr-prewrap">
        <MentionText text={p.content} mentions={p.mentions} />
      </p>
      <footer className="gr-post__actions">
        <button
          type="button"
          className={`button is-small is-white${p.isLiked ? ' gr-danger' : ''}`}
          aria-pressed={p.isLiked}
          disabled={like.isPending}
          onClick={async () => {
            try {
              const r = await like.trigger();
              onChange({ ...p, isLiked: r.liked, likesCount: r.likesCount });
            } catch (e) {
              failToast(t('toasts.likeFailed'), e);
            }
          }}
        >
          <Icon name="heart" size={16} />
          <span>{t('post.likes', { count: p.likesCount })}</span>
        </button>
        <button type="button" className="button is-small is-white" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
          <Icon name="message" size={16} />
          <span>{open ? t('post.hideComments') : p.commentsCount > 0 ? t('post.viewComments', { count: p.commentsCount }) : t('comments.add')}</span>
        </button>
        <span className="gr-spacer" />
        {p.canDelete && (
          <button
            type="button"
            className="button is-small is-white gr-danger"
            disabled={remove.isPending}
            onClick={async () => {
              if (!(await confirmDialog({ title: t('post.deleteConfirm'), confirmLabel: t('common.delete'), destructive: true }))) return;
              try {
                await remove.trigger();
                okToast(t('toasts.postDeleted'));
                onRemoved();
              } catch (e) {
                failToast(t('toasts.deleteFailed'), e);
              }
            }}
          >
            <Icon name="trash" size={16} />
            <span>{t('common.delete')}</span>
          </button>
        )}
      </footer>
      {open && <Comments postId={p.id} onCount={(d) => onChange({ ...p, commentsCount: Math.max(0, p.commentsCount + d) })} />}
    </article>
  );
}

function Comments({ postId, onCount }: { postId: number; onCount: (delta: number) => void }) {
  const { t } = useTranslation('groups');
  const { data, isLoading, mutate } = useApi<GroupComment[]>(`/api/group-posts/${postId}/comments`);
  const [replyTo, setReplyTo] = useState<number | null>(null);
  const remove = useMutation((id: number) => deleteGroupComment({ params: { id } }), { retries: 0 });
  const one = (c: GroupComment | GroupComment['replies'][number], replies: number) => (
    <div key={c.id} className="gr-comment">
      <Avatar src={c.user?.profileImageUrl} info={c.user?.profileImageInfo} name={displayName(c.user)} size={30} decorative />
      <div className="gr-comment__body">
        <div className="gr-comment__bubble">
          {/* no author: a deleted member's comment, kept emptied because others replied under it */}
          <span className="has-text-weight-semibold is-size-7">{c.user ? displayName(c.user) : t('comments.deletedMember')}</span>
          {c.user ? (
            <p className="gr-prewrap">
              <MentionText text={c.content} mentions={c.mentions} />
            </p>
          ) : (
            <p className="has-text-grey is-italic">{t('comments.deletedContent')}</p>
          )}
        </div>
        <div className="gr-comment__actions">
          <RelativeTime date={c.createdAt} />
          <button type="button" className="gr-linkbutton" onClick={() => setReplyTo(c.parentId ?? c.id)}>
            {t('comments.reply')}
          </button>
          {c.canDelete && (
            <button
              type="button"
              className="gr-linkbutton gr-danger"
              onClick={async () => {
                try {
                  await remove.trigger(c.id);
                  onCount(-(1 + replies));
                  await mutate();
                } catch (e) {
                  failToast(t('toasts.deleteCommentFailed'), e);
                }
              }}
            >
              {t('common.delete')}
            </button>
          )}
        </div>
      </div>
    </div>
  );
  return (
    <section className="gr-comments" aria-label={t('comments.title')}>
      {isLoading && <Spinner size="small" />}
      {data?.length === 0 && <p className="is-size-7 gr-muted">{t('comments.none')}</p>}
      {data?.map((c) => (
        <div key={c.id}>
          {one(c, c.replies.length)}
          <div className="gr-replies">
            {c.replies.map((r) => one(r, 0))}
            {replyTo === c.id && (
              <CommentForm
                postId={postId}
                parentId={c.id}
                placeholder={t('comments.replyPlaceholder', { name: displayName(c.user) })}
                onDone={async () => {
                  setReplyTo(null);
                  onCount(1);
                  await mutate();
                }}
              />
            )}
          </div>
        </div>
      ))}
      <CommentForm
        postId={postId}
        placeholder={t('comments.placeholder')}
        onDone={async () => {
          onCount(1);
          await mutate();
        }}
      />
    </section>
  );
}

function CommentForm({ postId, parentId, placeholder, onDone }: { postId: number; parentId?: number; placeholder: string; onDone: () => Promise<void> }) {
  const { t } = useTranslation('groups');
  const [text, setText] = useState('');
  const send = useMutation((content: string) => createGroupPostComment({ params: { id: postId }, body: { content, parentId: parentId ?? null } }), { retries: 0 });
  const id = `gr-comment-${postId}-${parentId ?? 'top'}`;
  return (
    <form
      className="gr-comment-form"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!text.trim()) return;
        try {
          await send.trigger(text.trim());
          setText('');
          await onDone();
        } catch (err) {
          failToast(t('toasts.commentFailed'), err);
        }
      }}
    >
      <label htmlFor={id} className="is-sr-only">
        {placeholder}
      </label>
      <MentionInput id={id} className="input is-small" value={text} maxLength={5000} placeholder={placeholder} autoFocus={Boolean(parentId)} onChange={setText} />
      <button type="submit" className={`button is-small is-primary${send.isPending ? ' is-loading' : ''}`} disabled={!text.trim() || send.isPending}>
        {parentId ? t('comments.reply') : t('comments.add')}
      </button>
    </form>
  );
}

function Members({ g, isAdmin, onChanged }: { g: Group; isAdmin: boolean; onChanged: () => void }) {
  const { t } = useTranslation('groups');
  const { data, isLoading, error, mutate } = useApi<GroupMember[]>(`/api/groups/${g.id}/members`);
  const [username, setUsername] = useState('');
  const add = useMutation((u: string) => addGroupMember({ params: { id: g.id }, body: { username: u } }), { retries: 0 });
  const remove = useMutation((userId: number) => removeGroupMember({ params: { id: g.id, userId } }), { retries: 0 });
  if (isLoading) return <Spinner center />;
  if (error) return <EmptyState tone="error" icon="alert" title={error.message} />;
  return (
    <div>
      {isAdmin && (
        <form
          className="field has-addons gr-add"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!username.trim()) return;
            try {
              await add.trigger(username.trim());
              okToast(t('toasts.memberAdded'));
              setUsername('');
              await mutate();
              onChanged();
            } catch (err) {
              failToast(t('toasts.addFailed'), err);
            }
          }}
        >
          <div className="control is-expanded">
            <label className="is-sr-only" htmlFor="gr-add-user">
              {t('members.addLabel')}
            </label>
            <input id="gr-add-user" className="input" placeholder={t('members.addPlaceholder')} value={username} onChange={(e) => setUsername(e.target.value)} />
          </div>
          <div className="control">
            <button type="submit" className={`button is-primary${add.isPending ? ' is-loading' : ''}`} disabled={!username.trim() || add.isPending}>
              {t('members.add')}
            </button>
          </div>
        </form>
      )}
      <ul className="gr-members">
        {data?.map((m) => (
          <li key={m.userId} className="gr-member">
            <Avatar src={m.user?.profileImageUrl} info={m.user?.profileImageInfo} name={displayName(m.user)} size={40} decorative />
            <div className="gr-member__main">
              {m.user ? (
                <Link to={profilePath(m.user)} className="has-text-weight-semibold">
                  {displayName(m.user)}
                </Link>
              ) : (
                displayName(null)
              )}{' '}
              {m.isCreator ? <span className="tag is-primary">{t('roles.creator')}</span> : m.role === 'admin' ? <span className="tag is-link is-light">{t('roles.admin')}</span> : null}
              <p className="is-size-7 gr-muted">
                {t('members.joined')} <RelativeTime date={m.joinedAt} />
              </p>
            </div>
            {isAdmin && !m.isCreator && m.userId !== undefined && (g.isCreator || m.role !== 'admin') && (
              <button
                type="button"
                className="button is-small is-light"
                disabled={remove.isPending}
                onClick={async () => {
                  try {
                    await remove.trigger(m.userId);
                    okToast(t('toasts.memberRemoved'));
                    await mutate();
                    onChanged();
                  } catch (e) {
                    failToast(t('toasts.removeFailed'), e, t('toasts.tryLater'));
                  }
                }}
              >
                {t('members.remove')}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
