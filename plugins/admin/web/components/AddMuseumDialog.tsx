import { useId, useState } from 'react';
import { Modal, useMutation, useTranslation } from '../../../../web/src/index.ts';
import { adminCreateMuseum } from '../../../../web/src/api/generated/admin.ts';
import { BusinessHoursEditor, seasonErrors } from '../../../museums/web/components/BusinessHoursEditor.tsx';
import { AmenitiesPicker } from '../../../museums/web/components/AmenitiesPicker.tsx';
import { closedWeek } from '../../../museums/shared/opening-hours.ts';
import type { StructuredHours } from '../../../museums/shared/catalog.ts';
import { EMPTY_MUSEUM, MuseumFields, museumPayload, validateMuseum, type MuseumErrors } from './MuseumForm.tsx';
import { failToast, focusFirstError, okToast, refreshAdmin } from '../lib.ts';

/** Add New Museum (spec part 2 §3 admin create form: museum fields, address2, amenities, opening hours). */
export function AddMuseumDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [values, setValues] = useState(EMPTY_MUSEUM);
  const [errors, setErrors] = useState<MuseumErrors>({});
  const [amenities, setAmenities] = useState<string[]>([]);
  const [hours, setHours] = useState<StructuredHours>(() => ({ defaultHours: closedWeek(), seasonalHours: [] }));
  const [showHourErrors, setShowHourErrors] = useState(false);
  const save = useMutation(() => adminCreateMuseum({ body: { ...(museumPayload(values) as any), amenities, openingHours: hours } }), { retries: 0 });
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const errs = validateMuseum(values, t, true);
    setErrors(errs);
    const hourProblems = Object.keys(seasonErrors(hours)).length > 0;
    setShowHourErrors(hourProblems);
    if (Object.keys(errs).length || hourProblems) return focusFirstError(`${id}-form`);
    try {
      const m = await save.trigger();
      okToast(t('toast.success'), t('museums.created', { name: m.name }));
      await refreshAdmin('/api/admin/museums', '/api/admin/actions', '/api/admin/analytics');
      onClose();
    } catch (err) {
      failToast(err, t('museums.createFailed'));
    }
  };
  return (
    <Modal
      open
      onClose={onClose}
      title={t('museums.addTitle')}
      size="large"
      closeOnBackdrop={false}
      footer={
        <div className="buttons is-right">
          <button type="button" className="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" form={`${id}-form`} className={`button is-primary${save.isPending ? ' is-loading' : ''}`} disabled={save.isPending}>
            {t('museums.create')}
          </button>
        </div>
      }
    >
      <form id={`${id}-form`} onSubmit={submit} noValidate>
        <MuseumFields idPrefix={id} values={values} errors={errors} onChange={setValues} create />
        <div className="mt-4">
          <AmenitiesPicker value={amenities} onChange={setAmenities} />
        </div>
        <div className="mt-4">
          <BusinessHoursEditor value={hours} onChange={setHours} showErrors={showHourErrors} />
        </div>
      </form>
    </Modal>
  );
}
