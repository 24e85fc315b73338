import { useId, useState } from 'react';
import { ApiError, Avatar, Modal, Spinner, useApi, useMutation, useTranslation } from '../../../../web/src/index.ts';
import { adminUpdateMuseum, type AdminListMuseumManagersResponse } from '../../../../web/src/api/generated/admin.ts';
import type { AdminMuseum } from './MuseumsTab.tsx';
import { MuseumFields, museumPayload, validateMuseum, type MuseumErrors, type MuseumFormValues } from './MuseumForm.tsx';
import { failToast, focusFirstError, fullName, okToast, qs, refreshAdmin, useDebounced } from '../lib.ts';

type Manager = AdminListMuseumManagersResponse[number];

function toValues(m: AdminMuseum): MuseumFormValues {
  const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  return {
    name: m.name,
    description: s(m.description),
    category: s(m.category),
    phone: s(m.phone),
    email: s(m.email),
    website: s(m.website),
    address: s(m.address),
    address2: s(m.address2),
    city: s(m.city),
    state: s(m.state),
    zipCode: s(m.zipCode),
    country: s(m.country),
    latitude: s(m.latitude),
    longitude: s(m.longitude),
    featuredImage: s(m.featuredImage),
  };
}

/** Manager search from 2 characters, offering only Museum Managers and Admins; removing sends managerId null. */
function ManagerPicker({ idPrefix, current, onChange }: { idPrefix: string; current: { id: number; label: string } | null; onChange: (m: { id: number; label: string } | null) => void }) {
  const { t } = useTranslation('admin');
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim(), 250);
  const results = useApi<AdminListMuseumManagersResponse>(query.length >= 2 ? `/api/admin/museum-managers${qs({ q: query, limit: 8 })}` : null);
  const label = (u: Manager) => `${fullName(u) || u.username} (@${u.username})`;
  return (
    <fieldset className="field admin-manager">
      <legend className="label">{t('museumForm.manager')}</legend>
      {current ? (
        <div className="admin-manager__current">
          <span>{current.label}</span>
          <button type="button" className="button is-small is-danger is-light" onClick={() => onChange(null)}>
            {t('museumForm.removeManager')}
          </button>
        </div>
      ) : (
        <p className="has-text-grey is-size-7 mb-2">{t('museumForm.noManager')}</p>
      )}
      <label className="is-sr-only" htmlFor={`${idPrefix}-manager`}>
        {t('museumForm.searchManager')}
      </label>
      <input id={`${idPrefix}-manager`} className="input" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder={t('museumForm.searchManager')} autoComplete="off" />
      <p className="help">{t('museumForm.managerHelp')}</p>
      {query.length >= 2 &&
        (results.isLoading ? (
          <Spinner size="small" />
        ) : !results.data?.length ? (
          <p className="has-text-grey is-size-7">{t('museumForm.noManagers')}</p>
        ) : (
          <ul className="admin-mini-list" aria-label={t('museumForm.managerResults')}>
            {results.data.map((u) => (
              <li key={u.id}>
                <button
                  type="button"
                  className="button is-small is-white admin-manager__option"
                  onClick={() => {
                    onChange({ id: u.id, label: label(u) });
                    setQ('');
                  }}
                >
                  <Avatar src={u.profileImageUrl} info={u.profileImageInfo} name={fullName(u) || u.username} size={24} decorative />
                  <span>{label(u)}</span>
                  <span className="tag is-light">{u.role}</span>
                </button>
              </li>
            ))}
          </ul>
        ))}
    </fieldset>
  );
}

export function EditMuseumDialog({ museum, onClose }: { museum: AdminMuseum; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [values, setValues] = useState(() => toValues(museum));
  const [errors, setErrors] = useState<MuseumErrors>({});
  const managerInfo = useApi<{ id: number; username: string; firstName: string; lastName: string } | null>(museum.managerId ? `/api/user/${museum.managerId}` : null, { shouldRetryOnError: false });
  const [manager, setManager] = useState<{ id: number; label: string } | null | undefined>(undefined);
  const currentManager =
    manager !== undefined ? manager : museum.managerId ? { id: museum.managerId, label: managerInfo.data ? `${fullName(managerInfo.data) || managerInfo.data.username} (@${managerInfo.data.username})` : t('museumForm.managerId', { id: museum.managerId }) } : null;
  const save = useMutation(
    () => {
      const body: Parameters<typeof adminUpdateMuseum>[0]['body'] = { ...museumPayload(values) } as any;
      if (manager !== undefined) (body as any).managerId = manager ? manager.id : null;
      return adminUpdateMuseum({ params: { id: museum.id }, body });
    },
    { retries: 0 },
  );
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const errs = validateMuseum(values, t, false);
    setErrors(errs);
    if (Object.keys(errs).length) return focusFirstError(`${id}-form`);
    try {
      await save.trigger();
      okToast(t('toast.success'), t('museums.updated'));
      await refreshAdmin('/api/admin/museums', '/api/admin/actions');
      onClose();
    } catch (err) {
      // The server assigns the manager first and names the field when it cannot (nothing else changed then).
      if (err instanceof ApiError && err.errors.some((e) => e.path === '/managerId')) failToast(err, t('museums.assignManagerFailed'), t('museums.assignManagerFailed'));
      else failToast(err, t('museums.updateMuseumFailed'));
    }
  };
  return (
    <Modal
      open
      onClose={onClose}
      title={t('museums.editTitle')}
      size="large"
      footer={
        <div className="buttons is-right">
          <button type="button" className="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" form={`${id}-form`} className={`button is-primary${save.isPending ? ' is-loading' : ''}`} disabled={save.isPending}>
            {t('museums.save')}
          </button>
        </div>
      }
    >
      <form id={`${id}-form`} onSubmit={submit} noValidate>
        <MuseumFields idPrefix={id} values={values} errors={errors} onChange={setValues} create={false} />
        <ManagerPicker idPrefix={id} current={currentManager} onChange={setManager} />
      </form>
    </Modal>
  );
}
