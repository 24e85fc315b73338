import { useState } from 'react';
import { Avatar, EmptyState, Icon, RoleBadge, Spinner, useApi, useAuth, useTranslation } from '../../../../web/src/index.ts';
import type { AdminListUsersResponse } from '../../../../web/src/api/generated/admin.ts';
import { PageButtons } from './PageButtons.tsx';
import { ModerateUserDialog } from './ModerateUserDialog.tsx';
import { ChangeRoleDialog } from './ChangeRoleDialog.tsx';
import { failToast, fullName, qs, useDebounced } from '../lib.ts';

export type AdminUser = AdminListUsersResponse['items'][number];
const PAGE_SIZE = 10;
const MOD_CLASS: Record<string, string> = { warning: 'is-warning', temporary_ban: 'is-danger is-light', permanent_ban: 'is-danger', content_restriction: 'is-info' };

export default function UsersTab() {
  const { t } = useTranslation('admin');
  const { user: me } = useAuth();
  const [search, setSearch] = useState('');
  const [moderating, setModerating] = useState<AdminUser | null>(null);
  const [changingRole, setChangingRole] = useState<AdminUser | null>(null);
  const q = useDebounced(search.trim(), 300);
  // A new search starts at page 1.
  const [paged, setPaged] = useState({ q: '', page: 1 });
  const page = paged.q === q ? paged.page : 1;
  const setPage = (p: number) => setPaged({ q, page: p });
  const url = q ? `/api/admin/users/search${qs({ q, page, pageSize: PAGE_SIZE })}` : `/api/admin/users${qs({ page, pageSize: PAGE_SIZE })}`;
  const users = useApi<AdminListUsersResponse>(url, {
    keepPreviousData: true,
    onError: (e) => {
      if (q) failToast(e, t('users.searchFailed'));
    },
  });
  const total = users.data?.total ?? 0;

  return (
    <section aria-labelledby="admin-users-title">
      <div className="admin-section-head">
        <h2 id="admin-users-title" className="title is-5">
          {t('users.title')} <span className="tag is-rounded">{t('users.count', { count: total })}</span>
        </h2>
        <div className="control has-icons-left admin-search">
          <input
            className="input"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={t('users.searchPlaceholder')}
            aria-label={t('users.searchLabel')}
          />
          <span className="icon is-left" aria-hidden="true">
            <Icon name="search" />
          </span>
        </div>
      </div>

      {users.isLoading ? (
        <Spinner center label={t('users.loading')} showLabel />
      ) : users.error && !users.data ? (
        <EmptyState tone="error" compact title={q ? t('users.searchFailed') : t('users.loadFailed')} />
      ) : !users.data?.items.length ? (
        <EmptyState compact icon="users" title={q ? t('users.noMatch') : t('users.none')} />
      ) : (
        <>
          <ul className="admin-list box" aria-busy={users.isValidating}>
            {users.data.items.map((u) => {
              const name = fullName(u) || u.username;
              const self = me?.id === u.id;
              return (
                <li key={u.id} className="admin-row">
                  <Avatar src={u.profileImageUrl} info={u.profileImageInfo} name={name} size={44} decorative />
                  <div className="admin-row__main">
                    <p className="admin-row__title">
                      <strong>{name}</strong> <span className="has-text-grey">@{u.username}</span>
                    </p>
                    <p className="admin-row__sub">{u.email}</p>
                    <p className="tags admin-row__tags">
                      <RoleBadge role={u.role} />
                      {u.moderation && (
                        <span className={`tag ${MOD_CLASS[u.moderation.type] ?? 'is-light'}`} title={u.moderation.reason}>
                          {t(`moderation.types.${u.moderation.type}`)}
                        </span>
                      )}
                    </p>
                  </div>
                  <div className="admin-row__actions buttons are-small">
                    <button type="button" className="button" disabled={self} title={self ? t('users.self') : undefined} onClick={() => setChangingRole(u)}>
                      {t('users.changeRole')}
                    </button>
                    <button type="button" className="button is-danger is-outlined" disabled={self} title={self ? t('users.self') : undefined} onClick={() => setModerating(u)}>
                      {t('users.moderate')}
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
          <PageButtons page={page} total={total} pageSize={PAGE_SIZE} onChange={setPage} label={t('users.pages')} />
        </>
      )}
      {moderating && <ModerateUserDialog user={moderating} onClose={() => setModerating(null)} />}
      {changingRole && <ChangeRoleDialog user={changingRole} onClose={() => setChangingRole(null)} />}
    </section>
  );
}
