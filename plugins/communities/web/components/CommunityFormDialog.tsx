import { useEffect, useState, type FormEvent } from 'react';
import { Modal, useMutation, useTranslation, type ApiError } from '../../../../web/src/index.ts';
import { createCommunity, updateCommunity, type CreateCommunityBody } from '../../../../web/src/api/generated/communities.ts';
import { COMMUNITY_TYPES, failToast, okToast, type Community } from '../lib.ts';

interface Props {
  open: boolean;
  onClose: () => void;
  /** edit mode when given (Edit Community Info); create otherwise */
  community?: Community;
  onSaved: (c: Community) => void;
}

interface Form {
  name: string;
  description: string;
  location: string;
  type: string;
  membershipType: 'open' | 'private';
  tags: string;
}

const blank: Form = { name: '', description: '', location: '', type: 'general', membershipType: 'open', tags: '' };

/** Tags are typed as one comma-separated text; trimmed and split into a list (spec part 2 §5). */
export function splitTags(s: string): string[] {
  return s.split(',').map((t) => t.trim()).filter(Boolean);
}

/** The Create Community dialog, and Edit Community Info for the creator. */
export function CommunityFormDialog({ open, onClose, community, onSaved }: Props) {
  const { t } = useTranslation('communities');
  const editing = Boolean(community);
  const [form, setForm] = useState<Form>(blank);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setError(null);
    setForm(
      community
        ? { name: community.name, description: community.description, location: community.location, type: community.type, membershipType: community.membershipType, tags: community.tags.join(', ') }
        : blank,
    );
  }, [open, community]);

  const save = useMutation(
    (f: Form) => {
      const body = { name: f.name.trim(), description: f.description.trim(), location: f.location.trim(), type: f.type || 'general', tags: splitTags(f.tags) as CreateCommunityBody['tags'] };
      return community
        ? updateCommunity({ params: { id: community.id }, body })
        : createCommunity({ body: { ...body, membershipType: f.membershipType } });
    },
    { retries: 0 },
  );
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!form.name.trim()) {
      setError(t('create.nameRequired'));
      return;
    }
    try {
      const c = await save.trigger(form);
      okToast(editing ? t('toasts.communityUpdated') : t('toasts.communityCreated'));
      onSaved(c);
      onClose();
    } catch (err) {
      const apiErr = err as ApiError;
      const nameErr = apiErr.errors?.find((x) => x.path.endsWith('/name'));
      if (nameErr) setError(nameErr.message);
      failToast(editing ? t('toasts.updateFailed') : t('toasts.createFailed'), err);
    }
  }

  const types = COMMUNITY_TYPES.includes(form.type as any) ? COMMUNITY_TYPES : [...COMMUNITY_TYPES, form.type];
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={editing ? t('manage.editInfo') : t('create.title')}
      footer={
        <>
          <button type="submit" form="cm-community-form" className={`button is-primary${save.isPending ? ' is-loading' : ''}`} disabled={save.isPending}>
            {editing ? t('common.save') : t('create.submit')}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </>
      }
    >
      <form id="cm-community-form" onSubmit={submit} noValidate>
        <div className="field">
          <label className="label" htmlFor="cm-name">
            {t('create.name')} <span aria-hidden="true">*</span>
          </label>
          <div className="control">
            <input
              id="cm-name"
              className={`input${error ? ' is-danger' : ''}`}
              value={form.name}
              maxLength={100}
              required
              aria-invalid={Boolean(error)}
              aria-describedby={error ? 'cm-name-error' : undefined}
              placeholder={t('create.namePlaceholder')}
              onChange={(e) => {
                set('name', e.target.value);
                setError(null);
              }}
            />
          </div>
          {error && (
            <p className="help is-danger" id="cm-name-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <div className="field">
          <label className="label" htmlFor="cm-description">
            {t('create.description')}
          </label>
          <textarea id="cm-description" className="textarea" rows={3} maxLength={2000} value={form.description} placeholder={t('create.descriptionPlaceholder')} onChange={(e) => set('description', e.target.value)} />
        </div>
        <div className="columns">
          <div className="column field">
            <label className="label" htmlFor="cm-location">
              {t('create.location')}
            </label>
            <input id="cm-location" className="input" maxLength={200} value={form.location} placeholder={t('create.locationPlaceholder')} onChange={(e) => set('location', e.target.value)} />
          </div>
          <div className="column field">
            <label className="label" htmlFor="cm-type">
              {t('create.type')}
            </label>
            <div className="select is-fullwidth">
              <select id="cm-type" value={form.type} onChange={(e) => set('type', e.target.value)}>
                {types.map((ty) => (
                  <option key={ty} value={ty}>
                    {COMMUNITY_TYPES.includes(ty as any) ? t(`types.${ty}`) : ty}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </div>
        {!editing && (
          <fieldset className="field">
            <legend className="label">{t('create.membershipType')}</legend>
            <div className="control cm-radios">
              {(['open', 'private'] as const).map((m) => (
                <label key={m} className="radio cm-radio">
                  <input type="radio" name="cm-membership" value={m} checked={form.membershipType === m} onChange={() => set('membershipType', m)} />
                  <span>
                    <strong>{t(`membership.${m}`)}</strong>
                    <span className="help">{t(`create.membershipHelp.${m}`)}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        )}
        <div className="field">
          <label className="label" htmlFor="cm-tags">
            {t('create.tags')}
          </label>
          <input id="cm-tags" className="input" value={form.tags} maxLength={800} placeholder={t('create.tagsPlaceholder')} aria-describedby="cm-tags-help" onChange={(e) => set('tags', e.target.value)} />
          <p className="help" id="cm-tags-help">
            {t('create.tagsHelp')}
          </p>
        </div>
      </form>
    </Modal>
  );
}
