/**
 * The museum catalogue (categories, amenities, opening-hours types) for server and browser.
 * Runtime values come from the one JSON Schema, plugins/museums/schemas/museum-catalog.schema.json
 * ($id "museums/Catalog"); the union types below mirror its enums and are checked against it by
 * plugins/museums/server/opening-hours.test.ts.
 */
import catalogSchema from '../schemas/museum-catalog.schema.json' with { type: 'json' };

export const CATALOG_SCHEMA_ID = 'museums/Catalog';
/** `$ref` to a catalogue definition, e.g. catalogRef('AmenityKey') → "museums/Catalog#/definitions/AmenityKey". */
export const catalogRef = (name: keyof typeof catalogSchema.definitions): string => `${CATALOG_SCHEMA_ID}#/definitions/${name}`;
export { catalogSchema };

export type Category =
  | 'Art Museums'
  | 'History Museums'
  | 'Science Museums'
  | "Children's Museums"
  | 'Botanical Gardens & Arboretums'
  | 'Specialty Museums'
  | 'Anthropology & Ethnography Museums'
  | 'Living History Sites & Historic Houses'
  | 'University Museums';

export type PublicCategory = 'art' | 'history' | 'science' | 'natural_history' | 'technology' | 'archaeology' | 'cultural' | 'specialty' | 'other';

export type AmenityGroupId = 'accessibility' | 'facilities' | 'services' | 'programs' | 'policies' | 'discounts_memberships';

export type AmenityKey =
  | 'restrooms' | 'wheelchair_accessibility' | 'stroller_accessibility' | 'accessible_exhibits' | 'changing_tables'
  | 'free_parking' | 'rv_parking' | 'onsite_parking_ev' | 'bicycle_racks' | 'public_wifi' | 'coat_check' | 'first_aid'
  | 'gift_shop' | 'cafe_dining' | 'event_rental'
  | 'guided_tours' | 'self_guided_tours' | 'audio_guides' | 'family_friendly' | 'interactive_exhibits' | 'outdoor_exhibits' | 'museum_app'
  | 'photography_allowed' | 'service_animals' | 'pet_friendly' | 'multilingual'
  | 'group_discounts' | 'military_discounts' | 'membership_program' | 'free_admission_days';

export interface AmenityGroup {
  id: AmenityGroupId;
  /** English label (the locale files hold the translations). */
  label: string;
  amenities: AmenityKey[];
}

/** Directory and admin categories, in spec order (admin default: DEFAULT_CATEGORY). */
export const CATEGORIES = catalogSchema.definitions.Category.enum as readonly Category[];
export const DEFAULT_CATEGORY = catalogSchema.definitions.Category.default as Category;
/** Categories of the public Create Museum Profile form. */
export const PUBLIC_CATEGORIES = catalogSchema.definitions.PublicCategory.enum as readonly PublicCategory[];
export const PUBLIC_CATEGORY_LABELS = catalogSchema['x-public-category-labels'] as Readonly<Record<PublicCategory, string>>;
/** Every amenity key, grouped order (spec order). */
export const AMENITY_KEYS = catalogSchema.definitions.AmenityKey.enum as readonly AmenityKey[];
/** The amenity groups with their keys, in spec order (for the picker and the profile list). */
export const AMENITY_GROUPS = catalogSchema['x-amenity-groups'] as readonly AmenityGroup[];
/** English amenity labels. */
export const AMENITY_LABELS = catalogSchema['x-amenity-labels'] as Readonly<Record<AmenityKey, string>>;

const amenitySet = new Set<string>(AMENITY_KEYS);
const categorySet = new Set<string>(CATEGORIES);
export const isAmenityKey = (v: unknown): v is AmenityKey => typeof v === 'string' && amenitySet.has(v);
export const isCategory = (v: unknown): v is Category => typeof v === 'string' && categorySet.has(v);
/** The group an amenity belongs to. */
export const amenityGroupOf = (key: AmenityKey): AmenityGroup | undefined => AMENITY_GROUPS.find((g) => g.amenities.includes(key));

// ---- opening hours (shapes of the catalogue's definitions) ----

export type DayKey = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';
/** Monday first. */
export const DAY_KEYS: readonly DayKey[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
export const DAY_LABELS: Readonly<Record<DayKey, string>> = {
  monday: 'Monday', tuesday: 'Tuesday', wednesday: 'Wednesday', thursday: 'Thursday', friday: 'Friday', saturday: 'Saturday', sunday: 'Sunday',
};

/** 24-hour HH:MM. */
export type Time = string;

export interface DayEntry {
  isOpen: boolean;
  isByAppointment: boolean;
  openTime?: Time;
  closeTime?: Time;
}
export type WeeklyHours = Record<DayKey, DayEntry>;
export interface Season {
  name: string;
  /** MM-DD (recurring every year) or YYYY-MM-DD (one-off); both dates inclusive. */
  startDate: string;
  endDate: string;
  hours: WeeklyHours;
}
/** A dated closure or special hours (schema museums/HoursException). */
export interface HoursException {
  /** YYYY-MM-DD, local dates at the museum, both inclusive (endDate defaults to startDate). */
  startDate: string;
  endDate?: string;
  closed: boolean;
  /** HH:MM when not closed; a closeTime earlier than or equal to openTime ends on the next day. */
  openTime?: string;
  closeTime?: string;
  note?: string;
}
export type HolidayMode = 'normal' | 'closed' | 'hours';
/** What the museum does on public holidays (schema museums/HolidayPolicy). */
export interface HolidayPolicy {
  /** ISO 3166-1 alpha-2, and optionally the date-holidays region code (US + NY); '' = guessed from the museum's address. */
  country: string;
  region?: string;
  mode: HolidayMode;
  openTime?: string;
  closeTime?: string;
}
/** One public holiday on the museum's calendar (computed on the server, sent with the museum). */
export interface PublicHoliday {
  date: string;
  name: string;
}
export interface StructuredHours {
  defaultHours: WeeklyHours;
  seasonalHours?: Season[];
  exceptions?: HoursException[];
  publicHolidays?: HolidayPolicy | null;
}
export type TextHours = Record<DayKey, string>;
export type OpeningHours = StructuredHours | TextHours;
