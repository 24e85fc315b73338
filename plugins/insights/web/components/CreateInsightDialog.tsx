import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import {
  useTranslation,
  useAuth,
  useApi,
  Modal,
  Tabs,
  TabPanel,
  Icon,
  Spinner,
  toast,
  uploadWithProgress,
  ApiError,
  confirmDialog,
  usePluginConfig,
} from '../../../../web/src/index.ts';
import { createPost, uploadInsightVideoUrl, type InsightVideoUpload, type CreateInsightBody } from '../../../../web/src/api/generated/insights.ts';
import { searchMuseumsUrl, suggestMuseum, type Museum } from '../../../../web/src/api/generated/museums.ts';
import { announcePosted } from './events.ts';
import './insights.css';
import { MentionInput } from '../../../accounts/web/components/MentionInput.tsx';
import { PhotoComposer, type PhotoItem } from './PhotoComposer.tsx';

export const MAX_VIDEO_BYTES = 100 * 1024 * 1024;
export const MAX_SECONDS = 60;

type Tab = 'video' | 'text' | 'photo';
interface TaggedMuseum {
  id: number;
  name: string;
  city?: string | null;
  country?: string | null;
  pending?: boolean;
}

interface VideoState {
  /** local preview (object URL) */
  previewUrl: string;
  source: 'recording' | 'upload';
  progress: number;
  status: 'uploading' | 'processing' | 'ready' | 'failed';
  uploaded?: InsightVideoUpload;
}

function pickMimeType(): string | undefined {
  if (typeof MediaRecorder === 'undefined') return undefined;
  for (const m of ['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4']) {
    if (MediaRecorder.isTypeSupported?.(m)) return m;
  }
  return undefined;
}

/** Reads a local file's duration (seconds) through a video element; null when the browser can't tell. */
function localDuration(url: string): Promise<number | null> {
  return new Promise((resolve) => {
    const v = document.createElement('video');
    v.preload = 'metadata';
    const done = (d: number | null) => {
      v.removeAttribute('src');
      v.load();
      resolve(d);
    };
    v.onloadedmetadata = () => done(Number.isFinite(v.duration) ? v.duration : null);
    v.onerror = () => done(null);
    setTimeout(() => done(null), 5000);
    v.src = url;
  });
}

export function parseTags(s: string): string[] {
  return [...new Set(s.split(',').map((t) => t.trim()).filter(Boolean))];
}

/** The 'Suggest New Museum' form (part 1 §2, §5): name, city, country and address required. */
function SuggestMuseumForm({ initialName, onDone, onCancel }: { initialName: string; onDone: (m: TaggedMuseum) => void; onCancel: () => void }) {
  const { t } = useTranslation('insights');
  const { user } = useAuth();
  const empty = { name: initialName, description: '', address: '', city: '', country: '', website: '', phone: '' };
  const [f, setF] = useState(empty);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF((x) => ({ ...x, [k]: e.target.value }));
  // Not a <form>: it sits inside the dialog's form (nested forms are invalid HTML and would share the insight).
  const submit = async () => {
    if (pending) return;
    if (!f.name.trim() || !f.city.trim() || !f.country.trim() || !f.address.trim()) {
      setError(t('suggest.required'));
      return;
    }
    setPending(true);
    setError(null);
    try {
      const r = await suggestMuseum({
        body: {
          name: f.name.trim(),
          description: f.description.trim() || null,
          address: f.address.trim(),
          city: f.city.trim(),
          country: f.country.trim(),
          website: f.website.trim() || null,
          phone: f.phone.trim() || null,
          userId: user?.id ?? null,
        },
      });
      toast({ title: t('suggest.doneTitle'), description: t('suggest.done'), variant: 'success' });
      setF({ ...empty, name: '' });
      onDone({ id: -r.id, name: r.name, city: r.city, country: r.country, pending: true });
    } catch (err) {
      const msg = err instanceof ApiError ? err.message : String(err);
      setError(msg);
      toast({ title: t('suggest.failedTitle'), description: msg, variant: 'error' });
    } finally {
      setPending(false);
    }
  };
  const onEnter = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') {
      e.preventDefault();
      void submit();
    }
  };
  const field = (k: keyof typeof f, label: string, required = false, type = 'text') => (
    <div className="field">
      <label className="label is-small" htmlFor={`${id}-${k}`}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <div className="control">
        {k === 'description' ? (
          <textarea id={`${id}-${k}`} className="textarea is-small" rows={2} value={f[k]} onChange={set(k)} maxLength={2000} />
        ) : (
          <input id={`${id}-${k}`} className="input is-small" type={type} value={f[k]} onChange={set(k)} required={required} maxLength={200} />
        )}
      </div>
    </div>
  );
  return (
    <div className="box mt-2" role="group" aria-labelledby={`${id}-title`} onKeyDown={onEnter}>
      <h3 id={`${id}-title`} className="title is-6">
        {t('suggest.title')}
      </h3>
      {field('name', t('suggest.name'), true)}
      {field('description', t('suggest.description'))}
      {field('address', t('suggest.address'), true)}
      <div className="columns is-mobile mb-0">
        <div className="column">{field('city', t('suggest.city'), true)}</div>
        <div className="column">{field('country', t('suggest.country'), true)}</div>
      </div>
      <div className="columns is-mobile mb-0">
        <div className="column">{field('website', t('suggest.website'), false, 'url')}</div>
        <div className="column">{field('phone', t('suggest.phone'), false, 'tel')}</div>
      </div>
      {error && (
        <p className="help is-danger mb-2" role="alert">
          {error}
        </p>
      )}
      <div className="buttons is-right">
        <button type="button" className="button is-small" onClick={onCancel}>
          {t('suggest.cancel')}
        </button>
        <button type="button" className="button is-small is-primary" disabled={pending} onClick={() => void submit()}>
          {pending ? t('suggest.submitting') : t('suggest.submit')}
        </button>
      </div>
    </div>
  );
}

/** Tag Museum: search after more than 2 characters, top 5, clear button, 'Museum not found' with Suggest. */
function MuseumPicker({ value, onChange }: { value: TaggedMuseum | null; onChange: (m: TaggedMuseum | null) => void }) {
  const { t } = useTranslation('insights');
  const [term, setTerm] = useState('');
  const [debounced, setDebounced] = useState('');
  const [suggesting, setSuggesting] = useState(false);
  const id = useId();
  useEffect(() => {
    const h = setTimeout(() => setDebounced(term.trim()), 250);
    return () => clearTimeout(h);
  }, [term]);
  const enabled = debounced.length > 2 && !value;
  const { data, isLoading } = useApi<Museum[]>(enabled ? searchMuseumsUrl({ q: debounced }) : null);
  const results = (Array.isArray(data) ? data : []).slice(0, 5);
  if (value) {
    return (
      <div className="field">
        <span className="label is-small">{t('create.tagMuseum')}</span>
        <div className="tags has-addons">
          <span className="tag is-info is-light is-medium">
            <Icon name="museum" size={14} />
            <span className="ml-1">{value.name}</span>
            {value.pending && <span className="ml-2 is-size-7">({t('create.pendingMuseum')})</span>}
          </span>
          <button type="button" className="tag is-delete is-medium" aria-label={t('create.clearMuseum')} onClick={() => onChange(null)} />
        </div>
      </div>
    );
  }
  return (
    <div className="field">
      <label className="label is-small" htmlFor={`${id}-search`}>
        {t('create.tagMuseum')}
      </label>
      <div className={`control has-icons-left${isLoading ? ' is-loading' : ''}`}>
        <input
          id={`${id}-search`}
          className="input"
          type="search"
          value={term}
          onChange={(e) => {
            setTerm(e.target.value);
            setSuggesting(false);
          }}
          placeholder={t('create.searchMuseum')}
          autoComplete="off"
          aria-controls={`${id}-results`}
        />
        <span className="icon is-left">
          <Icon name="search" size={16} />
        </span>
      </div>
      <div id={`${id}-results`} aria-live="polite">
        {enabled && results.length > 0 && (
          <ul className="insights-museum-results">
            {results.map((m) => (
              <li key={m.id}>
                <button type="button" onClick={() => onChange({ id: m.id, name: m.name, city: m.city, country: m.country })}>
                  <strong>{m.name}</strong>
                  <span className="is-size-7 has-text-grey ml-2">{[m.city, m.country].filter(Boolean).join(', ')}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {enabled && !isLoading && data && results.length === 0 && !suggesting && (
          <div className="notification is-light mt-2 py-3 px-4 is-flex is-align-items-center is-justify-content-space-between" style={{ gap: '1rem' }}>
            <div>
              <p className="has-text-weight-semibold">{t('create.notFoundTitle')}</p>
              <p className="is-size-7">{t('create.notFoundText', { term: debounced })}</p>
            </div>
            <button type="button" className="button is-small is-link" onClick={() => setSuggesting(true)}>
              {t('create.suggest')}
            </button>
          </div>
        )}
      </div>
      {suggesting && (
        <SuggestMuseumForm
          initialName={debounced}
          onCancel={() => setSuggesting(false)}
          onDone={(m) => {
            setSuggesting(false);
            setTerm('');
            onChange(m);
          }}
        />
      )}
    </div>
  );
}

export interface CreateInsightDialogProps {
  open?: boolean;
  onClose: () => void;
  /** preselected museum (e.g. from a museum page) */
  museum?: { id: number; name: string; city?: string | null; country?: string | null } | null;
  /** 'video' or 'text' */
  initialTab?: Tab;
}

/** The Create Insight dialog (part 1 §2, §4, §5, §8), contributed to the shell slot `shell.createDialog`. */
export default function CreateInsightDialog({ onClose, museum: preset = null, initialTab = 'video' }: CreateInsightDialogProps) {
  const { t } = useTranslation('insights');
  // a server without ffmpeg takes no videos: say so up front instead of failing after an upload
  const videoEnabled = usePluginConfig('insights').videoEnabled !== false;
  const [tab, setTab] = useState<Tab>(videoEnabled ? initialTab : 'text');
  const [caption, setCaption] = useState('');
  const [text, setText] = useState('');
  const [tags, setTags] = useState('');
  const [museum, setMuseum] = useState<TaggedMuseum | null>(preset ? { ...preset } : null);
  const [video, setVideo] = useState<VideoState | null>(null);
  const [photos, setPhotos] = useState<PhotoItem[]>([]);
  const [sensitive, setSensitive] = useState(false);
  const [allowFeature, setAllowFeature] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  // camera
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [recording, setRecording] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const liveRef = useRef<HTMLVideoElement>(null);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const chunksRef = useRef<Blob[]>([]);
  const timerRef = useRef<number | null>(null);
  const uploadAbort = useRef<AbortController | null>(null);
  const idp = useId();
  const altReminded = useRef(false);

  const stopCamera = useCallback(() => {
    stream?.getTracks().forEach((tr) => tr.stop());
    setStream(null);
  }, [stream]);

  useEffect(() => {
    if (liveRef.current) liveRef.current.srcObject = stream;
  }, [stream]);

  // leave nothing running when the dialog closes
  useEffect(
    () => () => {
      if (timerRef.current) window.clearInterval(timerRef.current);
      if (recorderRef.current && recorderRef.current.state !== 'inactive') recorderRef.current.stop();
      uploadAbort.current?.abort();
    },
    [],
  );
  useEffect(() => () => stream?.getTracks().forEach((tr) => tr.stop()), [stream]);
  useEffect(() => () => {
    if (video?.previewUrl) URL.revokeObjectURL(video.previewUrl);
  }, [video?.previewUrl]);

  const upload = useCallback(
    async (file: Blob, name: string, source: VideoState['source']) => {
      uploadAbort.current?.abort();
      const ctrl = new AbortController();
      uploadAbort.current = ctrl;
      const previewUrl = URL.createObjectURL(file);
      setVideo({ previewUrl, source, progress: 0, status: 'uploading' });
      setFieldError(null);
      const form = new FormData();
      form.append('video', file, name);
      try {
        const res = await uploadWithProgress<InsightVideoUpload>(
          uploadInsightVideoUrl(),
          form,
          (p) => setVideo((v) => (v && v.previewUrl === previewUrl ? { ...v, progress: p, status: p >= 100 ? 'processing' : 'uploading' } : v)),
          { signal: ctrl.signal },
        );
        setVideo((v) => (v && v.previewUrl === previewUrl ? { ...v, progress: 100, status: 'ready', uploaded: res } : v));
      } catch (e) {
        if (ctrl.signal.aborted) return;
        const err = e as ApiError;
        if (err.status === 413) toast({ title: t('create.tooLargeTitle'), description: t('create.tooLarge'), variant: 'error' });
        else toast({ title: t('create.uploadFailedTitle'), description: err.message, variant: 'error' });
        setVideo((v) => (v && v.previewUrl === previewUrl ? null : v));
      }
    },
    [t],
  );

  const startCamera = async () => {
    try {
      const s = await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 720 } }, audio: true });
      setStream(s);
    } catch {
      toast({ title: t('create.cameraErrorTitle'), description: t('create.cameraError'), variant: 'destructive' });
    }
  };

  const stopRecording = useCallback(() => {
    if (timerRef.current) window.clearInterval(timerRef.current);
    timerRef.current = null;
    const rec = recorderRef.current;
    if (rec && rec.state !== 'inactive') rec.stop();
    setRecording(false);
  }, []);

  const startRecording = () => {
    if (!stream) return;
    const mimeType = pickMimeType();
    let rec: MediaRecorder;
    try {
      rec = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    } catch {
      toast({ title: t('create.cameraErrorTitle'), description: t('create.cameraError'), variant: 'destructive' });
      return;
    }
    chunksRef.current = [];
    rec.ondataavailable = (e) => {
      if (e.data.size) chunksRef.current.push(e.data);
    };
    rec.onstop = () => {
      const type = rec.mimeType || mimeType || 'video/webm';
      const blob = new Blob(chunksRef.current, { type });
      stream.getTracks().forEach((tr) => tr.stop());
      setStream(null);
      if (blob.size) void upload(blob, type.includes('mp4') ? 'recording.mp4' : 'recording.webm', 'recording');
    };
    recorderRef.current = rec;
    rec.start(1000);
    setSeconds(0);
    setRecording(true);
    const started = Date.now();
    timerRef.current = window.setInterval(() => {
      const s = Math.min(MAX_SECONDS, Math.floor((Date.now() - started) / 1000));
      setSeconds(s);
      if (s >= MAX_SECONDS) stopRecording(); // auto-stop at 60 s
    }, 250);
  };

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ''; // the same file can be chosen again
    if (!file) return;
    if (!file.type.startsWith('video/') && !/\.(mp4|webm|mov|m4v|mkv)$/i.test(file.name)) {
      toast({ title: t('create.uploadFailedTitle'), description: t('create.notVideo'), variant: 'error' });
      return;
    }
    if (file.size > MAX_VIDEO_BYTES) {
      toast({ title: t('create.tooLargeTitle'), description: t('create.tooLarge'), variant: 'error' });
      return;
    }
    const probeUrl = URL.createObjectURL(file);
    const d = await localDuration(probeUrl);
    URL.revokeObjectURL(probeUrl);
    if (d != null && d > MAX_SECONDS + 0.5) {
      toast({ title: t('create.tooLongTitle'), description: t('create.tooLong'), variant: 'error' });
      return;
    }
    stopCamera();
    await upload(file, file.name, 'upload');
  };

  const removeVideo = () => {
    uploadAbort.current?.abort();
    setVideo(null);
  };

  const share = async (e?: FormEvent) => {
    e?.preventDefault();
    if (sharing) return;
    const content = (tab === 'text' ? text : caption).trim();
    if (tab === 'photo') {
      const ready = photos.filter((p) => p.status === 'ready' && p.uploaded);
      if (!ready.length) {
        const msg = t('photos.required');
        setFieldError(msg);
        toast({ title: t('create.errorTitle'), description: msg, variant: 'error' });
        return;
      }
      // Alt text reminder: a choice, never a block ("add later" shares as it is)
      const missing = ready.filter((p) => !p.alt.trim()).length;
      if (missing && !altReminded.current) {
        const later = await confirmDialog({
          title: t('photos.altReminderTitle'),
          message: t('photos.altReminder', { count: missing }),
          confirmLabel: t('photos.addLater'),
          cancelLabel: t('photos.addAltNow'),
        });
        if (!later) {
          const i = photos.findIndex((p) => !p.alt.trim());
          document.querySelector<HTMLTextAreaElement>(`[data-alt-for="${i}"]`)?.focus();
          return;
        }
        altReminded.current = true;
      }
    }
    if (tab === 'video' && (!video || video.status !== 'ready' || !video.uploaded)) {
      const msg = t('create.videoRequired');
      setFieldError(msg);
      toast({ title: t('create.errorTitle'), description: msg, variant: 'error' });
      return;
    }
    if (tab === 'text' && !content) {
      const msg = t('create.textRequired');
      setFieldError(msg);
      toast({ title: t('create.errorTitle'), description: msg, variant: 'error' });
      return;
    }
    setSharing(true);
    setFieldError(null);
    try {
      const created = await createPost({
        body: {
          content,
          type: tab,
          videoUrl: tab === 'video' ? video!.uploaded!.videoUrl : null,
          ...(tab === 'photo'
            ? {
                sensitive,
                photos: photos
                  .filter((p) => p.status === 'ready' && p.uploaded)
                  .map((p) => ({ id: p.uploaded!.id, alt: p.alt.trim(), allowFeature: Boolean(museum && museum.id > 0 && allowFeature) })) as CreateInsightBody['photos'],
              }
            : {}),
          museumId: museum ? museum.id : null,
          tags: parseTags(tags),
        },
      });
      toast({ title: t('create.sharedTitle'), description: t('create.shared'), variant: 'success' });
      // The badges plugin's web part celebrates badges announced with this window event (named, not
      // imported: insights does not depend on badges).
      if (created.badges?.length) window.dispatchEvent(new CustomEvent('curio:badges-earned', { detail: created.badges }));
      // refetch the post lists on screen
      announcePosted();
      onClose();
    } catch (err) {
      const msg = err instanceof ApiError && err.status === 400 ? err.message : t('create.createFailed');
      toast({ title: t('create.errorTitle'), description: msg, variant: 'error' });
    } finally {
      setSharing(false);
    }
  };

  const busyUpload = (video && (video.status === 'uploading' || video.status === 'processing')) || (tab === 'photo' && photos.some((p) => p.status === 'uploading'));

  // Escape, the close button, the backdrop or Cancel with a video attached: ask before discarding it.
  const asking = useRef(false);
  const requestClose = async () => {
    if ((video || photos.length) && !asking.current) {
      asking.current = true;
      const discard = await confirmDialog({ title: t('create.discardTitle'), message: t('create.discardText'), confirmLabel: t('create.discard'), cancelLabel: t('create.keepEditing'), destructive: true });
      asking.current = false;
      if (!discard) return;
    } else if (asking.current) return;
    onClose();
  };

  return (
    <Modal
      open
      onClose={() => void requestClose()}
      title={t('create.title')}
      size="medium"
      closeOnBackdrop={!sharing && !recording}
      footer={
        <div className="buttons is-right" style={{ width: '100%' }}>
          <button type="button" className="button" onClick={() => void requestClose()} disabled={sharing}>
            {t('create.cancel')}
          </button>
          <button type="submit" form={`${idp}-form`} className="button is-primary" disabled={sharing || Boolean(busyUpload) || recording}>
            {sharing ? t('create.sharing') : t('create.share')}
          </button>
        </div>
      }
    >
      <form id={`${idp}-form`} onSubmit={share} noValidate>
        {!videoEnabled && (
          <p className="notification is-warning is-light insights-video-unavailable" role="status" data-testid="video-unavailable">
            {t('create.videoUnavailable')}
          </p>
        )}
        <Tabs
          idPrefix={`${idp}-tab`}
          label={t('create.tabs')}
          active={tab}
          onChange={(v) => {
            setTab(v as Tab);
            setFieldError(null);
          }}
          tabs={[
            { id: 'video', label: t('create.video'), icon: <Icon name="video" size={16} />, disabled: !videoEnabled },
            { id: 'photo', label: t('photos.tab'), icon: <Icon name="image" size={16} /> },
            { id: 'text', label: t('create.text'), icon: <Icon name="edit" size={16} /> },
          ]}
        />
        <TabPanel idPrefix={`${idp}-tab`} id="video" active={tab}>
          {video ? (
            <div className="mb-3">
              {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
              <video src={video.previewUrl} controls playsInline className="insights-camera" aria-label={t('create.preview')} />
              <div className="is-flex is-align-items-center mt-2" style={{ gap: '0.75rem' }}>
                <div style={{ flex: 1 }}>
                  {video.status === 'uploading' && (
                    <>
                      <progress className="progress is-small is-primary mb-1" value={video.progress} max={100} aria-label={t('create.uploading', { percent: video.progress })} />
                      <p className="is-size-7">{t('create.uploading', { percent: video.progress })}</p>
                    </>
                  )}
                  {video.status === 'processing' && (
                    <p className="is-size-7">
                      <Spinner size="small" /> {t('create.processing')}
                    </p>
                  )}
                  {video.status === 'ready' && (
                    <p className="is-size-7 has-text-success">
                      <Icon name="check" size={14} /> {t('create.uploaded')}
                    </p>
                  )}
                </div>
                <button type="button" className="button is-small is-danger is-light" onClick={removeVideo}>
                  <Icon name="trash" size={14} />
                  <span className="ml-1">{t('create.remove')}</span>
                </button>
              </div>
              {/* a new recording or file replaces this one */}
              <div className="buttons mt-2">
                <button
                  type="button"
                  className="button is-small is-light"
                  onClick={() => {
                    removeVideo();
                    void startCamera();
                  }}
                >
                  <Icon name="camera" size={14} />
                  <span className="ml-1">{t('create.startCamera')}</span>
                </button>
                <label className="button is-small is-light">
                  <input className="is-sr-only" type="file" accept="video/*" onChange={(e) => void onFile(e)} />
                  <Icon name="upload" size={14} />
                  <span className="ml-1">{t('create.uploadVideo')}</span>
                </label>
              </div>
            </div>
          ) : (
            <div className="mb-3">
              {stream ? (
                <div>
                  <div style={{ position: 'relative' }}>
                    <video ref={liveRef} autoPlay muted playsInline className="insights-camera" aria-label={t('create.cameraPreview')} />
                    {recording && (
                      <span className="tag is-dark" style={{ position: 'absolute', top: 8, left: 8 }} role="status">
                        <span className="insights-rec">
                          <span className="insights-rec-dot" aria-hidden="true" />
                          {t('create.rec')}
                        </span>
                        <span className="ml-2">{t('create.elapsed', { seconds })}</span>
                      </span>
                    )}
                  </div>
                  {recording && <progress className="progress is-small is-danger mt-2 mb-2" value={seconds} max={MAX_SECONDS} aria-label={t('create.elapsed', { seconds })} />}
                  <div className="buttons mt-2">
                    {!recording ? (
                      <>
                        <button type="button" className="button is-danger" onClick={startRecording}>
                          <Icon name="video" size={16} />
                          <span className="ml-1">{t('create.startRecording')}</span>
                        </button>
                        <button type="button" className="button" onClick={stopCamera}>
                          {t('create.stopCamera')}
                        </button>
                      </>
                    ) : (
                      <button type="button" className="button is-dark" onClick={stopRecording}>
                        {t('create.stopRecording')}
                      </button>
                    )}
                  </div>
                </div>
              ) : (
                <div className="columns is-mobile is-vcentered">
                  <div className="column has-text-centered">
                    <button type="button" className="button is-link is-light is-fullwidth" onClick={startCamera}>
                      <Icon name="camera" size={16} />
                      <span className="ml-1">{t('create.startCamera')}</span>
                    </button>
                  </div>
                  <div className="column is-narrow has-text-grey is-size-7">{t('create.or')}</div>
                  <div className="column has-text-centered">
                    <div className="file is-centered is-fullwidth">
                      <label className="file-label" style={{ width: '100%' }}>
                        <input className="file-input" type="file" accept="video/*" onChange={(e) => void onFile(e)} aria-describedby={`${idp}-limits`} />
                        <span className="file-cta" style={{ width: '100%', justifyContent: 'center' }}>
                          <Icon name="upload" size={16} />
                          <span className="file-label ml-1">{t('create.uploadVideo')}</span>
                        </span>
                      </label>
                    </div>
                    <p id={`${idp}-limits`} className="is-size-7 has-text-grey mt-1">
                      {t('create.maxSize')} · {t('create.maxLength')}
                    </p>
                  </div>
                </div>
              )}
            </div>
          )}
          <div className="field">
            <label className="label is-small" htmlFor={`${idp}-caption`}>
              {t('create.caption')}
            </label>
            <MentionInput multiline id={`${idp}-caption`} className="textarea" rows={2} maxLength={2000} value={caption} onChange={setCaption} placeholder={t('create.captionPlaceholder')} />
          </div>
        </TabPanel>
        <TabPanel idPrefix={`${idp}-tab`} id="photo" active={tab}>
          <PhotoComposer
            items={photos}
            onChange={setPhotos}
            sensitive={sensitive}
            onSensitive={setSensitive}
            allowFeature={allowFeature}
            onAllowFeature={setAllowFeature}
            museumTagged={Boolean(museum && museum.id > 0)}
          />
          <div className="field">
            <label className="label is-small" htmlFor={`${idp}-photo-caption`}>
              {t('create.caption')}
            </label>
            <MentionInput multiline id={`${idp}-photo-caption`} className="textarea" rows={2} maxLength={2000} value={caption} onChange={setCaption} placeholder={t('create.captionPlaceholder')} />
          </div>
        </TabPanel>
        <TabPanel idPrefix={`${idp}-tab`} id="text" active={tab}>
          <div className="field">
            <label className="label is-small" htmlFor={`${idp}-text`}>
              {t('create.yourInsight')}
            </label>
            <MentionInput
              multiline
              id={`${idp}-text`}
              className={`textarea${fieldError && tab === 'text' ? ' is-danger' : ''}`}
              rows={5}
              maxLength={2000}
              value={text}
              onChange={setText}
              placeholder={t('create.insightPlaceholder')}
              aria-invalid={Boolean(fieldError && tab === 'text')}
            />
          </div>
        </TabPanel>
        {fieldError && (
          <p className="help is-danger mb-3" role="alert">
            {fieldError}
          </p>
        )}
        <MuseumPicker value={museum} onChange={setMuseum} />
        <div className="field">
          <label className="label is-small" htmlFor={`${idp}-tags`}>
            {t('create.tags')}
          </label>
          <input id={`${idp}-tags`} className="input" value={tags} onChange={(e) => setTags(e.target.value)} placeholder={t('create.tagsPlaceholder')} aria-describedby={`${idp}-tags-help`} maxLength={1000} />
          <p id={`${idp}-tags-help`} className="help">
            {t('create.tagsHelp')}
          </p>
        </div>
      </form>
    </Modal>
  );
}
