/**
 * Monetization plans (spec part 2 §3 "Monetization plan", §9 plan templates and feature rules).
 * Shared by the server (which applies the rules) and the web dashboard (which shows them).
 * Amounts travel in the API as decimals (9.99) and are stored as integer cents.
 */
export const PLAN_TYPES = ['premium_subscription', 'museum_partnership', 'event_promotion', 'advertisement'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];
export const PLAN_TIERS = ['basic', 'premium', 'enterprise'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];
export const CURRENCIES = ['USD', 'EUR', 'GBP'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const PLAN_STATUSES = ['active', 'inactive', 'expired'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export type Features = Record<string, boolean>;

export interface PlanTemplate {
  type: PlanType;
  amount: number;
  currency: Currency;
  /** what the amount pays for */
  per: 'month' | 'event';
}

/** §9: premium subscription $9.99 per month, museum partnership $49.99 per month, event promotion $19.99 per event. */
export const PLAN_TEMPLATES: PlanTemplate[] = [
  { type: 'premium_subscription', amount: 9.99, currency: 'USD', per: 'month' },
  { type: 'museum_partnership', amount: 49.99, currency: 'USD', per: 'month' },
  { type: 'event_promotion', amount: 19.99, currency: 'USD', per: 'event' },
];

/** §9 default plan of the create form. */
export const DEFAULT_PLAN = { type: 'premium_subscription' as PlanType, plan: 'basic' as PlanTier, amount: 9.99, currency: 'USD' as Currency };

/** The feature keys each plan type carries (shown as switches or read-only ticks). */
export const FEATURE_KEYS: Record<PlanType, string[]> = {
  premium_subscription: ['unlimitedCheckIns', 'prioritySupport', 'exclusiveContent', 'advancedAnalytics'],
  museum_partnership: ['featuredListing', 'verifiedBadge', 'analyticsDashboard', 'eventPromotion', 'prioritySupport'],
  event_promotion: ['featuredPlacement', 'memberNotification', 'socialSharing'],
  advertisement: ['bannerPlacement', 'targetedAudience', 'performanceReports'],
};

/** Whether the type's features follow fixed rules (then the admin cannot change them). */
export function featuresAreRuled(type: PlanType): boolean {
  return type === 'premium_subscription' || type === 'museum_partnership';
}

/**
 * §9 feature rules. Premium subscription: unlimited check-ins always; priority support unless the
 * tier is basic; exclusive content and advanced analytics only on the premium tier. Museum
 * partnership: every feature on. Other types: the given switches (unknown keys dropped; missing
 * ones off, except for a new plan where every feature of the type starts on).
 */
export function planFeatures(type: PlanType, tier: PlanTier, given?: Features | null): Features {
  const keys = FEATURE_KEYS[type];
  if (type === 'premium_subscription') {
    return { unlimitedCheckIns: true, prioritySupport: tier !== 'basic', exclusiveContent: tier === 'premium', advancedAnalytics: tier === 'premium' };
  }
  if (type === 'museum_partnership') return Object.fromEntries(keys.map((k) => [k, true]));
  return Object.fromEntries(keys.map((k) => [k, given ? given[k] === true : true]));
}

export function templateFor(type: PlanType): PlanTemplate | undefined {
  return PLAN_TEMPLATES.find((t) => t.type === type);
}

/** 9.99 → 999; refuses more than 2 decimals (null). */
export function toCents(amount: number): number | null {
  if (!Number.isFinite(amount)) return null;
  const cents = Math.round(amount * 100);
  if (Math.abs(cents - amount * 100) > 1e-6) return null;
  return cents;
}

export const fromCents = (cents: number): number => Math.round(Number(cents)) / 100;

/** "$9.99", "€49.99", "£19.99" */
export function formatMoney(amount: number, currency: string, locale = 'en-US'): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}
