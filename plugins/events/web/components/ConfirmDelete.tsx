import { useState } from 'react';
import { ApiError, Modal, toast, useTranslation } from '../../../../web/src/index.ts';
import { deleteMeetup, deleteMuseumEvent } from '../../../../web/src/api/generated/events.ts';
import type { EventItem } from '../lib.ts';

/** Delete Meetup (or museum event) after confirmation. */
export function ConfirmDelete({ event: e, open, onClose, onDeleted }: { event: EventItem; open: boolean; onClose: () => void; onDeleted: () => void }) {
  const { t } = useTranslation('events');
  const [busy, setBusy] = useState(false);
  const meetup = e.kind === 'meetup';
  const confirm = async () => {
    setBusy(true);
    try {
      if (meetup) await deleteMeetup({ params: { id: e.id } });
      else await deleteMuseumEvent({ params: { id: e.id } });
      toast({ title: meetup ? t('toast.deleted') : t('toast.eventDeleted'), variant: 'success' });
      onClose();
      onDeleted();
    } catch (err) {
      toast({ title: meetup ? t('toast.deleteFailed') : t('toast.eventDeleteFailed'), description: err instanceof ApiError ? err.message : undefined, variant: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      onClose={busy ? () => undefined : onClose}
      title={meetup ? t('delete.confirmTitle') : t('delete.confirmEventTitle')}
      size="small"
      footer={
        <div className="buttons ev-dialog-buttons">
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            {t('form.cancel')}
          </button>
          <button type="button" className="button is-danger" onClick={confirm} disabled={busy} aria-busy={busy}>
            {busy ? t('delete.deleting') : t('delete.confirm')}
          </button>
        </div>
      }
    >
      <p>{t('delete.confirmText', { title: e.title })}</p>
    </Modal>
  );
}
