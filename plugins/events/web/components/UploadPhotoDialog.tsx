import { useEffect, useId, useRef, useState } from 'react';
import { ApiError, Modal, toast, uploadWithProgress, useTranslation } from '../../../../web/src/index.ts';
import { uploadMeetupPhotosUrl, uploadMuseumEventPhotosUrl } from '../../../../web/src/api/generated/events.ts';
import { isAcceptedPhoto, type EventItem, type Photo } from '../lib.ts';

interface Props {
  open: boolean;
  event: Pick<EventItem, 'id' | 'kind'>;
  onClose: () => void;
  onUploaded: (photos: Photo[]) => void;
}

/**
 * Upload Photo: one or more images (image types, at most 10 MB each; others are left out with a
 * note) and an optional caption, with progress. Opens empty; closes and clears after success.
 */
export function UploadPhotoDialog({ open, event, onClose, onUploaded }: Props) {
  const { t } = useTranslation('events');
  const [files, setFiles] = useState<File[]>([]);
  const [skipped, setSkipped] = useState(0);
  const [caption, setCaption] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const ids = { files: useId(), caption: useId(), hint: useId(), error: useId() };

  const clear = () => {
    setFiles([]);
    setSkipped(0);
    setCaption('');
    setProgress(null);
    setError(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  // Selected files are cleared each time the dialog opens.
  useEffect(() => {
    if (open) clear();
  }, [open]);

  const pick = (list: FileList | null) => {
    const all = [...(list ?? [])];
    const kept = all.filter(isAcceptedPhoto);
    setFiles(kept);
    setSkipped(all.length - kept.length);
    setError(null);
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!files.length) {
      setError(t('upload.noFiles'));
      return;
    }
    const form = new FormData();
    if (caption.trim()) form.append('caption', caption.trim());
    for (const f of files) form.append('files', f, f.name);
    const url = event.kind === 'meetup' ? uploadMeetupPhotosUrl({ meetupId: event.id }) : uploadMuseumEventPhotosUrl({ id: event.id });
    setProgress(0);
    setError(null);
    try {
      const photos = await uploadWithProgress<Photo[]>(url, form, (p) => setProgress(p));
      toast({ title: t('upload.success'), variant: 'success', duration: 2500 });
      clear();
      onUploaded(photos);
      onClose();
    } catch (err) {
      const message = err instanceof ApiError && err.message ? err.message : t('upload.failedDefault');
      setProgress(null);
      setError(message);
      toast({ title: t('upload.failed'), description: message, variant: 'error' });
    }
  };

  const uploading = progress !== null;
  return (
    <Modal
      open={open}
      onClose={uploading ? () => undefined : onClose}
      title={t('upload.title')}
      size="small"
      footer={
        <div className="buttons ev-dialog-buttons">
          <button type="button" className="button" onClick={onClose} disabled={uploading}>
            {t('form.cancel')}
          </button>
          <button type="submit" form="ev-upload-form" className="button is-primary" disabled={uploading}>
            {uploading ? t('upload.uploading', { percent: progress }) : t('upload.submit')}
          </button>
        </div>
      }
    >
      <form id="ev-upload-form" onSubmit={submit} noValidate>
        <div className="field">
          <label className="label" htmlFor={ids.files}>
            {t('upload.choose')}
          </label>
          <div className="control">
            <input
              ref={inputRef}
              id={ids.files}
              className="input ev-file-input"
              type="file"
              name="files"
              accept="image/png,image/jpeg,image/gif,image/webp"
              multiple
              aria-describedby={`${ids.hint}${error ? ` ${ids.error}` : ''}`}
              aria-invalid={!!error}
              onChange={(e) => pick(e.target.files)}
              disabled={uploading}
            />
          </div>
          <p className="help" id={ids.hint}>
            {t('upload.hint')}
          </p>
          {files.length > 0 && (
            <p className="help has-text-grey-dark" data-testid="upload-count">
              {t('upload.chosen', { count: files.length })}
            </p>
          )}
          {skipped > 0 && <p className="help is-warning">{t('upload.skipped', { count: skipped })}</p>}
        </div>
        <div className="field">
          <label className="label" htmlFor={ids.caption}>
            {t('upload.caption')}
          </label>
          <div className="control">
            <input id={ids.caption} className="input" type="text" maxLength={500} value={caption} onChange={(e) => setCaption(e.target.value)} disabled={uploading} />
          </div>
        </div>
        {uploading && (
          <progress className="progress is-primary is-small" value={progress ?? 0} max={100} aria-label={t('upload.uploading', { percent: progress })}>
            {progress}%
          </progress>
        )}
        {error && (
          <p className="help is-danger" id={ids.error} role="alert">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}
