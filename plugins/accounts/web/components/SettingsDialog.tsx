import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  AUTH_KEY,
  ApiError,
  Avatar,
  EmptyState,
  Modal,
  Slot,
  Spinner,
  TabPanel,
  Tabs,
  mutate as globalMutate,
  toast,
  uploadWithProgress,
  useApi,
  useAuth,
  useTranslation,
  withRetry,
  type WebUser,
  confirmDialog,
  ThemeSelect,
} from '../../../../web/src/index.ts';
import { changePassword, deleteAccount, updatePreferences, updateProfile, type UpdateProfileBody } from '../../../../web/src/api/generated/accounts.ts';
import {
  BIO_MAX,
  OWN_PROFILE_KEY,
  PASSWORD_MIN,
  PHOTO_MAX_BYTES,
  PHOTO_TYPES,
  PREFERENCES_KEY,
  displayName,
  isProfileKey,
  type Preferences,
  type Profile,
} from '../lib.ts';
import { BlockedMutedList } from './BlockedMutedList.tsx';
import { DataTab } from './DataTab.tsx';
import { InterestsTab } from './InterestsTab.tsx';

export type SettingsTab = 'profile' | 'interests' | 'privacy' | 'notifications' | 'safety' | 'data' | 'account';

/** Mutations retried (twice, 1 s doubling) only when a retry can help: network, 408, 5xx. */
const SAFE_RETRY = {
  retries: 2,
  retryIf: (e: unknown) => {
    const s = e instanceof ApiError ? e.status : 0;
    return s === 0 || s === 408 || s >= 500;
  },
};

const refreshProfiles = () => globalMutate((key) => isProfileKey(key));

function fieldErrors(e: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (e instanceof ApiError) for (const fe of e.errors) out[fe.path.replace(/^\/?(body\/)?/, '').split('/')[0]] = fe.message;
  return out;
}

function Field({ id, label, error, help, children }: { id: string; label: string; error?: string; help?: ReactNode; children: ReactNode }) {
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <div className="control">{children}</div>
      {help}
      {error && (
        <p className="help is-danger" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

// ---------------------------------------------------------------- profile

function PhotoUpload({ profile }: { profile: Profile }) {
  const { t } = useTranslation('accounts');
  const { setUser } = useAuth();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const onFile = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    setError(null);
    if (!PHOTO_TYPES.includes(file.type)) return setError(t('settings.photoWrongType'));
    if (file.size > PHOTO_MAX_BYTES) return setError(t('settings.photoTooLarge'));
    const url = URL.createObjectURL(file);
    setPreview(url);
    setPercent(0);
    const fd = new FormData();
    fd.append('image', file);
    try {
      const user = await uploadWithProgress<WebUser>('/api/user/profile-image', fd, (p) => setPercent(p));
      await setUser(user);
      await refreshProfiles();
      toast({ title: t('settings.photoUpdated'), description: t('settings.photoUpdatedText'), variant: 'success' });
    } catch (e) {
      setPreview(null);
      setError((e as Error).message);
      toast({ title: t('settings.photoFailed'), description: (e as Error).message, variant: 'destructive' });
    } finally {
      setPercent(null);
    }
  };

  return (
    <div className="acc-photo">
      <Avatar src={preview ?? profile.profileImageUrl} info={preview ? null : profile.profileImageInfo} name={displayName(profile)} size={80} />
      <div className="acc-photo__controls">
        <p className="label mb-1">{t('settings.photo')}</p>
        <input ref={input} id="acc-photo-input" className="is-sr-only" type="file" accept=".jpg,.jpeg,.png,.gif,image/jpeg,image/png,image/gif" onChange={(e) => void onFile(e.target.files?.[0])} aria-describedby="acc-photo-note" />
        <label htmlFor="acc-photo-input" className={`button is-small is-light${percent !== null ? ' is-disabled' : ''}`} tabIndex={0} onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), input.current?.click())}>
          {t('settings.changePhoto')}
        </label>
        <p className="help" id="acc-photo-note">
          {t('settings.photoNote')}
        </p>
        {percent !== null && (
          <>
            <progress className="progress is-small is-primary mt-2 mb-1" value={percent} max={100} aria-label={t('settings.uploadProgress')} />
            <p className="help" aria-live="polite">
              {t('settings.uploading', { percent })}
            </p>
          </>
        )}
        {error && (
          <p className="help is-danger" role="alert">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}

function ProfileSettings({ profile, onDone }: { profile: Profile; onDone: () => void }) {
  const { t } = useTranslation('accounts');
  const { setUser } = useAuth();
  const uid = useId();
  const [values, setValues] = useState({
    firstName: profile.firstName ?? '',
    lastName: profile.lastName ?? '',
    username: profile.username ?? '',
    email: profile.email ?? '',
    bio: profile.bio ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const set = (k: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs: Record<string, string> = {};
    if (!values.username.trim()) errs.username = t('settings.usernameRequired');
    if (values.bio.length > BIO_MAX) errs.bio = t('settings.bioTooLong');
    setErrors(errs);
    if (Object.keys(errs).length) {
      document.getElementById(`${uid}-${Object.keys(errs)[0]}`)?.focus();
      return;
    }
    setPending(true);
    try {
      const body: UpdateProfileBody = {
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        username: values.username.trim(),
        email: values.email.trim(),
        bio: values.bio.trim(),
      };
      const user = await withRetry(() => updateProfile({ body }), SAFE_RETRY);
      await setUser(user as WebUser);
      await refreshProfiles();
      toast({ title: t('settings.profileUpdated'), description: t('settings.profileUpdatedText'), variant: 'success' });
      onDone();
    } catch (err) {
      setErrors(fieldErrors(err));
      toast({ title: t('settings.updateFailed'), description: t('settings.updateFailedText'), variant: 'destructive' });
      if (!(err instanceof ApiError) || !err.errors.length) setErrors({ form: (err as Error).message });
    } finally {
      setPending(false);
    }
  };

  const input = (k: 'firstName' | 'lastName' | 'username' | 'email', type = 'text', autoComplete?: string) => (
    <Field id={`${uid}-${k}`} label={t(`fields.${k}`)} error={errors[k]}>
      <input
        id={`${uid}-${k}`}
        className={`input${errors[k] ? ' is-danger' : ''}`}
        type={type}
        value={values[k]}
        onChange={set(k)}
        autoComplete={autoComplete}
        aria-invalid={errors[k] ? true : undefined}
        aria-describedby={errors[k] ? `${uid}-${k}-error` : undefined}
        disabled={pending}
        maxLength={k === 'email' ? 254 : k === 'username' ? 30 : 100}
      />
    </Field>
  );

  return (
    <form onSubmit={submit} noValidate className="acc-settings-form">
      <PhotoUpload profile={profile} />
      <div className="columns is-variable is-2 mb-0">
        <div className="column">{input('firstName', 'text', 'given-name')}</div>
        <div className="column">{input('lastName', 'text', 'family-name')}</div>
      </div>
      {input('username', 'text', 'username')}
      {input('email', 'email', 'email')}
      <Field
        id={`${uid}-bio`}
        label={t('fields.bio')}
        error={errors.bio}
        help={
          <p className={`help has-text-right${values.bio.length > BIO_MAX ? ' is-danger' : ''}`} id={`${uid}-bio-counter`} aria-live="polite">
            {t('settings.bioCounter', { count: values.bio.length })}
          </p>
        }
      >
        <textarea
          id={`${uid}-bio`}
          className={`textarea${errors.bio ? ' is-danger' : ''}`}
          rows={3}
          value={values.bio}
          onChange={set('bio')}
          aria-invalid={errors.bio ? true : undefined}
          aria-describedby={`${uid}-bio-counter${errors.bio ? ` ${uid}-bio-error` : ''}`}
          disabled={pending}
        />
      </Field>
      {errors.form && (
        <p className="help is-danger" role="alert">
          {errors.form}
        </p>
      )}
      <div className="buttons is-right mt-4">
        <button type="submit" className={`button is-primary${pending ? ' is-loading' : ''}`} disabled={pending}>
          {pending ? t('settings.saving') : t('settings.save')}
        </button>
      </div>
    </form>
  );
}

// ---------------------------------------------------------------- privacy & notifications

const PRIVACY_TOGGLES = ['showEmail', 'showFollowers', 'showFollowing', 'allowMessages', 'allowTagging'] as const;
const NOTIFICATION_TOGGLES = ['emailNotifications', 'pushNotifications', 'followNotifications', 'likeNotifications', 'commentNotifications', 'museumUpdates', 'eventReminders', 'weeklyDigest'] as const;

function PreferencesForm({ kind, prefs }: { kind: 'privacy' | 'notifications'; prefs: Preferences }) {
  const { t } = useTranslation('accounts');
  const [values, setValues] = useState<Preferences>(prefs);
  const [pending, setPending] = useState(false);
  const uid = useId();
  const toggles = kind === 'privacy' ? PRIVACY_TOGGLES : NOTIFICATION_TOGGLES;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setPending(true);
    try {
      const body: Partial<Preferences> = {};
      if (kind === 'privacy') body.profileVisibility = values.profileVisibility;
      for (const k of toggles) (body as any)[k] = values[k];
      const saved = await withRetry(() => updatePreferences({ body }), SAFE_RETRY);
      await globalMutate(PREFERENCES_KEY, saved, { revalidate: false });
      await refreshProfiles();
      toast(
        kind === 'privacy'
          ? { title: t('settings.privacySaved'), description: t('settings.privacySavedText'), variant: 'success' }
          : { title: t('settings.notificationsSaved'), description: t('settings.notificationsSavedText'), variant: 'success' },
      );
    } catch (err) {
      toast({ title: t('settings.saveFailed'), description: t('settings.saveFailedText'), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={submit} className="acc-settings-form">
      <p className="has-text-grey mb-4">{kind === 'privacy' ? t('settings.privacyIntro') : t('settings.notificationsIntro')}</p>
      {kind === 'privacy' && (
        <fieldset className="field">
          <legend className="label">{t('settings.profileVisibility')}</legend>
          <div className="acc-choices">
            {(['public', 'friends', 'private'] as const).map((v) => (
              <label key={v} className={`acc-choice${values.profileVisibility === v ? ' is-selected' : ''}`}>
                <input type="radio" name={`${uid}-visibility`} value={v} checked={values.profileVisibility === v} onChange={() => setValues((x) => ({ ...x, profileVisibility: v }))} disabled={pending} />
                <span>
                  <strong>{t(`settings.visibility.${v}`)}</strong>
                  <span className="help mt-0">{t(`settings.visibility.${v}Help`)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <div className="acc-toggles">
        {toggles.map((k) => (
          <label key={k} className="acc-toggle" htmlFor={`${uid}-${k}`}>
            <span>{t(`settings.${k}`)}</span>
            <input id={`${uid}-${k}`} type="checkbox" role="switch" checked={Boolean(values[k])} onChange={(e) => setValues((x) => ({ ...x, [k]: e.target.checked }))} disabled={pending} />
          </label>
        ))}
      </div>
      {/* per-device settings other plugins add (notifications: web push on this device) */}
      {kind === 'notifications' && <Slot name="settings.notifications" />}
      <div className="buttons is-right mt-4">
        <button type="submit" className={`button is-primary${pending ? ' is-loading' : ''}`} disabled={pending}>
          {pending ? t('settings.saving') : t('settings.save')}
        </button>
      </div>
    </form>
  );
}

function PreferencesTab({ kind }: { kind: 'privacy' | 'notifications' }) {
  const { t } = useTranslation('accounts');
  const { data, error, isLoading, mutate } = useApi<Preferences>(PREFERENCES_KEY);
  if (isLoading) return <Spinner center label={t('settings.loading')} />;
  if (error || !data)
    return (
      <EmptyState
        tone="error"
        compact
        title={t('settings.loadFailed')}
        action={
          <button type="button" className="button is-small is-light" onClick={() => void mutate()}>
            {t('profile.retry')}
          </button>
        }
      />
    );
  return <PreferencesForm kind={kind} prefs={data} />;
}

// ---------------------------------------------------------------- account

function PasswordForm() {
  const { t } = useTranslation('accounts');
  const uid = useId();
  const [v, setV] = useState({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV((x) => ({ ...x, [k]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs: Record<string, string> = {};
    if (!v.currentPassword) errs.currentPassword = t('settings.currentPasswordRequired');
    if (v.newPassword.length < PASSWORD_MIN) errs.newPassword = t('settings.passwordTooShort');
    else if (v.newPassword !== v.confirmPassword) errs.confirmPassword = t('settings.passwordsMismatch');
    setErrors(errs);
    if (Object.keys(errs).length) {
      const first = Object.keys(errs)[0];
      toast({ title: t('settings.passwordFailed'), description: errs[first], variant: 'destructive' });
      document.getElementById(`${uid}-${first}`)?.focus();
      return;
    }
    setPending(true);
    try {
      await withRetry(() => changePassword({ body: { currentPassword: v.currentPassword, newPassword: v.newPassword } }), SAFE_RETRY);
      setV({ currentPassword: '', newPassword: '', confirmPassword: '' });
      toast({ title: t('settings.passwordUpdated'), description: t('settings.passwordUpdatedText'), variant: 'success' });
      await globalMutate('/api/auth/my-sessions');
    } catch (err) {
      const fe = fieldErrors(err);
      setErrors(Object.keys(fe).length ? fe : { form: (err as Error).message });
      toast({ title: t('settings.passwordFailed'), description: t('settings.passwordFailedText'), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };

  const pw = (k: keyof typeof v, autoComplete: string) => (
    <Field id={`${uid}-${k}`} label={t(`fields.${k}`)} error={errors[k]}>
      <input
        id={`${uid}-${k}`}
        className={`input${errors[k] ? ' is-danger' : ''}`}
        type="password"
        value={v[k]}
        onChange={set(k)}
        autoComplete={autoComplete}
        aria-invalid={errors[k] ? true : undefined}
        aria-describedby={errors[k] ? `${uid}-${k}-error` : undefined}
        disabled={pending}
      />
    </Field>
  );

  return (
    <form onSubmit={submit} noValidate className="acc-settings-form">
      <h3 className="title is-6">{t('settings.changePassword')}</h3>
      {pw('currentPassword', 'current-password')}
      {pw('newPassword', 'new-password')}
      {pw('confirmPassword', 'new-password')}
      {errors.form && (
        <p className="help is-danger" role="alert">
          {errors.form}
        </p>
      )}
      <div className="buttons is-right">
        <button type="submit" className={`button is-primary${pending ? ' is-loading' : ''}`} disabled={pending || !v.newPassword || !v.confirmPassword}>
          {pending ? t('settings.updatingPassword') : t('settings.updatePassword')}
        </button>
      </div>
    </form>
  );
}

function AccountTab({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('accounts');
  const { setUser, logout } = useAuth();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);

  const remove = async () => {
    if (!(await confirmDialog({ title: t('settings.deleteAccount'), message: t('settings.deleteConfirm'), confirmLabel: t('settings.deleteAccount'), destructive: true }))) return;
    setDeleting(true);
    try {
      await withRetry(() => deleteAccount(), SAFE_RETRY);
      toast({ title: t('settings.accountDeleted'), description: t('settings.accountDeletedText'), variant: 'success' });
      onClose();
      // Signed out locally, nothing of the deleted account left in the cache, then home (as logout does).
      await setUser(null);
      await globalMutate((key) => key !== AUTH_KEY, undefined, { revalidate: false });
      navigate('/', { replace: true });
    } catch {
      toast({ title: t('settings.deletionFailed'), description: t('settings.deletionFailedText'), variant: 'destructive' });
      setDeleting(false);
    }
  };

  return (
    <div className="acc-account">
      <section aria-labelledby="acc-theme-h">
        <h3 className="title is-6" id="acc-theme-h">
          {t('settings.appearanceTitle')}
        </h3>
        <p className="has-text-grey mb-3">{t('settings.appearanceText')}</p>
        {/* stored here and with the member's preferences (ThemeSync) */}
        <ThemeSelect />
      </section>
      <hr />
      <PasswordForm />
      <hr />
      <section aria-labelledby="acc-sessions-h">
        <h3 className="title is-6" id="acc-sessions-h">
          {t('settings.sessionsTitle')}
        </h3>
        <p className="has-text-grey mb-3">{t('settings.sessionsText')}</p>
        <div className="buttons">
          <Link to="/sessions" className="button is-light" onClick={onClose}>
            {t('settings.manageSessions')}
          </Link>
          <button
            type="button"
            className="button is-light"
            onClick={() => {
              onClose();
              void logout();
            }}
          >
            {t('settings.signOut')}
          </button>
        </div>
      </section>
      <hr />
      <section className="acc-danger" aria-labelledby="acc-danger-h">
        <h3 className="title is-6 has-text-danger" id="acc-danger-h">
          {t('settings.dangerZone')}
        </h3>
        <p className="mb-3">{t('settings.deleteText')}</p>
        <button type="button" className={`button is-danger${deleting ? ' is-loading' : ''}`} onClick={remove} disabled={deleting}>
          {deleting ? t('settings.deleting') : t('settings.deleteAccount')}
        </button>
      </section>
    </div>
  );
}

// ---------------------------------------------------------------- dialog

/** The settings dialog (spec part 1 §2, §5): Profile, Privacy, Notifications, Account. */
export function SettingsDialog({ initialTab = 'profile', onClose }: { initialTab?: SettingsTab; onClose: () => void }) {
  const { t } = useTranslation('accounts');
  const [tab, setTab] = useState<SettingsTab>(initialTab);
  const own = useApi<Profile>(OWN_PROFILE_KEY);
  return (
    <Modal open onClose={onClose} title={t('settings.title')} size="medium" className="acc-settings">
      <Tabs
        idPrefix="acc-settings"
        label={t('settings.tabsLabel')}
        active={tab}
        onChange={(x) => setTab(x as SettingsTab)}
        tabs={[
          { id: 'profile', label: t('settings.profileTab') },
          { id: 'interests', label: t('settings.interestsTab') },
          { id: 'privacy', label: t('settings.privacyTab') },
          { id: 'notifications', label: t('settings.notificationsTab') },
          { id: 'safety', label: t('settings.safetyTab') },
          { id: 'data', label: t('settings.dataTab') },
          { id: 'account', label: t('settings.accountTab') },
        ]}
      />
      <TabPanel idPrefix="acc-settings" id="profile" active={tab}>
        {own.isLoading ? <Spinner center label={t('settings.loading')} /> : own.data ? <ProfileSettings profile={own.data} onDone={onClose} /> : <EmptyState tone="error" compact title={t('settings.loadFailed')} />}
      </TabPanel>
      <TabPanel idPrefix="acc-settings" id="interests" active={tab}>
        {tab === 'interests' && <InterestsTab onClose={onClose} />}
      </TabPanel>
      <TabPanel idPrefix="acc-settings" id="privacy" active={tab}>
        <PreferencesTab kind="privacy" />
      </TabPanel>
      <TabPanel idPrefix="acc-settings" id="notifications" active={tab}>
        <PreferencesTab kind="notifications" />
      </TabPanel>
      <TabPanel idPrefix="acc-settings" id="safety" active={tab}>
        {tab === 'safety' && <BlockedMutedList />}
      </TabPanel>
      <TabPanel idPrefix="acc-settings" id="data" active={tab}>
        {tab === 'data' && <DataTab />}
      </TabPanel>
      <TabPanel idPrefix="acc-settings" id="account" active={tab}>
        <AccountTab onClose={onClose} />
      </TabPanel>
    </Modal>
  );
}
