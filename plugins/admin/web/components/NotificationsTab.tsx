import { useId, useState } from 'react';
import { Modal, useMutation, useTranslation } from '../../../../web/src/index.ts';
import { adminSendNotification } from '../../../../web/src/api/generated/admin.ts';
import { failToast, okToast, refreshAdmin } from '../lib.ts';

const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;

/** "12, 7, abc, 9" → [12, 7, 9] (non-numeric entries dropped, spec part 2 §5). */
export function parseIds(text: string): number[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => /^\d+$/.test(s))
    .map(Number)
    .filter((n) => n > 0);
}

export default function NotificationsTab() {
  const { t } = useTranslation('admin');
  const id = useId();
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [priority, setPriority] = useState<(typeof PRIORITIES)[number]>('normal');
  const [audience, setAudience] = useState<'all' | 'specific'>('all');
  const [ids, setIds] = useState('');
  const body = () => ({ title: title.trim(), message: message.trim(), priority, ...(audience === 'specific' ? { targetUserIds: parseIds(ids) } : {}) });
  const send = useMutation(() => adminSendNotification({ body: body() }), { retries: 0 });
  // The confirmation step: the server counts who would receive it (nothing is sent), the admin confirms.
  const preview = useMutation(() => adminSendNotification({ body: { ...body(), preview: true } }), { retries: 0 });
  const [confirm, setConfirm] = useState<{ count: number; listed: number | null } | null>(null);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!title.trim() || !message.trim()) {
      failToast(null, t('notifications.fillAll'));
      return;
    }
    if (audience === 'specific' && !parseIds(ids).length) {
      failToast(null, t('notifications.noIds'));
      return;
    }
    try {
      const r = await preview.trigger();
      setConfirm({ count: r.count, listed: audience === 'specific' ? parseIds(ids).length : null });
    } catch (err) {
      failToast(err, t('notifications.previewFailed'));
    }
  };
  const confirmed = async () => {
    setConfirm(null);
    try {
      const r = await send.trigger();
      okToast(t('notifications.sent'), t('notifications.sentCount', { count: r.count }));
      setTitle('');
      setMessage('');
      setIds('');
      setPriority('normal');
      await refreshAdmin('/api/admin/actions');
    } catch (err) {
      failToast(err, t('notifications.failed'));
    }
  };
  return (
    <section className="box admin-notify" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="title is-5">
        {t('notifications.title')}
      </h2>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label className="label" htmlFor={`${id}-t`}>
            {t('notifications.fields.title')} <span aria-hidden="true">*</span>
          </label>
          <input id={`${id}-t`} className="input" value={title} maxLength={200} required onChange={(e) => setTitle(e.target.value)} />
        </div>
        <div className="field">
          <label className="label" htmlFor={`${id}-m`}>
            {t('notifications.fields.message')} <span aria-hidden="true">*</span>
          </label>
          <textarea id={`${id}-m`} className="textarea" rows={4} value={message} maxLength={2000} required onChange={(e) => setMessage(e.target.value)} />
        </div>
        <div className="columns">
          <div className="column">
            <div className="field">
              <label className="label" htmlFor={`${id}-p`}>
                {t('notifications.fields.priority')}
              </label>
              <div className="select is-fullwidth">
                <select id={`${id}-p`} value={priority} onChange={(e) => setPriority(e.target.value as typeof priority)}>
                  {PRIORITIES.map((p) => (
                    <option key={p} value={p}>
                      {t(`notifications.priorities.${p}`)}
                    </option>
                  ))}
                </select>
              </div>
            </div>
          </div>
          <div className="column">
            <fieldset className="field">
              <legend className="label">{t('notifications.fields.audience')}</legend>
              <div className="control">
                <label className="radio mr-4">
                  <input type="radio" name={`${id}-aud`} checked={audience === 'all'} onChange={() => setAudience('all')} /> {t('notifications.audience.all')}
                </label>
                <label className="radio">
                  <input type="radio" name={`${id}-aud`} checked={audience === 'specific'} onChange={() => setAudience('specific')} /> {t('notifications.audience.specific')}
                </label>
              </div>
            </fieldset>
          </div>
        </div>
        {audience === 'specific' && (
          <div className="field">
            <label className="label" htmlFor={`${id}-ids`}>
              {t('notifications.fields.userIds')}
            </label>
            <input id={`${id}-ids`} className="input" value={ids} onChange={(e) => setIds(e.target.value)} placeholder="12, 7, 31" inputMode="numeric" />
            <p className="help">{t('notifications.idsHelp')}</p>
          </div>
        )}
        <button type="submit" className={`button is-primary${send.isPending || preview.isPending ? ' is-loading' : ''}`} disabled={send.isPending || preview.isPending}>
          {t('notifications.send')}
        </button>
      </form>
      <Modal
        open={confirm !== null}
        onClose={() => setConfirm(null)}
        title={t('notifications.confirmTitle')}
        size="small"
        footer={
          <div className="buttons is-right">
            <button type="button" className="button" onClick={() => setConfirm(null)}>
              {t('cancel')}
            </button>
            <button type="button" className="button is-primary" data-testid="confirm-send" disabled={!confirm?.count} onClick={confirmed}>
              {t('notifications.confirmSend', { count: confirm?.count ?? 0 })}
            </button>
          </div>
        }
      >
        <p data-testid="recipient-count">
          {!confirm?.count
            ? t('notifications.confirmNone')
            : confirm.listed === null
              ? t('notifications.confirmAll', { count: confirm.count, title: title.trim() })
              : t('notifications.confirmSome', { count: confirm.count, listed: confirm.listed, title: title.trim() })}
        </p>
      </Modal>
    </section>
  );
}
