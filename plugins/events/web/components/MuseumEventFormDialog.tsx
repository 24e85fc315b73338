import { useEffect, useMemo, useState } from 'react';
import { ApiError, Modal, toast, useApi, useTranslation } from '../../../../web/src/index.ts';
import { checkMeetupHoursUrl, createMuseumEvent, updateMuseumEvent, type CheckMeetupHoursResponse, type MuseumEventBody } from '../../../../web/src/api/generated/events.ts';
import { TIME_CHOICES, timeLabel, timeZones, type EventItem } from '../lib.ts';
import { CheckboxField, SelectField, TextArea, TextField } from './fields.tsx';
import { HoursWarningNote, useHoursWarningText } from './HoursWarningNote.tsx';

interface Props {
  open: boolean;
  onClose: () => void;
  museum: { id: number; name: string; timezone?: string | null };
  event?: EventItem | null;
  onSaved: (e: EventItem) => void;
}

const blank = (s: string) => s.trim() === '';

function initial(e: EventItem | null | undefined, zone: string) {
  return {
    title: e?.title ?? '',
    description: e?.description ?? '',
    location: e?.location ?? '',
    date: e?.date ?? '',
    startTime: e?.startTime ?? '',
    endTime: e?.endTime ?? '',
    timeZone: e?.timeZone ?? zone,
    maxAttendees: e?.maxAttendees != null ? String(e.maxAttendees) : '',
    enableWaitlist: e?.enableWaitlist ?? false,
    tags: (e?.tags ?? []).join(', '),
    category: e?.category ?? '',
    price: e && e.price ? String(e.price) : '',
    requirements: e?.requirements ?? '',
    ticketUrl: e?.ticketUrl ?? '',
    imageUrl: e?.imageUrl && e.imageUrl !== e.museum?.featuredImage ? e.imageUrl : '',
    allowPhotoSharing: e?.allowPhotoSharing ?? true,
    allowComments: e?.allowComments ?? true,
  };
}

/** Add / edit a museum event (the museum's manager or an Admin). */
export function MuseumEventFormDialog({ open, onClose, museum, event, onSaved }: Props) {
  const { t, i18n } = useTranslation('events');
  const zone = museum.timezone || 'UTC';
  const [s, setS] = useState(() => initial(event, zone));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const zones = useMemo(() => timeZones(), []);
  useEffect(() => {
    if (open) {
      setS(initial(event, zone));
      setErrors({});
    }
  }, [open, event, zone]);
  const set = <K extends keyof typeof s>(k: K, v: (typeof s)[K]) => setS((c) => ({ ...c, [k]: v }));
  // Checked live against the museum's opening hours as the manager picks the date and times, the
  // same rule and check as a meetup's (issue 20): a warning, never a refusal.
  const hoursUrl =
    open && /^\d{4}-\d{2}-\d{2}$/.test(s.date) && s.startTime && (!s.endTime || s.endTime > s.startTime)
      ? checkMeetupHoursUrl({ museumId: museum.id, date: s.date, startTime: s.startTime, ...(s.endTime ? { endTime: s.endTime } : {}), timeZone: s.timeZone })
      : null;
  const hoursCheck = useApi<CheckMeetupHoursResponse>(hoursUrl);
  const hoursWarning = hoursUrl ? hoursCheck.data?.hoursWarning ?? null : null;
  const warningText = useHoursWarningText();

  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    const e: Record<string, string> = {};
    if (blank(s.title)) e.title = t('form.titleRequired');
    if (blank(s.description)) e.description = t('form.descriptionRequired');
    if (blank(s.date)) e.date = t('form.dateRequired');
    if (blank(s.startTime)) e.startTime = t('form.startTimeRequired');
    if (s.endTime && s.startTime && s.endTime <= s.startTime) e.endTime = t('form.endAfterStart');
    if (!blank(s.price) && !/^\d{1,7}(\.\d{1,2})?$/.test(s.price.trim())) e.price = t('eventForm.priceInvalid');
    if (!blank(s.maxAttendees) && (!/^\d+$/.test(s.maxAttendees.trim()) || Number(s.maxAttendees) < 1)) e.maxAttendees = t('form.maxAttendeesInvalid');
    if (!blank(s.ticketUrl) && !/^https?:\/\/\S+$/.test(s.ticketUrl.trim())) e.ticketUrl = t('eventForm.invalidUrl');
    if (!blank(s.imageUrl) && !/^(https?:\/\/|\/uploads\/)\S+$/.test(s.imageUrl.trim())) e.imageUrl = t('eventForm.invalidUrl');
    setErrors(e);
    if (Object.keys(e).length) return;
    const body: MuseumEventBody = {
      museumId: museum.id,
      title: s.title.trim(),
      description: s.description.trim(),
      location: s.location.trim() || null,
      date: s.date,
      startTime: s.startTime,
      endTime: s.endTime || null,
      timeZone: s.timeZone,
      maxAttendees: blank(s.maxAttendees) ? null : Number(s.maxAttendees),
      enableWaitlist: s.enableWaitlist,
      tags: s.tags,
      category: s.category.trim() || null,
      price: blank(s.price) ? 0 : s.price.trim(),
      requirements: s.requirements.trim() || null,
      ticketUrl: s.ticketUrl.trim() || null,
      imageUrl: s.imageUrl.trim() || null,
      allowPhotoSharing: s.allowPhotoSharing,
      allowComments: s.allowComments,
    };
    setSaving(true);
    try {
      const saved = (event ? await updateMuseumEvent({ params: { id: event.id }, body }) : await createMuseumEvent({ body })) as EventItem;
      const w = saved.hoursWarning;
      if (w) toast({ title: t('toast.eventSavedOutsideHours'), description: warningText(w).title, variant: 'warning' });
      else toast({ title: event ? t('toast.eventUpdated') : t('toast.eventCreated'), variant: 'success' });
      onSaved(saved);
      onClose();
    } catch (err) {
      const api = err instanceof ApiError ? err : null;
      const fe: Record<string, string> = {};
      for (const x of api?.errors ?? []) fe[x.path.split('/').pop() ?? ''] = x.message;
      setErrors(fe);
      toast({ title: t('toast.eventSaveFailed'), description: api?.message, variant: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const times = (empty: string) => [{ value: '', label: empty }, ...TIME_CHOICES.map((v) => ({ value: v, label: timeLabel(v, i18n.language) }))];
  return (
    <Modal
      open={open}
      onClose={saving ? () => undefined : onClose}
      title={event ? t('eventForm.editTitle') : t('eventForm.createTitle')}
      size="large"
      closeOnBackdrop={false}
      footer={
        <div className="buttons ev-dialog-buttons">
          <button type="button" className="button" onClick={onClose} disabled={saving}>
            {t('form.cancel')}
          </button>
          <button type="submit" form="ev-museum-event-form" className="button is-primary" disabled={saving}>
            {saving ? t('form.saving') : event ? t('form.save') : t('eventForm.create')}
          </button>
        </div>
      }
    >
      <form id="ev-museum-event-form" onSubmit={submit} noValidate>
        <p className="has-text-grey mb-3">{museum.name}</p>
        <TextField name="title" label={t('form.title')} required maxLength={200} value={s.title} error={errors.title} onChange={(v) => set('title', v)} />
        <TextArea name="description" label={t('form.description')} required rows={4} maxLength={5000} value={s.description} error={errors.description} onChange={(v) => set('description', v)} />
        <div className="columns is-variable is-2">
          <div className="column is-4">
            <TextField name="date" type="date" label={t('form.date')} required value={s.date} error={errors.date} onChange={(v) => set('date', v)} />
          </div>
          <div className="column is-4">
            <SelectField name="startTime" label={t('form.startTime')} required value={s.startTime} error={errors.startTime} onChange={(v) => set('startTime', v)} options={times('—')} />
          </div>
          <div className="column is-4">
            <SelectField name="endTime" label={t('form.endTime')} value={s.endTime} error={errors.endTime} onChange={(v) => set('endTime', v)} options={times(t('form.endTimeNone'))} />
          </div>
        </div>
        <SelectField name="timeZone" label={t('form.timeZone')} value={s.timeZone} onChange={(v) => set('timeZone', v)} options={(zones.includes(s.timeZone) ? zones : [s.timeZone, ...zones]).map((z) => ({ value: z, label: z.replace(/_/g, ' ') }))} />
        <div aria-live="polite">{hoursWarning && <HoursWarningNote warning={hoursWarning} organiser kind="museum_event" />}</div>
        <TextField name="location" label={t('eventForm.location')} help={t('eventForm.locationHelp')} maxLength={300} value={s.location} onChange={(v) => set('location', v)} />
        <div className="columns is-variable is-2">
          <div className="column">
            <TextField name="price" label={t('eventForm.price')} help={t('eventForm.priceHelp')} inputMode="decimal" value={s.price} error={errors.price} onChange={(v) => set('price', v)} />
          </div>
          <div className="column">
            <TextField name="maxAttendees" label={t('form.maxAttendees')} help={t('form.maxAttendeesHelp')} type="number" min="1" step="1" value={s.maxAttendees} error={errors.maxAttendees} onChange={(v) => set('maxAttendees', v)} />
          </div>
          <div className="column">
            <TextField name="category" label={t('eventForm.category')} maxLength={100} value={s.category} onChange={(v) => set('category', v)} />
          </div>
        </div>
        <TextField name="tags" label={t('form.tags')} help={t('form.tagsHelp')} value={s.tags} error={errors.tags} onChange={(v) => set('tags', v)} />
        <TextArea name="requirements" label={t('eventForm.requirements')} rows={2} maxLength={2000} value={s.requirements} onChange={(v) => set('requirements', v)} />
        <TextField name="ticketUrl" type="url" label={t('eventForm.ticketUrl')} value={s.ticketUrl} error={errors.ticketUrl} onChange={(v) => set('ticketUrl', v)} />
        <TextField name="imageUrl" type="url" label={t('eventForm.imageUrl')} value={s.imageUrl} error={errors.imageUrl} onChange={(v) => set('imageUrl', v)} />
        <div className="ev-checks">
          <CheckboxField name="enableWaitlist" label={t('form.enableWaitlist')} checked={s.enableWaitlist} onChange={(v) => set('enableWaitlist', v)} />
          <CheckboxField name="allowPhotoSharing" label={t('form.allowPhotoSharing')} checked={s.allowPhotoSharing} onChange={(v) => set('allowPhotoSharing', v)} />
          <CheckboxField name="allowComments" label={t('form.allowComments')} checked={s.allowComments} onChange={(v) => set('allowComments', v)} />
        </div>
      </form>
    </Modal>
  );
}
