import { useId, useState } from 'react';
import { EmojiIcon, EmptyState, Modal, RelativeTime, SYMBOL_EMOJI, Spinner, symbolOfEmoji, inkOn, useApi, useMutation, useTranslation } from '../../../../web/src/index.ts';
import {
  adminCreateBadge,
  adminDeleteBadge,
  adminUpdateBadge,
  type AdminBadgeStatsResponse,
  type AdminListBadgesResponse,
  type AdminRecentUserBadgesResponse,
} from '../../../../web/src/api/generated/admin.ts';
import { BADGE_DEFAULTS, REQUIREMENT_TYPES, iconProblem, type RequirementType } from '../../../badges/shared/badge-rules.ts';
import { failToast, focusFirstError, okToast, refreshAdmin } from '../lib.ts';

type Badge = AdminListBadgesResponse[number];
interface BadgeForm {
  name: string;
  description: string;
  icon: string;
  color: string;
  type: RequirementType;
  count: string;
}
const HEX = /^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$/;

function BadgeDialog({ badge, onClose }: { badge: Badge | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [v, setV] = useState<BadgeForm>(() =>
    badge
      ? { name: badge.name, description: badge.description, icon: badge.icon, color: badge.color, type: badge.requirement.type as RequirementType, count: String(badge.requirement.count) }
      : { name: '', description: '', icon: BADGE_DEFAULTS.icon, color: BADGE_DEFAULTS.color, type: BADGE_DEFAULTS.requirement.type, count: String(BADGE_DEFAULTS.requirement.count) },
  );
  const [errors, setErrors] = useState<Partial<Record<keyof BadgeForm, string>>>({});
  const body = () => ({ name: v.name.trim(), description: v.description.trim(), icon: v.icon.trim(), color: v.color, requirement: { type: v.type, count: Number(v.count) } });
  const save = useMutation(() => (badge ? adminUpdateBadge({ params: { id: badge.id }, body: { ...body(), id: badge.id } }) : adminCreateBadge({ body: body() })), { retries: 0 });
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const errs: typeof errors = {};
    if (!v.name.trim()) errs.name = t('badges.errors.name');
    if (!v.description.trim()) errs.description = t('badges.errors.description');
    const iconErr = iconProblem(v.icon);
    if (iconErr) errs.icon = iconErr === 'Icon is required' ? t('badges.errors.icon') : t('badges.errors.iconLength');
    if (!HEX.test(v.color)) errs.color = t('badges.errors.color');
    const n = Number(v.count);
    if (!Number.isInteger(n) || n < 1) errs.count = t('badges.errors.count');
    setErrors(errs);
    if (Object.keys(errs).length) return focusFirstError(`${id}-form`);
    try {
      await save.trigger();
      okToast(t('toast.success'), badge ? t('badges.updated') : t('badges.created'));
      await refreshAdmin('/api/admin/badges', '/api/admin/user-badges', '/api/admin/actions');
      onClose();
    } catch (err) {
      failToast(err, badge ? t('badges.updateFailed') : t('badges.createFailed'));
    }
  };
  const field = (k: keyof BadgeForm, input: React.ReactNode) => (
    <div className="field">
      <label className="label" htmlFor={`${id}-${k}`}>
        {t(`badges.fields.${k}`)}
      </label>
      <div className="control">{input}</div>
      {errors[k] && <p className="help is-danger">{errors[k]}</p>}
    </div>
  );
  const text = (k: 'name' | 'description' | 'icon', extra: Record<string, unknown> = {}) => (
    <input id={`${id}-${k}`} className={`input${errors[k] ? ' is-danger' : ''}`} value={v[k]} aria-invalid={Boolean(errors[k])} onChange={(e) => setV({ ...v, [k]: e.target.value })} {...extra} />
  );
  return (
    <Modal
      open
      onClose={onClose}
      title={badge ? t('badges.editTitle') : t('badges.createTitle')}
      footer={
        <div className="buttons is-right">
          <button type="button" className="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" form={`${id}-form`} className={`button is-primary${save.isPending ? ' is-loading' : ''}`} disabled={save.isPending}>
            {badge ? t('badges.save') : t('badges.create')}
          </button>
        </div>
      }
    >
      <form id={`${id}-form`} onSubmit={submit} noValidate>
        {field('name', text('name', { maxLength: 100 }))}
        {field('description', text('description', { maxLength: 500 }))}
        <div className="columns is-mobile">
          <div className="column">
            {field(
              'icon',
              <div className="admin-badge-icon-field">
                <span className="admin-badge-icon" style={{ backgroundColor: HEX.test(v.color) ? v.color : '#3B82F6', color: inkOn(HEX.test(v.color) ? v.color : '#3B82F6') }} aria-hidden="true">
                  <EmojiIcon emoji={v.icon} size={20} />
                </span>
                {text('icon', { maxLength: 16, className: `input admin-badge-icon-input${errors.icon ? ' is-danger' : ''}` })}
              </div>,
            )}
          </div>
          <div className="column">{field('color', <input id={`${id}-color`} className="input" type="color" value={HEX.test(v.color) ? v.color : '#3B82F6'} onChange={(e) => setV({ ...v, color: e.target.value })} />)}</div>
        </div>
        {/* the shipped SVG symbols: picking one stores its emoji (the API's icon field), drawn as the symbol everywhere */}
        <div className="field">
          <p className="label" id={`${id}-symbols`}>
            {t('badges.symbols.label')}
          </p>
          <div className="admin-badge-symbols" role="group" aria-labelledby={`${id}-symbols`}>
            {Object.entries(SYMBOL_EMOJI).map(([name, emoji]) => {
              const picked = symbolOfEmoji(v.icon) === name;
              return (
                <button
                  key={name}
                  type="button"
                  className={`button is-small admin-badge-symbol${picked ? ' is-selected' : ''}`}
                  aria-pressed={picked}
                  aria-label={t(`badges.symbols.${name}`)}
                  title={t(`badges.symbols.${name}`)}
                  data-symbol={name}
                  onClick={() => setV({ ...v, icon: emoji })}
                >
                  <EmojiIcon emoji={emoji} size={18} />
                </button>
              );
            })}
          </div>
        </div>
        <div className="columns is-mobile">
          <div className="column">
            {field(
              'type',
              <div className="select is-fullwidth">
                <select id={`${id}-type`} value={v.type} onChange={(e) => setV({ ...v, type: e.target.value as RequirementType })}>
                  {REQUIREMENT_TYPES.map((r) => (
                    <option key={r} value={r}>
                      {t(`badges.types.${r}`)}
                    </option>
                  ))}
                </select>
              </div>,
            )}
          </div>
          <div className="column">{field('count', <input id={`${id}-count`} className={`input${errors.count ? ' is-danger' : ''}`} aria-invalid={Boolean(errors.count)} type="number" min={1} step={1} value={v.count} onChange={(e) => setV({ ...v, count: e.target.value })} />)}</div>
        </div>
      </form>
    </Modal>
  );
}

function ConfirmDelete({ badge, onClose }: { badge: Badge; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const del = useMutation(() => adminDeleteBadge({ params: { id: badge.id } }), { retries: 0 });
  const confirm = async () => {
    try {
      await del.trigger();
      okToast(t('toast.success'), t('badges.deleted'));
      await refreshAdmin('/api/admin/badges', '/api/admin/user-badges', '/api/admin/actions');
      onClose();
    } catch (err) {
      failToast(err, t('badges.deleteFailed'));
    }
  };
  return (
    <Modal
      open
      onClose={onClose}
      size="small"
      title={t('badges.deleteTitle')}
      footer={
        <div className="buttons is-right">
          <button type="button" className="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="button" className={`button is-danger${del.isPending ? ' is-loading' : ''}`} onClick={confirm} disabled={del.isPending}>
            {t('badges.delete')}
          </button>
        </div>
      }
    >
      <p>{t('badges.deleteConfirm', { name: badge.name, count: badge.earnedCount })}</p>
    </Modal>
  );
}

export default function BadgesTab() {
  const { t, i18n } = useTranslation('admin');
  const badges = useApi<AdminListBadgesResponse>('/api/admin/badges');
  const recent = useApi<AdminRecentUserBadgesResponse>('/api/admin/user-badges?limit=10');
  const stats = useApi<AdminBadgeStatsResponse>('/api/admin/badges/stats');
  const [editing, setEditing] = useState<Badge | null | 'new'>(null);
  const [deleting, setDeleting] = useState<Badge | null>(null);
  const pct = (n: number) => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(n);
  return (
    <div className="admin-badges">
      <div className="admin-section-head">
        <h2 className="title is-5">{t('badges.title')}</h2>
        <button type="button" className="button is-primary" onClick={() => setEditing('new')}>
          {t('badges.add')}
        </button>
      </div>
      <div className="columns">
        <div className="column is-two-thirds">
          <section className="box" aria-labelledby="admin-badges-list">
            <h3 id="admin-badges-list" className="title is-6">
              {t('badges.list')}
            </h3>
            {badges.isLoading ? (
              <Spinner center label={t('loading')} />
            ) : badges.error && !badges.data ? (
              <EmptyState tone="error" compact title={t('badges.loadFailed')} />
            ) : !badges.data?.length ? (
              <EmptyState compact icon="award" title={t('badges.none')} />
            ) : (
              <ul className="admin-list">
                {badges.data.map((b) => (
                  <li key={b.id} className="admin-row">
                    <span className="admin-badge-icon" style={{ backgroundColor: b.color, color: inkOn(b.color) }} aria-hidden="true">
                      <EmojiIcon emoji={b.icon} size={20} />
                    </span>
                    <div className="admin-row__main">
                      <p className="admin-row__title">
                        <strong>{b.name}</strong>
                      </p>
                      <p className="admin-row__sub">{b.description}</p>
                      <p className="admin-row__sub">
                        {t('badges.requirement', { count: b.requirement.count, type: t(`badges.types.${b.requirement.type}`) })} · {t('badges.earned', { count: b.earnedCount })}
                      </p>
                    </div>
                    <div className="admin-row__actions buttons are-small">
                      <button type="button" className="button" onClick={() => setEditing(b)}>
                        {t('badges.edit')}
                      </button>
                      <button type="button" className="button is-danger is-outlined" onClick={() => setDeleting(b)}>
                        {t('badges.delete')}
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
        <div className="column">
          <section className="box admin-stat" aria-labelledby="admin-badges-rate">
            <h3 id="admin-badges-rate" className="admin-stat__label">
              {t('badges.completionRate')}
            </h3>
            <p className="admin-stat__value">{stats.data ? `${pct(stats.data.completionRate)}%` : '…'}</p>
            {stats.data && <p className="is-size-7 has-text-grey">{t('badges.rateDetail', { earned: stats.data.earnedCount, badges: stats.data.badgeCount })}</p>}
          </section>
          <section className="box" aria-labelledby="admin-badges-recent">
            <h3 id="admin-badges-recent" className="title is-6">
              {t('badges.recent')}
            </h3>
            {recent.isLoading ? (
              <Spinner size="small" />
            ) : !recent.data?.length ? (
              <p className="has-text-grey">{t('badges.noRecent')}</p>
            ) : (
              <ul className="admin-mini-list">
                {recent.data.slice(0, 10).map((ub) => (
                  <li key={ub.id}>
                    <EmojiIcon emoji={ub.badge.icon} size={16} /> <strong>{ub.userName}</strong> {t('badges.earnedBadge', { name: ub.badge.name })} ·{' '}
                    <span className="has-text-grey is-size-7">
                      <RelativeTime date={ub.earnedAt} />
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>
      {editing && <BadgeDialog badge={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && <ConfirmDelete badge={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}
