import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { EmptyState, Icon, Modal, Spinner, useApi, useMutation, useTranslation, type ApiError } from '../../../../web/src/index.ts';
import { createGroup, type CreateGroupBody } from '../../../../web/src/api/generated/groups.ts';
import { failToast, okToast, type GroupCardData } from '../lib.ts';
import '../groups.css';

const MIN_QUERY = 3;

/** The Groups tab of /groups and /communities: search, cards, Create Group, empty state. */
export default function GroupsTab() {
  const { t } = useTranslation('groups');
  const [query, setQuery] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const h = setTimeout(() => setDebounced(query.trim()), 300);
    return () => clearTimeout(h);
  }, [query]);
  const q = debounced.length >= MIN_QUERY ? debounced : '';
  const { data, error, isLoading, mutate } = useApi<GroupCardData[]>(`/api/groups${q ? `?q=${encodeURIComponent(q)}` : ''}`);
  const [creating, setCreating] = useState(false);
  return (
    <div>
      <div className="gr-toolbar">
        <form className="field gr-search" role="search" onSubmit={(e) => e.preventDefault()}>
          <label className="label is-sr-only" htmlFor="gr-search">
            {t('list.searchLabel')}
          </label>
          <div className="control has-icons-left">
            <input id="gr-search" className="input is-medium" type="search" value={query} placeholder={t('list.searchPlaceholder')} onChange={(e) => setQuery(e.target.value)} />
            <span className="icon is-left" aria-hidden="true">
              <Icon name="search" size={18} />
            </span>
          </div>
        </form>
        <button type="button" className="button is-primary gr-iconbutton" onClick={() => setCreating(true)}>
          <Icon name="plus" size={18} />
          <span>{t('create.title')}</span>
        </button>
      </div>
      {isLoading ? (
        <Spinner center />
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
      ) : !data?.length ? (
        <EmptyState icon="users" title={t('list.empty')} description={q ? t('list.emptySearch') : t('list.emptyHelp')} />
      ) : (
        <div className="gr-grid">
          {data.map((g) => (
            <GroupCard key={g.id} g={g} />
          ))}
        </div>
      )}
      <CreateGroupDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}

function GroupCard({ g }: { g: GroupCardData }) {
  const { t } = useTranslation('groups');
  const shown = g.tags.slice(0, 2);
  return (
    <article className="gr-card" data-testid="group-card">
      <div className="gr-card__top">
        <h2 className="gr-card__name">
          <Link to={`/groups/${g.id}`}>{g.name}</Link>
        </h2>
        {g.isMember && <span className="tag is-success is-light">{t('list.memberBadge')}</span>}
      </div>
      {g.description && <p className="gr-card__description">{g.description}</p>}
      <ul className="gr-facts">
        {g.location && (
          <li>
            <Icon name="map" size={14} /> {g.location}
          </li>
        )}
        <li>
          <Icon name="users" size={14} /> {t('common.members', { count: g.memberCount })}
        </li>
        <li>
          <span className={`tag is-rounded is-light ${g.isPrivate ? 'is-warning' : 'is-info'}`}>{g.isPrivate ? t('privacy.private') : t('privacy.public')}</span>
        </li>
      </ul>
      {g.tags.length > 0 && (
        <div className="tags">
          {shown.map((tag) => (
            <span key={tag} className="tag is-primary is-light">
              {tag}
            </span>
          ))}
          {g.tags.length > 2 && <span className="tag">+{g.tags.length - 2}</span>}
        </div>
      )}
    </article>
  );
}

function CreateGroupDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('groups');
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [location, setLocation] = useState('');
  const [tags, setTags] = useState('');
  const [isPrivate, setPrivate] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (open) {
      setName('');
      setDescription('');
      setLocation('');
      setTags('');
      setPrivate(false);
      setError(null);
    }
  }, [open]);
  const create = useMutation((body: CreateGroupBody) => createGroup({ body }), { retries: 0 });
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setError(t('create.nameRequired'));
    try {
      const g = await create.trigger({
        name: name.trim(),
        description: description.trim(),
        location: location.trim(),
        isPrivate,
        tags: tags.split(',').map((x) => x.trim()).filter(Boolean) as CreateGroupBody['tags'],
      });
      okToast(t('toasts.created'));
      onClose();
      navigate(`/groups/${g.id}`);
    } catch (err) {
      const fe = (err as ApiError).errors?.find((x) => x.path.endsWith('/name'));
      if (fe) setError(fe.message);
      failToast(t('toasts.createFailed'), err);
    }
  }
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('create.title')}
      footer={
        <>
          <button type="submit" form="gr-create" className={`button is-primary${create.isPending ? ' is-loading' : ''}`} disabled={create.isPending}>
            {t('create.submit')}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </>
      }
    >
      <form id="gr-create" onSubmit={submit} noValidate>
        <div className="field">
          <label className="label" htmlFor="gr-name">
            {t('create.name')} <span aria-hidden="true">*</span>
          </label>
          <input id="gr-name" className={`input${error ? ' is-danger' : ''}`} required maxLength={100} value={name} aria-invalid={Boolean(error)} aria-describedby={error ? 'gr-name-error' : undefined} onChange={(e) => { setName(e.target.value); setError(null); }} />
          {error && (
            <p id="gr-name-error" className="help is-danger" role="alert">
              {error}
            </p>
          )}
        </div>
        <div className="field">
          <label className="label" htmlFor="gr-description">
            {t('create.description')}
          </label>
          <textarea id="gr-description" className="textarea" rows={3} maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <div className="field">
          <label className="label" htmlFor="gr-location">
            {t('create.location')}
          </label>
          <input id="gr-location" className="input" maxLength={200} value={location} onChange={(e) => setLocation(e.target.value)} />
        </div>
        <div className="field">
          <label className="label" htmlFor="gr-tags">
            {t('create.tags')}
          </label>
          <input id="gr-tags" className="input" value={tags} aria-describedby="gr-tags-help" onChange={(e) => setTags(e.target.value)} />
          <p className="help" id="gr-tags-help">
            {t('create.tagsHelp')}
          </p>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={isPrivate} onChange={(e) => setPrivate(e.target.checked)} /> {t('create.private')}
        </label>
        <p className="help">{t('create.privateHelp')}</p>
      </form>
    </Modal>
  );
}
