import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import {
  ApiError,
  Avatar,
  EmptyState,
  Icon,
  RoleBadge,
  Slot,
  Spinner,
  TabPanel,
  Tabs,
  apiRequest,
  toast,
  useApi,
  useAuth,
  useCreateDialog,
  useDocumentTitle,
  useTranslation,
  usePluginEnabled,
  formatDateTime,
  intlLocale,
  withRetry,
  confirmDialog,
} from '../../../../web/src/index.ts';
import { displayName, profileKey, type Profile } from '../lib.ts';
import { FollowButton } from '../components/FollowButton.tsx';
import { FollowListModal } from '../components/FollowListModal.tsx';
import { FollowRequestsModal } from '../components/FollowRequestsModal.tsx';
import { MuteDialog } from '../components/MuteDialog.tsx';
import { BadgeStripFallback, BadgesTabFallback } from '../components/ProfileBadges.tsx';
import { SettingsDialog, type SettingsTab } from '../components/SettingsDialog.tsx';
import '../accounts.css';

const TABS = ['insights', 'museums', 'badges'] as const;
type ProfileTab = (typeof TABS)[number];

function Count({ value, label, onClick }: { value: number | null | undefined; label: string; onClick?: () => void }) {
  const { t, i18n } = useTranslation('accounts');
  // numbers in the viewer's language too (1,234 / 1 234), not the browser's default locale
  const shown = value === null || value === undefined ? '—' : value.toLocaleString(intlLocale(i18n.resolvedLanguage || i18n.language));
  const inner = (
    <>
      <span className="acc-count__value">{shown}</span>
      <span className="acc-count__label">{label}</span>
    </>
  );
  if (onClick && value !== null && value !== undefined) {
    return (
      <button type="button" className="acc-count is-link" onClick={onClick}>
        {inner}
      </button>
    );
  }
  return (
    <div className="acc-count" title={value === null ? t('profile.hidden') : undefined}>
      {inner}
    </div>
  );
}

function MoreMenu({ profile, onList, onSafety }: { profile: Profile; onList: (k: 'followers' | 'following') => void; onSafety: (action: SafetyAction) => void }) {
  const { t } = useTranslation('accounts');
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  // keyboard: the first item takes focus on opening; arrows move between items; Escape closes and returns focus
  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);
  const onMenuKey = (e: ReactKeyboardEvent) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown') (items[(i + 1) % items.length] ?? items[0])?.focus();
    else if (e.key === 'ArrowUp') (items[(i - 1 + items.length) % items.length] ?? items[0])?.focus();
    else if (e.key === 'Home') items[0]?.focus();
    else if (e.key === 'End') items[items.length - 1]?.focus();
    else return;
    e.preventDefault();
  };
  const act = (a: SafetyAction) => {
    setOpen(false);
    triggerRef.current?.focus();
    onSafety(a);
  };
  useEffect(() => {
    if (!open) return;
    const onDoc = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        triggerRef.current?.focus();
      }
    };
    document.addEventListener('mousedown', onDoc);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDoc);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const copy = async () => {
    setOpen(false);
    const url = `${window.location.origin}/profile/${profile.slug || profile.id}`;
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: t('profile.linkCopied'), description: t('profile.linkCopiedText'), variant: 'success' });
    } catch {
      window.prompt(t('profile.copyLink'), url);
    }
  };
  return (
    <div ref={ref} className={`dropdown is-right${open ? ' is-active' : ''}`}>
      <div className="dropdown-trigger">
        <button ref={triggerRef} type="button" className="button is-light" aria-haspopup="menu" aria-expanded={open} aria-label={t('profile.more')} onClick={() => setOpen((o) => !o)}>
          <Icon name="menu" size={18} />
        </button>
      </div>
      {open && (
        <div className="dropdown-menu" role="menu" aria-label={t('profile.more')} ref={menuRef} onKeyDown={onMenuKey}>
          <div className="dropdown-content">
            <button type="button" role="menuitem" className="dropdown-item" onClick={copy}>
              {t('profile.copyLink')}
            </button>
            {profile.followersCount !== null && profile.followersCount !== undefined && (
              <button type="button" role="menuitem" className="dropdown-item" onClick={() => (setOpen(false), onList('followers'))}>
                {t('profile.viewFollowers')}
              </button>
            )}
            {profile.followingCount !== null && profile.followingCount !== undefined && (
              <button type="button" role="menuitem" className="dropdown-item" onClick={() => (setOpen(false), onList('following'))}>
                {t('profile.viewFollowing')}
              </button>
            )}
            {user && user.id !== profile.id && (
              <>
                <hr className="dropdown-divider" />
                {profile.followsYou && (
                  <button type="button" role="menuitem" className="dropdown-item" onClick={() => act('removeFollower')}>
                    {t('safety.removeFollower')}
                  </button>
                )}
                <button type="button" role="menuitem" className="dropdown-item" onClick={() => act(profile.isMuted ? 'unmute' : 'mute')}>
                  {profile.isMuted ? t('safety.unmute') : t('safety.mute')}
                </button>
                <button type="button" role="menuitem" className="dropdown-item" onClick={() => act(profile.isBlocked ? 'unblock' : 'block')}>
                  {profile.isBlocked ? t('safety.unblock') : t('safety.block')}
                </button>
              </>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

type SafetyAction = 'block' | 'unblock' | 'mute' | 'unmute' | 'removeFollower';

/** /profile (own) and /profile/{id, slug or username} (spec part 1 §2 Profile). */
export default function ProfilePage() {
  const { t, i18n } = useTranslation('accounts');
  const messagesEnabled = usePluginEnabled('messages');
  const { id: param } = useParams();
  const { user } = useAuth();
  const [search, setSearch] = useSearchParams();
  const createDialog = useCreateDialog();
  // An all-digit parameter is an id first; if no such id, it may still be a username.
  const [bySlug, setBySlug] = useState(false);
  useEffect(() => setBySlug(false), [param]);
  const key = bySlug && param ? `/api/user/slug/${encodeURIComponent(param)}` : profileKey(param);
  const { data: profile, error, isLoading, mutate } = useApi<Profile>(key);
  useEffect(() => {
    if (error instanceof ApiError && error.status === 404 && param && /^\d+$/.test(param) && !bySlug) setBySlug(true);
  }, [error, param, bySlug]);
  // a slug or username the member had before renaming (the API found them by it): the address
  // becomes the current one, as the server's 301 does for a page loaded from outside
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    if (!profile || !param || !profile.slug || /^\d+$/.test(param)) return;
    const p = param.toLowerCase();
    if (p === profile.slug.toLowerCase() || p === profile.username.toLowerCase()) return;
    navigate(`/profile/${encodeURIComponent(profile.slug)}${location.search}${location.hash}`, { replace: true });
  }, [profile, param, navigate, location.search, location.hash]);

  const [settings, setSettings] = useState<SettingsTab | null>(search.get('settings') ? (search.get('settings') as SettingsTab) : null);
  const [list, setList] = useState<'followers' | 'following' | null>(null);
  const [requestsOpen, setRequestsOpen] = useState(false);
  const [muting, setMuting] = useState(false);
  const tabParam = (search.get('tab') ?? '').toLowerCase();
  const tab: ProfileTab = (TABS as readonly string[]).includes(tabParam) ? (tabParam as ProfileTab) : 'insights';
  const setTab = (next: string) => {
    const p = new URLSearchParams(search);
    if (next === 'insights') p.delete('tab');
    else p.set('tab', next);
    setSearch(p, { replace: true });
  };

  const name = profile ? displayName(profile) : '';
  useDocumentTitle(profile ? name : t('profile.title'));

  if (isLoading || (error instanceof ApiError && error.status === 404 && param && /^\d+$/.test(param) && !bySlug)) {
    return <Spinner center size="large" label={t('profile.loading')} className="acc-page-spinner" />;
  }
  if (error instanceof ApiError && error.status === 404) {
    return (
      <section className="section">
        <EmptyState
          icon="user"
          title={t('profile.notFound')}
          description={t('profile.notFoundText')}
          action={
            <Link to="/" className="button is-primary is-light">
              {t('profile.backHome')}
            </Link>
          }
        />
      </section>
    );
  }
  if (error || !profile) {
    return (
      <section className="section">
        <EmptyState
          tone="error"
          title={t('profile.loadFailed')}
          description={error?.message}
          action={
            <button type="button" className="button is-light" onClick={() => void mutate()}>
              {t('profile.retry')}
            </button>
          }
        />
      </section>
    );
  }

  const isOwn = profile.isOwn || (!!user && user.id === profile.id);
  const onFollow = (following: boolean, followersCount: number, requested: boolean) => {
    void mutate(
      { ...profile, isFollowing: following, requested, followersCount: profile.followersCount === null || profile.followersCount === undefined ? profile.followersCount : followersCount },
      { revalidate: profile.limited || following !== profile.isFollowing },
    );
  };
  const onSafety = async (action: SafetyAction) => {
    if (action === 'mute') return setMuting(true); // for how long, and the notifications too?
    if (action === 'block' && !(await confirmDialog({ title: t('safety.block'), message: t('safety.blockConfirm', { name }), confirmLabel: t('safety.block'), destructive: true }))) return;
    try {
      const path = `/api/user/${profile.id}/${action === 'removeFollower' ? 'remove-follower' : action.replace(/^un/, '')}`;
      const method = action === 'unblock' || action === 'unmute' ? 'DELETE' : 'POST';
      await withRetry(() => apiRequest(method, path), { retries: 0 });
      toast({ title: t(`safety.done.${action}`, { name }), variant: 'success' });
      await mutate();
    } catch (e) {
      toast({ title: t('safety.failed'), description: (e as Error).message, variant: 'destructive' });
    }
  };
  const slotProps = { userId: profile.id, user: profile, profile, isOwn, onShowAll: () => setTab('badges') };
  const lng = i18n.resolvedLanguage || 'en';

  return (
    <section className="section acc-profile">
      <div className="container">
        <header className="acc-profile__header box">
          <Avatar src={profile.profileImageUrl} info={profile.profileImageInfo} name={name} size={112} className="acc-profile__avatar" priority />
          <div className="acc-profile__info">
            <div className="acc-profile__titlebar">
              <h1 className="title is-4 acc-profile__username">{profile.username}</h1>
              <RoleBadge role={profile.role} hideTraveler size="normal" />
              {profile.followsYou && !isOwn && <span className="tag is-light">{t('profile.followsYou')}</span>}
              <div className="acc-profile__actions">
                {isOwn ? (
                  <>
                    <button type="button" className="button is-light" onClick={() => setSettings('profile')}>
                      <Icon name="edit" size={16} />
                      <span>{t('profile.editProfile')}</span>
                    </button>
                    <button type="button" className="button is-light" aria-label={t('profile.settings')} title={t('profile.settings')} onClick={() => setSettings('privacy')}>
                      <Icon name="settings" size={18} />
                    </button>
                    {(profile.profileVisibility === 'private' || (profile.followRequestsCount ?? 0) > 0) && (
                      <button type="button" className="button is-light" onClick={() => setRequestsOpen(true)}>
                        {t('requests.entry', { count: profile.followRequestsCount ?? 0 })}
                      </button>
                    )}
                  </>
                ) : (
                  <>
                    {profile.isBlocked ? (
                      <button type="button" className="button is-danger is-light" onClick={() => void onSafety('unblock')}>
                        {t('safety.unblock')}
                      </button>
                    ) : (
                      <FollowButton userId={profile.id} following={profile.isFollowing} requested={profile.requested ?? false} onChange={onFollow} />
                    )}
                    <Slot name="profile.actions" targetType="user" targetId={profile.id} ownerId={profile.id} />
                    {messagesEnabled && (
                      // the messages page opens the conversation, or says why this member cannot be messaged
                      <Link to={`/messages/new?to=${profile.id}`} className="button is-light" data-testid="profile-message">
                        <Icon name="message" size={16} />
                        <span>{t('profile.message')}</span>
                      </Link>
                    )}
                    <MoreMenu profile={profile} onList={setList} onSafety={(a) => void onSafety(a)} />
                  </>
                )}
              </div>
            </div>

            {!profile.limited && (
              <div className="acc-profile__counts">
                <Count value={profile.insightsCount ?? 0} label={t('profile.insights')} onClick={() => setTab('insights')} />
                <Count value={profile.followersCount} label={t('profile.followers')} onClick={() => setList('followers')} />
                <Count value={profile.followingCount} label={t('profile.following')} onClick={() => setList('following')} />
              </div>
            )}

            {name !== profile.username && <p className="acc-profile__name">{name}</p>}
            {!profile.limited && profile.bio && <p className="acc-profile__bio">{profile.bio}</p>}
            {!profile.limited && profile.email && (
              <p className="acc-profile__email">
                <Icon name="mail" size={14} /> <a href={`mailto:${profile.email}`}>{profile.email}</a>
              </p>
            )}
            {/* (the month in UTC: the same on the server render of a public profile and in any browser) */}
            {!profile.limited && profile.createdAt && (
              <p className="is-size-7 has-text-grey">{t('profile.memberSince', { date: formatDateTime(new Date(profile.createdAt), lng, { month: 'long', year: 'numeric', timeZone: 'UTC' }) })}</p>
            )}
            {!profile.limited && (
              <div className="acc-profile__badges">
                <Slot name="profile.badgeStrip" {...slotProps} fallback={<BadgeStripFallback userId={profile.id} onShowAll={() => setTab('badges')} />} />
              </div>
            )}
          </div>
        </header>

        {profile.isBlocked ? (
          <EmptyState icon="shield" title={t('safety.blockedTitleProfile')} description={t('safety.blockedText', { name })} />
        ) : profile.limited ? (
          <EmptyState icon="shield" title={t('profile.privateTitle')} description={profile.requested ? t('profile.requestedText', { name }) : t('profile.privateText', { name })} />
        ) : (
          <div className="acc-profile__tabs">
            <Tabs
              idPrefix="acc-profile"
              label={t('profile.tabsLabel')}
              variant="is-centered"
              active={tab}
              onChange={setTab}
              tabs={[
                { id: 'insights', label: t('profile.tabInsights'), icon: <Icon name="image" size={16} /> },
                { id: 'museums', label: t('profile.tabMuseums'), icon: <Icon name="museum" size={16} /> },
                { id: 'badges', label: t('profile.tabBadges'), icon: <Icon name="award" size={16} /> },
              ]}
            />
            <TabPanel idPrefix="acc-profile" id="insights" active={tab}>
              {profile.isMuted && !isOwn ? (
                // a mute hides their insights from the muter, here too (the API answers none)
                <EmptyState
                  icon="shield"
                  title={t('safety.mutedTitleProfile')}
                  description={t('safety.mutedText', { name })}
                  action={
                    <button type="button" className="button is-light" onClick={() => void onSafety('unmute')}>
                      {t('safety.unmute')}
                    </button>
                  }
                />
              ) : (
              <Slot
                name="profile.insights"
                {...slotProps}
                fallback={
                  isOwn ? (
                    <EmptyState
                      icon="camera"
                      title={t('profile.shareInsights')}
                      description={t('profile.shareInsightsText')}
                      action={
                        createDialog.available ? (
                          <button type="button" className="button is-primary" onClick={() => createDialog.open()}>
                            {t('profile.shareInsights')}
                          </button>
                        ) : undefined
                      }
                    />
                  ) : (
                    <EmptyState icon="camera" title={t('profile.noInsightsOther')} />
                  )
                }
              />
              )}
            </TabPanel>
            <TabPanel idPrefix="acc-profile" id="museums" active={tab}>
              <Slot name="profile.museums" {...slotProps} fallback={<EmptyState icon="museum" title={t('profile.noMuseums')} description={t('profile.noMuseumsText')} />} />
            </TabPanel>
            <TabPanel idPrefix="acc-profile" id="badges" active={tab}>
              <Slot name="profile.badgesTab" {...slotProps} fallback={<BadgesTabFallback userId={profile.id} />} />
            </TabPanel>
            <Slot name="profile.sections" {...slotProps} />
          </div>
        )}
      </div>
      {list && <FollowListModal userId={profile.id} kind={list} onClose={() => setList(null)} />}
      {!isOwn && muting && <MuteDialog userId={profile.id} name={name} onClose={() => setMuting(false)} onDone={() => void mutate()} />}
      {isOwn && requestsOpen && <FollowRequestsModal onClose={() => setRequestsOpen(false)} onChange={() => void mutate()} />}
      {isOwn && settings && (
        <SettingsDialog
          initialTab={settings}
          onClose={() => {
            setSettings(null);
            if (search.get('settings')) {
              const p = new URLSearchParams(search);
              p.delete('settings');
              setSearch(p, { replace: true });
            }
          }}
        />
      )}
    </section>
  );
}
