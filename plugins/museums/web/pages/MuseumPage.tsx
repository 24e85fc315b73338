import { lazy, Suspense, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  ApiError,
  canonicalRole,
  EmptyState,
  Icon,
  Slot,
  Spinner,
  toast,
  useApi,
  useAuth,
  useDocumentTitle,
  useMutation,
  useSlot,
  useTranslation,
  signInToastAction,
} from '../../../../web/src/index.ts';
import { checkInAtMuseum, toggleMuseumFollow } from '../../../../web/src/api/generated/museums.ts';
import { AMENITY_KEYS } from '../../shared/catalog.ts';
import { formatTime, addressLine, announceBadges, categoryLabel, dayHoursText, directionsUrl, formatLocalDate, rangeText, safeUrl, specialReason, statusDetail, weekRows, type MuseumView } from '../lib.ts';
import { MuseumImage } from '../components/MuseumImage.tsx';
import { OpenBadge } from '../components/OpenBadge.tsx';
import { FreeBadge } from '../components/FreeBadge.tsx';
import { AdmissionBlock } from '../components/AdmissionBlock.tsx';
import { AccessibilityBlock } from '../components/AccessibilityBlock.tsx';
import { BestTimeToVisit } from '../components/BestTimeToVisit.tsx';
import { BusyBadge } from '../components/BusyBadge.tsx';
import { FactQuestion, FreshnessLine } from '../components/FactCheck.tsx';
import { normalizeAccessibility } from '../../shared/accessibility.ts';
// the editor loads when it is opened, not with every museum page
const EditMuseumDialog = lazy(() => import('../components/EditMuseumDialog.tsx').then((m) => ({ default: m.EditMuseumDialog })));
import '../museums.css';

const READ_MORE_AT = 200;

/** /museum/:slug (slug or id) and /museums/:id — the same screen. */
export default function MuseumPage() {
  const params = useParams();
  const key = params.slug ?? params.id ?? '';
  const url = `/api/museums/slug/${encodeURIComponent(key)}`;
  const { t } = useTranslation('museums');
  const { data: museum, error, isLoading, mutate } = useApi<MuseumView>(url);
  useDocumentTitle(museum?.name ?? (error?.status === 404 ? t('museum.notFound') : undefined));

  if (isLoading) return <Spinner center size="large" />;
  if (error?.status === 404 || (!error && !museum)) {
    return (
      <section className="section">
        <EmptyState
          icon="museum"
          title={t('museum.notFound')}
          description={t('museum.notFoundHelp')}
          action={
            <Link className="button is-primary" to="/discover">
              {t('museum.backToDiscover')}
            </Link>
          }
        />
      </section>
    );
  }
  if (error || !museum) {
    return (
      <section className="section">
        <EmptyState
          tone="error"
          title={t('museum.loadError')}
          description={error?.message}
          action={
            <button type="button" className="button" onClick={() => void mutate()}>
              {t('museum.retry')}
            </button>
          }
        />
      </section>
    );
  }
  return <MuseumProfile museum={museum} onChanged={(m) => void mutate(m, { revalidate: false })} refresh={() => void mutate()} />;
}

/** The browser's position with its accuracy, or null (no Geolocation API, denied, or 10 s without a fix). */
function currentPosition(): Promise<{ latitude: number; longitude: number; accuracy: number } | null> {
  if (typeof navigator === 'undefined' || !navigator.geolocation) return Promise.resolve(null);
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: p.coords.accuracy }),
      () => resolve(null),
      { enableHighAccuracy: true, timeout: 10000, maximumAge: 60000 },
    );
  });
}

function MuseumProfile({ museum: m, onChanged, refresh }: { museum: MuseumView; onChanged: (m: MuseumView) => void; refresh: () => void }) {
  const { t, i18n } = useTranslation('museums');
  const { user } = useAuth();
  const [expanded, setExpanded] = useState(false);
  const [editing, setEditing] = useState(false);
  const role = user ? canonicalRole(user.role) : null;
  const canEdit = !!user && (role === 'Admin' || (role === 'Museum Manager' && m.managerId === user.id));
  const eventSlot = useSlot('museum.events');
  const insightSlot = useSlot('museum.insights');

  const follow = useMutation(() => toggleMuseumFollow({ params: { id: m.id } }));
  const checkIn = useMutation((body: { latitude?: number; longitude?: number; accuracy?: number }) => checkInAtMuseum({ params: { id: m.id }, body }), { retries: 0 });

  const onFollow = async () => {
    if (!user) {
      toast({ title: t('toasts.signInRequired'), description: t('toasts.signInFollow'), variant: 'warning', action: signInToastAction() });
      return;
    }
    try {
      const r = await follow.trigger();
      onChanged({ ...m, isFollowing: r.following, followerCount: r.followerCount });
      toast({
        title: r.following ? t('toasts.following') : t('toasts.unfollowed'),
        description: r.following ? t('toasts.followingText', { name: m.name }) : t('toasts.unfollowedText', { name: m.name }),
        variant: 'success',
      });
    } catch (e) {
      toast({ title: t('toasts.error'), description: (e as ApiError).message || t('toasts.actionFailed'), variant: 'destructive' });
    }
  };

  const onCheckIn = async () => {
    if (!user) {
      toast({ title: t('toasts.signInRequired'), description: t('toasts.signInCheckIn'), variant: 'warning', action: signInToastAction() });
      return;
    }
    try {
      // The browser's position (with its accuracy) makes the check-in verified when it is at the
      // museum; without one (denied, unavailable, too slow) the visit is still recorded, unverified.
      const position = await currentPosition();
      const r = await checkIn.trigger(position ?? {});
      onChanged({ ...m, checkInCount: r.checkInCount, recentCheckInsCount: r.recentCheckInsCount, hasCheckedInToday: true });
      if (r.checkIn.verified) toast({ title: t('toasts.checkedIn'), description: t('toasts.checkedInText', { name: m.name }), variant: 'success' });
      else toast({ title: t('checkin.unverifiedTitle'), description: t(`checkin.reasons.${r.checkIn.unverifiedReason ?? 'no_position'}`, { distance: r.checkIn.distanceMeters ?? '' }), variant: 'info' });
      // Earned badges are celebrated by the badges plugin (one toast per badge, profile lists refreshed).
      announceBadges(r.badges);
    } catch (e) {
      const err = e as ApiError;
      if (err.status === 409) {
        onChanged({ ...m, hasCheckedInToday: true });
        toast({ title: t('toasts.alreadyCheckedIn'), description: err.message, variant: 'info' });
      } else toast({ title: t('toasts.error'), description: err.message || t('toasts.actionFailed'), variant: 'destructive' });
    }
  };

  const lang = i18n.language || 'en';
  const { rows, season, special } = useMemo(() => weekRows(m), [m]);
  const detail = statusDetail(t, m, lang);
  const formatTimeLang = (time?: string) => formatTime(time, lang);
  const todayKey = useMemo(() => {
    const wd = new Intl.DateTimeFormat('en-US', { timeZone: m.timezone, weekday: 'long' }).format(new Date()).toLowerCase();
    return wd;
  }, [m.timezone]);
  const description = m.description?.trim() ?? '';
  const long = description.length > READ_MORE_AT;
  const shown = long && !expanded ? `${description.slice(0, READ_MORE_AT).trimEnd()}…` : description;
  const amenities = AMENITY_KEYS.filter((a) => m.amenities.includes(a));
  const address = addressLine(m);
  const website = safeUrl(m.website);
  const donate = safeUrl(m.donateUrl);

  const actions: Array<{ key: string; href: string; icon: string; label: string; external?: boolean }> = [];
  if (m.phone) actions.push({ key: 'call', href: `tel:${m.phone.replace(/[^\d+]/g, '')}`, icon: 'phone', label: t('museum.call') });
  if (m.email) actions.push({ key: 'email', href: `mailto:${m.email}`, icon: 'mail', label: t('museum.email') });
  if (website) actions.push({ key: 'website', href: website, icon: 'globe', label: t('museum.website'), external: true });
  if (address.length || (m.latitude != null && m.longitude != null)) actions.push({ key: 'directions', href: directionsUrl(m), icon: 'map-pin', label: t('museum.directions'), external: true });
  if (donate) actions.push({ key: 'donate', href: donate, icon: 'heart', label: t('museum.donate'), external: true });

  return (
    <div className="mz-profile">
      <header className="mz-hero">
        <MuseumImage src={m.featuredImage} info={m.featuredImageInfo} name={m.name} category={m.category} className="mz-hero__image" alt={t('museum.heroAlt', { name: m.name })} priority />
        <div className="mz-hero__shade" />
        <div className="container mz-hero__content">
          <p className="mz-hero__category">{categoryLabel(t, m.category)}</p>
          <h1 className="title is-2 mz-hero__title">
            {m.name}
            {m.isVerified && (
              <span className="mz-verified" title={t('museum.verified')}>
                <Icon name="check" size={16} label={t('museum.verified')} />
              </span>
            )}
          </h1>
          <p className="mz-hero__place">{[m.city, m.country].filter(Boolean).join(', ')}</p>
          <p className="mz-hero__status">
            <OpenBadge openStatus={m.openStatus} />
            <FreeBadge isFreeNow={m.isFreeNow} isFreeToday={m.isFreeToday} className="ml-2" />
            <BusyBadge busyNow={m.busyNow} className="ml-2" />
            {detail && <span className="mz-hero__detail">{detail}</span>}
          </p>
          <Slot name="museum.heroCredit" museumId={m.id} featuredImage={m.featuredImage} />
        </div>
      </header>

      <section className="section mz-profile__body">
        <div className="container">
          <div className="mz-toolbar">
            <nav className="mz-actions" aria-label={t('museum.actions')}>
              {actions.map((a) => (
                <a key={a.key} className="mz-action" href={a.href} {...(a.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})} data-action={a.key}>
                  <span className="mz-action__icon">
                    <Icon name={a.icon} size={20} />
                  </span>
                  <span>{a.label}</span>
                </a>
              ))}
            </nav>
            <div className="buttons mz-toolbar__buttons">
              <button
                type="button"
                className={`button ${m.isFollowing ? 'is-light' : 'is-primary'}`}
                aria-pressed={!!m.isFollowing}
                onClick={onFollow}
                disabled={follow.isPending}
                data-testid="follow-button"
              >
                <Icon name={m.isFollowing ? 'check' : 'plus'} size={16} />
                <span>{m.isFollowing ? t('museum.following') : t('museum.follow')}</span>
              </button>
              {m.hasCheckedInToday ? (
                // a state, not a dead button: readable (AA contrast) with an icon (issue 21 #5)
                <span className="mz-checked-in" data-testid="checked-in-state">
                  <Icon name="check" size={16} />
                  <span>{t('museum.checkedIn')}</span>
                </span>
              ) : (
                <button type="button" className="button is-link is-light" onClick={onCheckIn} disabled={checkIn.isPending} data-testid="checkin-button">
                  <Icon name="map-pin" size={16} />
                  <span>{checkIn.isPending ? t('museum.checkingIn') : t('museum.checkIn')}</span>
                </button>
              )}
              {user && (
                <button type="button" className="button is-light" onClick={() => setEditing(true)} data-testid="edit-button">
                  <Icon name="edit" size={16} />
                  <span>{canEdit ? t('museum.edit') : t('museum.suggestEdit')}</span>
                </button>
              )}
              <Slot name="museum.actions" museumId={m.id} museum={m} />
            </div>
          </div>

          {user && m.hasCheckedInToday && <FactQuestion museum={m} onAnswered={refresh} />}

          <dl className="mz-stats" aria-label={t('museum.stats')}>
            <div>
              <dt className="is-sr-only">{t('museum.followers', { count: m.followerCount })}</dt>
              <dd data-testid="follower-count">{t('museum.followers', { count: m.followerCount })}</dd>
            </div>
            <div>
              <dt className="is-sr-only">{t('museum.checkIns', { count: m.checkInCount })}</dt>
              <dd>
                {t('museum.checkIns', { count: m.checkInCount })} <span className="has-text-grey">· {t('museum.recentCheckIns', { count: m.recentCheckInsCount })}</span>
              </dd>
            </div>
            <div>
              <dt className="is-sr-only">{t('museum.insightsCount', { count: m.totalInsights })}</dt>
              <dd>{t('museum.insightsCount', { count: m.totalInsights })}</dd>
            </div>
            {m.totalReviews > 0 && (
              <div>
                <dt className="is-sr-only">★</dt>
                <dd>
                  <Icon name="star" size={14} /> {t('museum.rating', { rating: m.rating.toFixed(1), count: m.totalReviews })}
                </dd>
              </div>
            )}
          </dl>

          <div className="columns is-variable is-5">
            <div className="column is-7">
              <section className="box mz-section" aria-labelledby="mz-about">
                <h2 className="title is-5" id="mz-about">
                  {t('museum.about')}
                </h2>
                {m.category && (
                  <p className="mz-about__category">
                    <span className="has-text-grey">{t('museum.category')}:</span> {categoryLabel(t, m.category)}
                  </p>
                )}
                {description ? (
                  <p className="mz-about__text" data-testid="description">
                    {shown}{' '}
                    {long && (
                      <button type="button" className="button is-text is-small mz-readmore" aria-expanded={expanded} onClick={() => setExpanded((v) => !v)}>
                        {expanded ? t('museum.showLess') : t('museum.readMore')}
                      </button>
                    )}
                  </p>
                ) : (
                  <p className="has-text-grey">{t('museum.noDescription')}</p>
                )}
              </section>

              {insightSlot.length > 0 ? (
                // the insights plugin brings its own heading, share button and empty text
                <section className="box mz-section" data-testid="insights-slot">
                  <Slot name="museum.insights" museumId={m.id} museum={m} emptyText={t('museum.noInsights')} />
                </section>
              ) : (
                <section className="box mz-section" aria-labelledby="mz-insights">
                  <h2 className="title is-5" id="mz-insights">
                    {t('museum.insights')}
                  </h2>
                  <EmptyState compact icon="message" title={t('museum.noInsights')} />
                </section>
              )}

              {eventSlot.length > 0 && (
                <section className="box mz-section" aria-labelledby="mz-events">
                  <h2 className="title is-5" id="mz-events">
                    {t('museum.events')}
                  </h2>
                  <Slot name="museum.events" museumId={m.id} museum={m} />
                </section>
              )}
            </div>

            <div className="column is-5">
              <section className="box mz-section" aria-labelledby="mz-hours">
                <h2 className="title is-5" id="mz-hours">
                  {t('museum.hours')}
                </h2>
                {rows.length ? (
                  <>
                    {season && <p className="mz-hours__season">{t('hours.season', { name: season })}</p>}
                    <table className="table is-fullwidth is-narrow mz-hours" data-testid="hours">
                      <tbody>
                        {rows.map((r) => {
                          const { days, hours } = rangeText(t, r, lang);
                          const today = r.days.includes(todayKey as never);
                          return (
                            <tr key={r.from} className={today ? 'is-today' : ''} data-kind={r.kind}>
                              <th scope="row">{days}</th>
                              <td>{hours}</td>
                            </tr>
                          );
                        })}
                      </tbody>
                    </table>
                    {special.length > 0 && (
                      <>
                        <h3 className="title is-6 mt-3 mb-2" id="mz-special-hours">
                          {t('hours.comingUp')}
                        </h3>
                        <ul className="mz-special" aria-labelledby="mz-special-hours" data-testid="special-hours">
                          {special.map((d) => (
                            <li key={d.date} className="mz-special__day" data-date={d.date} data-kind={d.kind} data-reason={d.special?.reason}>
                              <span className="mz-special__date">{formatLocalDate(d.date, lang)}</span>
                              <span className={`mz-special__hours${d.kind === 'closed' ? ' has-text-danger-dark' : ''}`}>{dayHoursText(t, d, lang)}</span>
                              <span className="mz-special__why">{specialReason(t, d)}</span>
                            </li>
                          ))}
                        </ul>
                      </>
                    )}
                    {m.openingHours?.publicHolidays && m.openingHours.publicHolidays.mode !== 'normal' && (
                      <p className="help">
                        {m.openingHours.publicHolidays.mode === 'closed'
                          ? t('hours.holidayClosed')
                          : t('hours.holidayHours', { open: formatTimeLang(m.openingHours.publicHolidays.openTime), close: formatTimeLang(m.openingHours.publicHolidays.closeTime) })}
                      </p>
                    )}
                    <p className="help">{t('hours.timezone', { zone: m.timezone.replace(/_/g, ' ') })}</p>
                    <FreshnessLine group="hours" confirmation={m.freshness?.hours} />
                  </>
                ) : (
                  <p className="has-text-grey">{t('hours.none')}</p>
                )}
              </section>

              <section className="box mz-section" aria-labelledby="mz-besttime">
                <h2 className="title is-5" id="mz-besttime">
                  {t('bestTime.title')}
                </h2>
                <BestTimeToVisit museumId={m.id} timeZone={m.timezone} />
              </section>

              <section className="box mz-section" aria-labelledby="mz-admission">
                <h2 className="title is-5" id="mz-admission">
                  {t('admission.title')}
                </h2>
                <AdmissionBlock admission={m.admission} />
                <FreshnessLine group="admission" confirmation={m.freshness?.admission} />
              </section>

              <section className="box mz-section" aria-labelledby="mz-accessibility">
                <h2 className="title is-5" id="mz-accessibility">
                  {t('access.title')}
                </h2>
                <AccessibilityBlock accessibility={normalizeAccessibility(m.accessibility)} />
                <FreshnessLine group="accessibility" confirmation={m.freshness?.accessibility} />
              </section>

              <section className="box mz-section" aria-labelledby="mz-address">
                <h2 className="title is-5" id="mz-address">
                  {t('museum.address')}
                </h2>
                {address.length ? (
                  <address className="mz-address">
                    {address.map((line, i) => (
                      <span key={i}>
                        {line}
                        <br />
                      </span>
                    ))}
                  </address>
                ) : (
                  <p className="has-text-grey">{t('museum.noAddress')}</p>
                )}
                <FreshnessLine group="contact" confirmation={m.freshness?.contact} />
              </section>

              <section className="box mz-section" aria-labelledby="mz-amenities">
                <h2 className="title is-5" id="mz-amenities">
                  {t('museum.amenities')}
                </h2>
                {amenities.length ? (
                  <ul className="mz-amenities" data-testid="amenities">
                    {amenities.map((a) => (
                      <li key={a}>
                        <Icon name="check" size={14} /> {t(`amenities.${a}`)}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="has-text-grey">{t('museum.noAmenities')}</p>
                )}
              </section>
            </div>
          </div>
        </div>
      </section>

      {editing && (
        <Suspense fallback={null}>
          <EditMuseumDialog
            museum={m}
            mode={canEdit ? 'edit' : 'suggest'}
            onClose={() => {
              setEditing(false);
              refresh(); // a photo attached or removed from the dialog is saved already
            }}
            onSaved={(updated) => {
              if (updated) onChanged(updated);
              else refresh();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
