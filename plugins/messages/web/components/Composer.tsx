import { useRef, useState } from 'react';
import { Icon, toastApiError, uploadWithProgress, useTranslation, ApiError } from '../../../../web/src/index.ts';
import { MAX_IMAGES, MAX_TEXT } from '../shared.ts';

interface Upload {
  id: number;
  url: string;
  thumbnailUrl: string | null;
}

/**
 * Writing a message: Enter sends, Shift+Enter starts a new line; up to 4 images (uploaded at once,
 * sent with the message). `onSend` throws to keep the draft.
 */
export function Composer({ onSend, disabled = false, autoFocus = false }: { onSend: (body: { text?: string; imageIds?: number[] }) => Promise<unknown>; disabled?: boolean; autoFocus?: boolean }) {
  const { t } = useTranslation('messages');
  const [text, setText] = useState('');
  const [images, setImages] = useState<Upload[]>([]);
  const [uploading, setUploading] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);

  const canSend = !disabled && !sending && !uploading && (text.trim().length > 0 || images.length > 0) && text.length <= MAX_TEXT;

  const send = async () => {
    if (!canSend) return;
    setSending(true);
    setError(null);
    try {
      await onSend({ ...(text.trim() ? { text } : {}), ...(images.length ? { imageIds: images.map((i) => i.id) } : {}) });
      setText('');
      setImages([]);
      area.current?.focus();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('composer.failed'));
    } finally {
      setSending(false);
    }
  };

  const pick = async (files: FileList | null) => {
    if (!files?.length) return;
    const room = MAX_IMAGES - images.length;
    if (files.length > room) {
      setError(t('composer.tooManyImages', { count: MAX_IMAGES }));
      return;
    }
    const form = new FormData();
    for (const f of Array.from(files)) form.append('files', f);
    setUploading(true);
    setError(null);
    try {
      const added = await uploadWithProgress<Upload[]>('/api/messages/images', form);
      setImages((prev) => [...prev, ...added]);
    } catch (e) {
      if (e instanceof ApiError) setError(e.message);
      else toastApiError(e);
    } finally {
      setUploading(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  return (
    <form
      className="msg-composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {images.length > 0 && (
        <ul className="msg-composer__images" aria-label={t('composer.attached')}>
          {images.map((img) => (
            <li key={img.id}>
              <img src={img.thumbnailUrl ?? img.url} alt="" width={56} height={56} />
              <button type="button" className="delete is-small" aria-label={t('composer.removeImage')} onClick={() => setImages((p) => p.filter((x) => x.id !== img.id))} />
            </li>
          ))}
        </ul>
      )}
      <div className="msg-composer__row">
        <button
          type="button"
          className="button is-white msg-composer__attach"
          aria-label={t('composer.addImages')}
          title={t('composer.addImages')}
          disabled={disabled || uploading || images.length >= MAX_IMAGES}
          onClick={() => fileRef.current?.click()}
        >
          <Icon name="image" size={20} />
        </button>
        <input ref={fileRef} type="file" accept="image/png,image/jpeg,image/gif,image/webp" multiple hidden onChange={(e) => void pick(e.target.files)} />
        <label className="is-sr-only" htmlFor="msg-composer-text">
          {t('composer.label')}
        </label>
        <textarea
          id="msg-composer-text"
          ref={area}
          className="textarea msg-composer__text"
          rows={1}
          maxLength={MAX_TEXT}
          value={text}
          disabled={disabled}
          autoFocus={autoFocus}
          placeholder={t('composer.placeholder')}
          aria-describedby="msg-composer-hint"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
        />
        <button type="submit" className={`button is-primary msg-composer__send${sending ? ' is-loading' : ''}`} disabled={!canSend} aria-label={t('composer.send')} title={t('composer.send')}>
          <Icon name="share" size={18} />
        </button>
      </div>
      <p id="msg-composer-hint" className="msg-composer__hint">
        {uploading ? t('composer.uploading') : t('composer.hint')}
        {text.length > MAX_TEXT - 200 && <span className="ml-2">{t('composer.left', { count: MAX_TEXT - text.length })}</span>}
      </p>
      {error && (
        <p className="help is-danger" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
