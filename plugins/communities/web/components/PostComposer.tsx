import { useState, type FormEvent } from 'react';
import { Icon, useMutation, useTranslation } from '../../../../web/src/index.ts';
import { createCommunityPost, type CreateCommunityPostBody } from '../../../../web/src/api/generated/communities.ts';
import { failToast, okToast, POST_TYPES, type Post, type PostType } from '../lib.ts';
import { MentionInput } from '../../../accounts/web/components/MentionInput.tsx';

const MAX_OPTIONS = 10;

interface Draft {
  content: string;
  title: string;
  pollOptions: string[];
  eventTitle: string;
  eventDateTime: string;
  eventLocation: string;
  eventDescription: string;
  videoUrl: string;
  linkUrl: string;
}

/** Polls start with 2 empty options (spec part 2 §9). */
const EMPTY: Draft = { content: '', title: '', pollOptions: ['', ''], eventTitle: '', eventDateTime: '', eventLocation: '', eventDescription: '', videoUrl: '', linkUrl: '' };

/** The composer for each post type. Blank content cannot be submitted; blank poll options are dropped. */
export function PostComposer({ communityId, onPosted }: { communityId: number; onPosted: (p: Post) => void }) {
  const { t } = useTranslation('communities');
  const [type, setType] = useState<PostType>('text');
  const [d, setD] = useState<Draft>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const send = useMutation((body: CreateCommunityPostBody) => createCommunityPost({ params: { id: communityId }, body }), { retries: 0 });
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => {
    setD((x) => ({ ...x, [k]: v }));
    setError(null);
  };

  const options = d.pollOptions.map((o) => o.trim()).filter(Boolean);
  const blank = !d.content.trim();
  const incomplete =
    blank ||
    (type === 'poll' && options.length < 2) ||
    (type === 'event' && (!d.eventTitle.trim() || !d.eventDateTime)) ||
    (type === 'video' && !d.videoUrl.trim()) ||
    (type === 'link' && !d.linkUrl.trim());

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (blank) return setError(t('composer.contentRequired'));
    if (type === 'poll' && options.length < 2) return setError(t('composer.pollMinOptions'));
    const body: CreateCommunityPostBody = { type, content: d.content.trim() };
    if (type === 'discussion' && d.title.trim()) body.title = d.title.trim();
    if (type === 'poll') body.pollOptions = options as CreateCommunityPostBody['pollOptions'];
    if (type === 'event') {
      const when = new Date(d.eventDateTime);
      if (Number.isNaN(when.getTime())) return setError(t('composer.eventDateRequired'));
      Object.assign(body, { eventTitle: d.eventTitle.trim(), eventDateTime: when.toISOString(), eventLocation: d.eventLocation.trim() || null, eventDescription: d.eventDescription.trim() || null });
    }
    if (type === 'video') body.videoUrl = d.videoUrl.trim();
    if (type === 'link') body.linkUrl = d.linkUrl.trim();
    try {
      const post = await send.trigger(body);
      if (post.status === 'pending') okToast(t('toasts.postPending'), t('toasts.postPendingText'));
      else okToast(t('toasts.postCreated'));
      setD(EMPTY);
      onPosted(post);
    } catch (err) {
      failToast(t('toasts.postFailed'), err);
    }
  }

  return (
    <form className="box cm-composer" onSubmit={submit} aria-label={t('composer.label')} data-testid="post-composer">
      <div className="buttons has-addons cm-composer__types" role="radiogroup" aria-label={t('composer.type')}>
        {POST_TYPES.map((pt) => (
          <button
            key={pt}
            type="button"
            role="radio"
            aria-checked={type === pt}
            className={`button is-small${type === pt ? ' is-primary is-selected' : ''}`}
            onClick={() => {
              setType(pt);
              setError(null);
            }}
          >
            {t(`postTypes.${pt}`)}
          </button>
        ))}
      </div>

      {type === 'discussion' && (
        <div className="field">
          <label className="label is-small" htmlFor="cm-post-title">
            {t('composer.title')}
          </label>
          <input id="cm-post-title" className="input" maxLength={200} value={d.title} onChange={(e) => set('title', e.target.value)} />
        </div>
      )}
      {type === 'event' && (
        <div className="columns is-multiline">
          <div className="column is-6 field">
            <label className="label is-small" htmlFor="cm-ev-title">
              {t('composer.eventTitle')} <span aria-hidden="true">*</span>
            </label>
            <input id="cm-ev-title" className="input" maxLength={200} required value={d.eventTitle} onChange={(e) => set('eventTitle', e.target.value)} />
          </div>
          <div className="column is-6 field">
            <label className="label is-small" htmlFor="cm-ev-date">
              {t('composer.eventDateTime')} <span aria-hidden="true">*</span>
            </label>
            <input id="cm-ev-date" className="input" type="datetime-local" required value={d.eventDateTime} onChange={(e) => set('eventDateTime', e.target.value)} />
          </div>
          <div className="column is-12 field">
            <label className="label is-small" htmlFor="cm-ev-location">
              {t('composer.eventLocation')}
            </label>
            <input id="cm-ev-location" className="input" maxLength={200} value={d.eventLocation} onChange={(e) => set('eventLocation', e.target.value)} />
          </div>
          <div className="column is-12 field">
            <label className="label is-small" htmlFor="cm-ev-description">
              {t('composer.eventDescription')}
            </label>
            <textarea id="cm-ev-description" className="textarea" rows={2} maxLength={5000} value={d.eventDescription} onChange={(e) => set('eventDescription', e.target.value)} />
          </div>
        </div>
      )}

      <div className="field">
        <label className="label is-small" htmlFor="cm-post-content">
          {type === 'poll' ? t('composer.question') : t('composer.content')}
        </label>
        <MentionInput
          multiline
          id="cm-post-content"
          className={`textarea${error && blank ? ' is-danger' : ''}`}
          rows={3}
          maxLength={10000}
          value={d.content}
          placeholder={t(`composer.placeholder.${type}`)}
          onChange={(v) => set('content', v)}
        />
      </div>

      {type === 'poll' && (
        <fieldset className="field">
          <legend className="label is-small">{t('composer.options')}</legend>
          {d.pollOptions.map((o, i) => (
            <div className="field has-addons" key={i}>
              <div className="control is-expanded">
                <label className="is-sr-only" htmlFor={`cm-opt-${i}`}>
                  {t('composer.option', { n: i + 1 })}
                </label>
                <input
                  id={`cm-opt-${i}`}
                  className="input"
                  maxLength={200}
                  value={o}
                  placeholder={t('composer.option', { n: i + 1 })}
                  onChange={(e) => set('pollOptions', d.pollOptions.map((x, j) => (j === i ? e.target.value : x)))}
                />
              </div>
              {d.pollOptions.length > 2 && (
                <div className="control">
                  <button type="button" className="button" aria-label={t('composer.removeOption', { n: i + 1 })} onClick={() => set('pollOptions', d.pollOptions.filter((_, j) => j !== i))}>
                    <Icon name="x" size={14} />
                  </button>
                </div>
              )}
            </div>
          ))}
          {d.pollOptions.length < MAX_OPTIONS && (
            <button type="button" className="button is-small is-light" onClick={() => set('pollOptions', [...d.pollOptions, ''])}>
              <Icon name="plus" size={14} />
              <span>{t('composer.addOption')}</span>
            </button>
          )}
        </fieldset>
      )}
      {type === 'video' && (
        <div className="field">
          <label className="label is-small" htmlFor="cm-video-url">
            {t('composer.videoUrl')} <span aria-hidden="true">*</span>
          </label>
          <input id="cm-video-url" className="input" type="url" placeholder="https://" value={d.videoUrl} onChange={(e) => set('videoUrl', e.target.value)} />
        </div>
      )}
      {type === 'link' && (
        <div className="field">
          <label className="label is-small" htmlFor="cm-link-url">
            {t('composer.linkUrl')} <span aria-hidden="true">*</span>
          </label>
          <input id="cm-link-url" className="input" type="url" placeholder="https://" value={d.linkUrl} onChange={(e) => set('linkUrl', e.target.value)} />
        </div>
      )}

      {error && (
        <p className="help is-danger" role="alert">
          {error}
        </p>
      )}
      <div className="cm-composer__submit">
        <button type="submit" className={`button is-primary${send.isPending ? ' is-loading' : ''}`} disabled={incomplete || send.isPending}>
          {t('composer.submit')}
        </button>
      </div>
    </form>
  );
}
