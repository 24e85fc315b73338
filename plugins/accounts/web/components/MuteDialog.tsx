import { useId, useState, type FormEvent } from 'react';
import { Modal, toast, useTranslation, withRetry } from '../../../../web/src/index.ts';
import { muteUser } from '../../../../web/src/api/generated/accounts.ts';

const DURATIONS = [
  { id: 'forever', ms: null },
  { id: 'hour', ms: 3600_000 },
  { id: 'day', ms: 24 * 3600_000 },
  { id: 'week', ms: 7 * 24 * 3600_000 },
] as const;

/** Mute a member: for how long (the mute ends by itself) and whether their notifications are hidden too. */
export function MuteDialog({ userId, name, onClose, onDone }: { userId: number; name: string; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('accounts');
  const [duration, setDuration] = useState<(typeof DURATIONS)[number]['id']>('forever');
  const [notifications, setNotifications] = useState(true);
  const [busy, setBusy] = useState(false);
  const legend = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const ms = DURATIONS.find((d) => d.id === duration)!.ms;
      await withRetry(() => muteUser({ params: { id: userId }, body: { notifications, expiresAt: ms ? new Date(Date.now() + ms).toISOString() : null } }), { retries: 0 });
      toast({ title: t('safety.done.mute', { name }), variant: 'success' });
      onDone();
      onClose();
    } catch (err) {
      toast({ title: t('safety.failed'), description: (err as Error).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open onClose={onClose} title={t('safety.muteTitle', { name })} size="small">
      <form onSubmit={submit}>
        <p className="has-text-grey mb-3">{t('safety.muteText')}</p>
        <fieldset className="field" aria-labelledby={legend}>
          <legend id={legend} className="label">
            {t('safety.muteFor')}
          </legend>
          {DURATIONS.map((d) => (
            <label key={d.id} className="radio is-block mb-1">
              <input type="radio" name="mute-duration" value={d.id} checked={duration === d.id} onChange={() => setDuration(d.id)} /> {t(`safety.durations.${d.id}`)}
            </label>
          ))}
        </fieldset>
        <label className="checkbox mb-4 is-block">
          <input type="checkbox" checked={notifications} onChange={(e) => setNotifications(e.target.checked)} /> {t('safety.muteNotifications')}
        </label>
        <div className="buttons is-right">
          <button type="button" className="button is-light" onClick={onClose}>
            {t('settings.cancel')}
          </button>
          <button type="submit" className={`button is-primary${busy ? ' is-loading' : ''}`} disabled={busy}>
            {t('safety.mute')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
