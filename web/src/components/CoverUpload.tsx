import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadWithProgress, toastApiError } from '../lib/api.ts';
import { toast } from '../lib/toast.tsx';
import { Icon } from './Icon.tsx';

export interface CoverUploadProps<T> {
  /** the multipart route (field `image`) */
  url: string;
  /** the route's answer (the updated object) */
  onDone: (result: T) => void;
  /** in bytes, checked before sending (the server checks again) */
  maxBytes: number;
  className?: string;
}

/** "Change cover" for creators and organisers: picks one image and uploads it with progress. */
export function CoverUpload<T>({ url, onDone, maxBytes, className }: CoverUploadProps<T>) {
  const { t } = useTranslation('core');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > maxBytes) {
      toast({ title: t('cover.tooLargeTitle'), description: t('cover.tooLarge', { mb: Math.round(maxBytes / 1024 / 1024) }), variant: 'error' });
      return;
    }
    const form = new FormData();
    form.append('image', file, file.name);
    setProgress(0);
    try {
      const r = await uploadWithProgress<T>(url, form, (p) => setProgress(p));
      toast({ title: t('cover.done'), variant: 'success' });
      onDone(r);
    } catch (e) {
      toastApiError(e);
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <span className={`curio-cover-upload ${className ?? ''}`}>
      <input ref={input} id={id} type="file" accept="image/jpeg,image/png,image/webp,image/gif" className="is-sr-only" onChange={(e) => void pick(e.target.files?.[0])} disabled={progress !== null} data-testid="cover-input" />
      <label htmlFor={id} className={`button is-small is-light${progress !== null ? ' is-loading' : ''}`}>
        <Icon name="image" size={14} />
        <span>{progress !== null ? t('cover.uploading', { percent: progress }) : t('cover.change')}</span>
      </label>
    </span>
  );
}
