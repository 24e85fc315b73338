import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { ApiError, Modal, toast, toastApiError, useTranslation } from '../../../../web/src/index.ts';
import { createReport, type CreateReportBody } from '../../../../web/src/api/generated/reports.ts';

export type TargetType = CreateReportBody['targetType'];
type Category = CreateReportBody['category'];
export const CATEGORIES: Category[] = ['spam', 'harassment', 'hate', 'violence', 'sexual', 'misinformation', 'other'];

/** The report dialog: a reason (radio group, each with a line of help) and an optional note. */
export function ReportDialog({ targetType, targetId, onClose }: { targetType: TargetType; targetId: number; onClose: () => void }) {
  const { t } = useTranslation('reports');
  const id = useId();
  const [category, setCategory] = useState<Category | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const kind = t(`targetType.${targetType}`);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!category) {
      setError(t('dialog.chooseCategory'));
      document.getElementById(`${id}-c-spam`)?.focus();
      return;
    }
    setError(null);
    setPending(true);
    try {
      await createReport({ body: { targetType, targetId, category, note: note.trim() || null } });
      toast({ title: t('dialog.sent'), variant: 'success' });
      onClose();
    } catch (err) {
      // Already reported (409) or throttled (429): the server's message says what to do.
      if (err instanceof ApiError && (err.status === 409 || err.status === 429)) {
        toast({ title: err.message, variant: 'warning' });
        if (err.status === 409) onClose();
      } else toastApiError(err);
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      title={t('dialog.title', { kind })}
      footer={
        <div className="buttons is-right">
          <button type="button" className="button" onClick={onClose}>
            {t('dialog.cancel')}
          </button>
          <button type="submit" form={`${id}-form`} className={`button is-danger${pending ? ' is-loading' : ''}`} disabled={pending}>
            {pending ? t('dialog.sending') : t('dialog.submit')}
          </button>
        </div>
      }
    >
      <form id={`${id}-form`} onSubmit={submit} noValidate className="reports-dialog">
        <p className="mb-3">{t('dialog.intro')}</p>
        <fieldset className="field" aria-describedby={error ? `${id}-error` : undefined}>
          <legend className="label">
            {t('dialog.legend')} <span aria-hidden="true">*</span>
          </legend>
          {CATEGORIES.map((c) => (
            <div className="control mb-2" key={c}>
              <label className="radio reports-choice" htmlFor={`${id}-c-${c}`}>
                <input
                  type="radio"
                  id={`${id}-c-${c}`}
                  name={`${id}-category`}
                  value={c}
                  checked={category === c}
                  onChange={() => setCategory(c)}
                  aria-describedby={`${id}-h-${c}`}
                  required
                />{' '}
                <span className="has-text-weight-semibold">{t(`category.${c}`)}</span>
                <span id={`${id}-h-${c}`} className="help mt-0">
                  {t(`categoryHelp.${c}`)}
                </span>
              </label>
            </div>
          ))}
          {error && (
            <p id={`${id}-error`} className="help is-danger" role="alert">
              {error}
            </p>
          )}
        </fieldset>
        <div className="field">
          <label className="label" htmlFor={`${id}-note`}>
            {t('dialog.note')}
          </label>
          <textarea id={`${id}-note`} className="textarea" rows={3} maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} aria-describedby={`${id}-note-help`} />
          <p id={`${id}-note-help`} className="help">
            {t('dialog.noteHelp')}
          </p>
        </div>
        <p className="is-size-7">
          <Link to="/reports/mine" onClick={onClose}>
            {t('mine.link')}
          </Link>
        </p>
      </form>
    </Modal>
  );
}
