import { useEffect, useMemo, useState } from 'react';
import { ApiError, Icon, Modal, Spinner, toast, useApi, useTranslation } from '../../../../web/src/index.ts';
import { createCommunityMeetup, createGroupMeetup, updateMeetup, type MeetupBody } from '../../../../web/src/api/generated/events.ts';
import { viewerTimeZone } from '../../shared/time.ts';
import { TIME_CHOICES, timeLabel, timeZones, type EventItem } from '../lib.ts';
import { CheckboxField, SelectField, TextArea, TextField } from './fields.tsx';
import { HoursWarningNote, useHoursWarningText } from './HoursWarningNote.tsx';
import { checkMeetupHoursUrl, type CheckMeetupHoursResponse } from '../../../../web/src/api/generated/events.ts';

export interface MeetupHost {
  kind: 'community' | 'group';
  id: number;
  name: string;
}

interface MuseumPick {
  id: number;
  name: string;
  city?: string | null;
  timezone?: string | null;
}

interface Props {
  open: boolean;
  onClose: () => void;
  /** edit this meetup; otherwise create one */
  meetup?: EventItem | null;
  /** create in this community or group; otherwise the member picks one of /api/meetup-hosts */
  host?: MeetupHost | null;
  onSaved: (meetup: EventItem) => void;
}

type State = {
  hostKey: string;
  title: string;
  description: string;
  museum: MuseumPick | null;
  location: string;
  connectToMuseumEvent: boolean;
  museumEventId: string;
  date: string;
  startTime: string;
  endTime: string;
  timeZone: string;
  expectedGroupSize: string;
  rsvpRequired: boolean;
  cost: 'free' | 'donation' | 'paid';
  costAmount: string;
  ageRestrictions: string;
  museumContact: string;
  collaborationStatus: 'discussion' | 'confirmed' | 'museum_host';
  canMuseumPromote: boolean;
  tags: string;
  allowPhotoSharing: boolean;
  whoCanJoin: 'members_only' | 'anyone';
  allowComments: boolean;
  enableWaitlist: boolean;
  accessibilityNotes: string;
  rainPlan: string;
  maxAttendees: string;
};

const GROUP_SIZES = ['2-5', '6-10', '11-20', '21-50', '50+'];

/** The spec's defaults: cost free, collaborationStatus discussion, whoCanJoin members_only, photo sharing and comments on. */
function initial(m: EventItem | null | undefined, host: MeetupHost | null | undefined): State {
  return {
    hostKey: host ? `${host.kind}:${host.id}` : '',
    title: m?.title ?? '',
    description: m?.description ?? '',
    museum: m?.museum ? { id: m.museum.id, name: m.museum.name, city: m.museum.city } : null,
    location: m?.location ?? '',
    connectToMuseumEvent: m?.connectToMuseumEvent ?? false,
    museumEventId: m?.museumEventId ? String(m.museumEventId) : '',
    date: m?.date ?? '',
    startTime: m?.startTime ?? '',
    endTime: m?.endTime ?? '',
    timeZone: m?.timeZone ?? viewerTimeZone(),
    expectedGroupSize: m?.expectedGroupSize ?? '',
    rsvpRequired: m?.rsvpRequired ?? false,
    cost: m?.cost ?? 'free',
    costAmount: m?.costAmount != null ? String(m.costAmount) : '',
    ageRestrictions: m?.ageRestrictions ?? '',
    museumContact: m?.museumContact ?? '',
    collaborationStatus: m?.collaborationStatus ?? 'discussion',
    canMuseumPromote: m?.canMuseumPromote ?? false,
    tags: (m?.tags ?? []).join(', '),
    allowPhotoSharing: m?.allowPhotoSharing ?? true,
    whoCanJoin: m?.whoCanJoin ?? 'members_only',
    allowComments: m?.allowComments ?? true,
    enableWaitlist: m?.enableWaitlist ?? false,
    accessibilityNotes: m?.accessibilityNotes ?? '',
    rainPlan: m?.rainPlan ?? '',
    maxAttendees: m?.maxAttendees != null ? String(m.maxAttendees) : '',
  };
}

const blank = (s: string) => s.trim() === '';

/** Create Meetup / Edit Meetup with every field of the spec, its defaults and its validation. */
export function MeetupFormDialog({ open, onClose, meetup, host, onSaved }: Props) {
  const { t, i18n } = useTranslation('events');
  const editing = !!meetup;
  const [s, setS] = useState<State>(() => initial(meetup, host));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [museumQuery, setMuseumQuery] = useState('');

  useEffect(() => {
    if (open) {
      setS(initial(meetup, host));
      setErrors({});
      setMuseumQuery('');
    }
  }, [open, meetup, host]);

  const set = <K extends keyof State>(k: K, v: State[K]) => {
    setS((cur) => ({ ...cur, [k]: v }));
    setErrors((cur) => {
      if (!cur[k as string]) return cur;
      const { [k as string]: _, ...rest } = cur;
      return rest;
    });
  };

  const needHosts = open && !editing && !host;
  const hosts = useApi<MeetupHost[]>(needHosts ? '/api/meetup-hosts' : null);
  useEffect(() => {
    if (hosts.data?.length === 1 && !s.hostKey) set('hostKey', `${hosts.data[0].kind}:${hosts.data[0].id}`);
  }, [hosts.data]); // eslint-disable-line react-hooks/exhaustive-deps

  const museumResults = useApi<MuseumPick[]>(open && museumQuery.trim().length > 2 ? `/api/search/museums?q=${encodeURIComponent(museumQuery.trim())}&limit=6` : null);
  const museumEvents = useApi<EventItem[]>(open && s.museum && s.connectToMuseumEvent ? `/api/museum-events?museumId=${s.museum.id}&limit=100` : null);
  const zones = useMemo(() => timeZones(), []);
  // Checked live against the museum's hours while the organiser picks the date and times (issue 20):
  // a warning, never a refusal.
  const hoursUrl =
    open && s.museum && /^\d{4}-\d{2}-\d{2}$/.test(s.date) && s.startTime && (!s.endTime || s.endTime > s.startTime)
      ? checkMeetupHoursUrl({ museumId: s.museum.id, date: s.date, startTime: s.startTime, ...(s.endTime ? { endTime: s.endTime } : {}), timeZone: s.timeZone })
      : null;
  const hoursCheck = useApi<CheckMeetupHoursResponse>(hoursUrl);
  const hoursWarning = hoursUrl ? hoursCheck.data?.hoursWarning ?? null : null;
  const warningText = useHoursWarningText();

  const validate = (): Record<string, string> => {
    const e: Record<string, string> = {};
    if (!editing && !host && !s.hostKey) e.host = t('form.hostRequired');
    if (blank(s.title)) e.title = t('form.titleRequired');
    if (blank(s.description)) e.description = t('form.descriptionRequired');
    if (blank(s.location)) e.location = t('form.locationRequired');
    if (blank(s.date)) e.date = t('form.dateRequired');
    if (blank(s.startTime)) e.startTime = t('form.startTimeRequired');
    if (s.endTime && s.startTime && s.endTime <= s.startTime) e.endTime = t('form.endAfterStart');
    if (s.cost === 'paid') {
      if (blank(s.costAmount)) e.costAmount = t('form.costAmountRequired');
      else if (!/^\d{1,7}(\.\d{1,2})?$/.test(s.costAmount.trim()) || Number(s.costAmount) <= 0) e.costAmount = t('form.costAmountInvalid');
    }
    if (!blank(s.maxAttendees) && (!/^\d+$/.test(s.maxAttendees.trim()) || Number(s.maxAttendees) < 1)) e.maxAttendees = t('form.maxAttendeesInvalid');
    return e;
  };

  const body = (): MeetupBody => ({
    title: s.title.trim(),
    description: s.description.trim(),
    museumId: s.museum?.id ?? null,
    location: s.location.trim(),
    connectToMuseumEvent: s.connectToMuseumEvent && !!s.museum,
    museumEventId: s.connectToMuseumEvent && s.museumEventId ? Number(s.museumEventId) : null,
    date: s.date,
    startTime: s.startTime,
    endTime: s.endTime || null,
    timeZone: s.timeZone,
    expectedGroupSize: s.expectedGroupSize || null,
    rsvpRequired: s.rsvpRequired,
    cost: s.cost,
    // costAmount only when the meetup is paid
    ...(s.cost === 'paid' ? { costAmount: s.costAmount.trim() } : {}),
    ageRestrictions: s.ageRestrictions.trim() || null,
    museumContact: s.museumContact.trim() || null,
    collaborationStatus: s.collaborationStatus,
    canMuseumPromote: s.canMuseumPromote,
    // entered as one text; the server splits it on commas
    tags: s.tags,
    allowPhotoSharing: s.allowPhotoSharing,
    whoCanJoin: s.whoCanJoin,
    allowComments: s.allowComments,
    enableWaitlist: s.enableWaitlist,
    accessibilityNotes: s.accessibilityNotes.trim() || null,
    rainPlan: s.rainPlan.trim() || null,
    maxAttendees: blank(s.maxAttendees) ? null : Number(s.maxAttendees),
  });

  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    const e = validate();
    setErrors(e);
    if (Object.keys(e).length) {
      const first = document.querySelector<HTMLElement>('.ev-meetup-form [aria-invalid="true"]');
      first?.focus();
      return;
    }
    setSaving(true);
    try {
      let saved: EventItem;
      if (editing) saved = (await updateMeetup({ params: { id: meetup!.id }, body: body() })) as EventItem;
      else {
        const [kind, id] = (host ? `${host.kind}:${host.id}` : s.hostKey).split(':');
        saved = (kind === 'group'
          ? await createGroupMeetup({ params: { id: Number(id) }, body: { ...body(), groupId: Number(id) } })
          : await createCommunityMeetup({ params: { id: Number(id) }, body: { ...body(), communityId: Number(id) } })) as EventItem;
      }
      const w = saved.hoursWarning;
      if (w) toast({ title: t('toast.savedOutsideHours'), description: warningText(w).title, variant: 'warning' });
      else toast({ title: editing ? t('toast.updated') : t('toast.created'), variant: 'success' });
      onSaved(saved);
      onClose();
    } catch (err) {
      const api = err instanceof ApiError ? err : null;
      const fieldErrors: Record<string, string> = {};
      for (const fe of api?.errors ?? []) {
        const field = fe.path.split('/').pop();
        if (field) fieldErrors[field === 'museumId' ? 'museum' : field] = fe.message;
      }
      setErrors(fieldErrors);
      toast({ title: editing ? t('toast.updateFailed') : t('toast.createFailed'), description: api?.message, variant: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const timeOptions = (emptyLabel: string) => [{ value: '', label: emptyLabel }, ...TIME_CHOICES.map((v) => ({ value: v, label: timeLabel(v, i18n.language) }))];

  return (
    <Modal
      open={open}
      onClose={saving ? () => undefined : onClose}
      title={editing ? t('form.editTitle') : t('form.createTitle')}
      size="large"
      closeOnBackdrop={false}
      footer={
        <div className="buttons ev-dialog-buttons">
          <button type="button" className="button" onClick={onClose} disabled={saving}>
            {t('form.cancel')}
          </button>
          <button type="submit" form="ev-meetup-form" className="button is-primary" disabled={saving} aria-busy={saving}>
            {saving ? t('form.saving') : editing ? t('form.save') : t('form.create')}
          </button>
        </div>
      }
    >
      <form id="ev-meetup-form" className="ev-meetup-form" onSubmit={submit} noValidate>
        {!editing && !host && (
          <>
            {hosts.isLoading && <Spinner size="small" />}
            {hosts.data && hosts.data.length === 0 && <p className="notification is-warning is-light">{t('form.noHosts')}</p>}
            {hosts.data && hosts.data.length > 0 && (
              <SelectField
                name="host"
                label={t('form.host')}
                required
                value={s.hostKey}
                error={errors.host}
                onChange={(v) => set('hostKey', v)}
                options={[
                  { value: '', label: '—' },
                  ...hosts.data.map((h) => ({ value: `${h.kind}:${h.id}`, label: h.kind === 'group' ? t('form.hostGroup', { name: h.name }) : t('form.hostCommunity', { name: h.name }) })),
                ]}
              />
            )}
          </>
        )}

        <fieldset className="ev-fieldset">
          <legend className="ev-legend">{t('form.sectionBasics')}</legend>
          <TextField name="title" label={t('form.title')} required maxLength={200} value={s.title} error={errors.title} onChange={(v) => set('title', v)} />
          <TextArea name="description" label={t('form.description')} required maxLength={5000} rows={4} value={s.description} error={errors.description} onChange={(v) => set('description', v)} />
          <TextField name="tags" label={t('form.tags')} help={t('form.tagsHelp')} value={s.tags} error={errors.tags} onChange={(v) => set('tags', v)} />
        </fieldset>

        <fieldset className="ev-fieldset">
          <legend className="ev-legend">{t('form.sectionWhen')}</legend>
          <div className="columns is-multiline is-variable is-2">
            <div className="column is-4">
              <TextField name="date" type="date" label={t('form.date')} required value={s.date} error={errors.date} onChange={(v) => set('date', v)} />
            </div>
            <div className="column is-4">
              <SelectField name="startTime" label={t('form.startTime')} required value={s.startTime} error={errors.startTime} onChange={(v) => set('startTime', v)} options={timeOptions('—')} />
            </div>
            <div className="column is-4">
              <SelectField name="endTime" label={t('form.endTime')} value={s.endTime} error={errors.endTime} onChange={(v) => set('endTime', v)} options={timeOptions(t('form.endTimeNone'))} />
            </div>
          </div>
          <SelectField name="timeZone" label={t('form.timeZone')} value={s.timeZone} error={errors.timeZone} onChange={(v) => set('timeZone', v)} options={(zones.includes(s.timeZone) ? zones : [s.timeZone, ...zones]).map((z) => ({ value: z, label: z.replace(/_/g, ' ') }))} />
          <TextField name="location" label={t('form.location')} required maxLength={300} value={s.location} error={errors.location} onChange={(v) => set('location', v)} />
          <div aria-live="polite">{hoursWarning && <HoursWarningNote warning={hoursWarning} organiser />}</div>
        </fieldset>

        <fieldset className="ev-fieldset">
          <legend className="ev-legend">{t('form.sectionMuseum')}</legend>
          <div className="field">
            <span className="label" id="ev-museum-label">
              {t('form.museum')}
            </span>
            {s.museum ? (
              <div className="ev-museum-picked">
                <span className="tag is-medium is-light">
                  <Icon name="museum" size={14} /> {s.museum.name}
                  {s.museum.city ? `, ${s.museum.city}` : ''}
                </span>
                <button
                  type="button"
                  className="button is-small is-text"
                  onClick={() => {
                    set('museum', null);
                    set('connectToMuseumEvent', false);
                    set('museumEventId', '');
                  }}
                >
                  {t('form.museumClear')}
                </button>
              </div>
            ) : (
              <div className="ev-museum-search">
                <input
                  className="input"
                  type="search"
                  aria-labelledby="ev-museum-label"
                  placeholder={t('form.museumSearch')}
                  value={museumQuery}
                  onChange={(e) => setMuseumQuery(e.target.value)}
                />
                {museumResults.data && museumResults.data.length > 0 && (
                  <ul className="ev-museum-results" role="listbox" aria-labelledby="ev-museum-label">
                    {museumResults.data.map((m) => (
                      <li key={m.id}>
                        <button
                          type="button"
                          className="button is-small is-white is-fullwidth ev-museum-option"
                          onClick={() => {
                            set('museum', m);
                            if (m.timezone) set('timeZone', m.timezone);
                            if (blank(s.location)) set('location', [m.name, m.city].filter(Boolean).join(', '));
                            setMuseumQuery('');
                          }}
                        >
                          {m.name}
                          {m.city ? `, ${m.city}` : ''}
                        </button>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
            {errors.museum && <p className="help is-danger">{errors.museum}</p>}
          </div>
          {s.museum && (
            <>
              <CheckboxField name="connectToMuseumEvent" label={t('form.connectToMuseumEvent')} checked={s.connectToMuseumEvent} onChange={(v) => set('connectToMuseumEvent', v)} />
              {s.connectToMuseumEvent &&
                (museumEvents.data && museumEvents.data.length === 0 ? (
                  <p className="help">{t('form.museumEventEmpty')}</p>
                ) : (
                  <SelectField
                    name="museumEventId"
                    label={t('form.museumEvent')}
                    value={s.museumEventId}
                    error={errors.museumEventId}
                    onChange={(v) => set('museumEventId', v)}
                    options={[{ value: '', label: t('form.museumEventNone') }, ...(museumEvents.data ?? []).map((e) => ({ value: String(e.id), label: `${e.title} (${e.date})` }))]}
                  />
                ))}
            </>
          )}
          <div className="columns is-variable is-2">
            <div className="column">
              <SelectField
                name="collaborationStatus"
                label={t('form.collaborationStatus')}
                value={s.collaborationStatus}
                onChange={(v) => set('collaborationStatus', v as State['collaborationStatus'])}
                options={[
                  { value: 'discussion', label: t('form.collabDiscussion') },
                  { value: 'confirmed', label: t('form.collabConfirmed') },
                  { value: 'museum_host', label: t('form.collabMuseumHost') },
                ]}
              />
            </div>
            <div className="column">
              <TextField name="museumContact" label={t('form.museumContact')} maxLength={300} value={s.museumContact} onChange={(v) => set('museumContact', v)} />
            </div>
          </div>
          <CheckboxField name="canMuseumPromote" label={t('form.canMuseumPromote')} checked={s.canMuseumPromote} onChange={(v) => set('canMuseumPromote', v)} />
        </fieldset>

        <fieldset className="ev-fieldset">
          <legend className="ev-legend">{t('form.sectionCost')}</legend>
          <div className="columns is-variable is-2">
            <div className="column">
              <SelectField
                name="cost"
                label={t('form.cost')}
                value={s.cost}
                onChange={(v) => set('cost', v as State['cost'])}
                options={[
                  { value: 'free', label: t('form.costFree') },
                  { value: 'donation', label: t('form.costDonation') },
                  { value: 'paid', label: t('form.costPaid') },
                ]}
              />
            </div>
            {s.cost === 'paid' && (
              <div className="column">
                <TextField name="costAmount" label={t('form.costAmount')} required inputMode="decimal" value={s.costAmount} error={errors.costAmount} onChange={(v) => set('costAmount', v)} />
              </div>
            )}
          </div>
          <div className="columns is-variable is-2">
            <div className="column">
              <TextField name="maxAttendees" label={t('form.maxAttendees')} help={t('form.maxAttendeesHelp')} type="number" min="1" step="1" inputMode="numeric" value={s.maxAttendees} error={errors.maxAttendees} onChange={(v) => set('maxAttendees', v)} />
            </div>
            <div className="column">
              <SelectField
                name="expectedGroupSize"
                label={t('form.expectedGroupSize')}
                value={s.expectedGroupSize}
                onChange={(v) => set('expectedGroupSize', v)}
                options={[{ value: '', label: t('form.expectedGroupSizeNone') }, ...[...new Set([...GROUP_SIZES, ...(s.expectedGroupSize ? [s.expectedGroupSize] : [])])].map((g) => ({ value: g, label: g }))]}
              />
            </div>
            <div className="column">
              <TextField name="ageRestrictions" label={t('form.ageRestrictions')} maxLength={200} value={s.ageRestrictions} onChange={(v) => set('ageRestrictions', v)} />
            </div>
          </div>
        </fieldset>

        <fieldset className="ev-fieldset">
          <legend className="ev-legend">{t('form.sectionSettings')}</legend>
          <SelectField
            name="whoCanJoin"
            label={t('form.whoCanJoin')}
            value={s.whoCanJoin}
            onChange={(v) => set('whoCanJoin', v as State['whoCanJoin'])}
            options={[
              { value: 'members_only', label: t('form.membersOnly') },
              { value: 'anyone', label: t('form.anyone') },
            ]}
          />
          <div className="ev-checks">
            <CheckboxField name="rsvpRequired" label={t('form.rsvpRequired')} checked={s.rsvpRequired} onChange={(v) => set('rsvpRequired', v)} />
            <CheckboxField name="enableWaitlist" label={t('form.enableWaitlist')} checked={s.enableWaitlist} onChange={(v) => set('enableWaitlist', v)} />
            <CheckboxField name="allowPhotoSharing" label={t('form.allowPhotoSharing')} checked={s.allowPhotoSharing} onChange={(v) => set('allowPhotoSharing', v)} />
            <CheckboxField name="allowComments" label={t('form.allowComments')} checked={s.allowComments} onChange={(v) => set('allowComments', v)} />
          </div>
          <TextArea name="accessibilityNotes" label={t('form.accessibilityNotes')} maxLength={2000} rows={2} value={s.accessibilityNotes} onChange={(v) => set('accessibilityNotes', v)} />
          <TextArea name="rainPlan" label={t('form.rainPlan')} maxLength={2000} rows={2} value={s.rainPlan} onChange={(v) => set('rainPlan', v)} />
        </fieldset>
      </form>
    </Modal>
  );
}
