/**
 * What plugins' web code may use from the shell. Import from here (e.g.
 * `import { useAuth, Page } from '../../../web/src/index.ts'`), never from shell internals.
 */

// the plugin contract
export { defineWebPlugin } from './plugin-web.ts';
export type { Audience, WebUser, WebPage, NavItem, SlotContribution, WebPlugin } from './plugin-web.ts';

// auth
export { useAuth, AUTH_KEY } from './lib/auth.tsx';
export type { AuthState } from './lib/auth.tsx';
export { safeNextPath, signInPath } from './lib/next-path.ts';
export { hasRole, normalizeRole, canonicalRole, ROLES } from './lib/roles.ts';

// requests
export {
  apiRequest,
  ApiError,
  uploadWithProgress,
  withRetry,
  isRetryable,
  retryDelay,
  extractErrorMessage,
  cleanErrorText,
  toastApiError,
  toastAuthError,
  toastNetworkError,
  toastValidationError,
  toastSuccess,
  toastFailure,
  toastLoadFailure,
} from './lib/api.ts';
export { useApi, useInfiniteApi, useMutation, defaultFetcher, STALE_TIME } from './lib/data.ts';
export type { ApiKey, CursorPage, MutationOptions } from './lib/data.ts';
export { mutate, useSWRConfig } from 'swr';

// toasts
export { useToast, toast, dismissToast, signInToastAction } from './lib/toast.tsx';
export type { ToastOptions, ToastVariant, ToastAction } from './lib/toast.tsx';

// shell integration
export { Slot, useSlot, navIconPlaceholder } from './lib/plugins.tsx';
export { useCreateDialog, CREATE_DIALOG_SLOT } from './lib/create-dialog.tsx';
export type { CreateDialogState } from './lib/create-dialog.tsx';
export { useAppConfig, usePluginEnabled, usePluginConfig } from './lib/app-config.tsx';
export type { AppConfig } from './lib/app-config.tsx';
export { useOnline } from './lib/online.ts';
export { useHydrated } from './lib/hydrated.ts';
export { useLiveEvent, useLiveConnected, LIVE_EVENT, STREAM_OPEN } from './lib/live.tsx';
export type { LiveEventDetail } from './lib/live.tsx';

// i18n
export { useTranslation, Trans } from 'react-i18next';
export { setLocale, currentLocale, SUPPORTED_LOCALES, t as translate } from './i18n.ts';
export type { Locale } from './i18n.ts';

// components
export { SchemaForm } from './components/SchemaForm.tsx';
export type { SchemaFormProps, JSONSchema, ValidateLike } from './components/SchemaForm.tsx';
export { Spinner } from './components/Spinner.tsx';
export { EmptyState } from './components/EmptyState.tsx';
export { Modal } from './components/Modal.tsx';
export { confirmDialog } from './components/ConfirmDialog.tsx';
export type { ConfirmOptions } from './components/ConfirmDialog.tsx';
export { Tabs, TabPanel } from './components/Tabs.tsx';
export type { TabItem } from './components/Tabs.tsx';
export { useScrollAffordance, ScrollArrow } from './components/ScrollRow.tsx';
export { Avatar, initials } from './components/Avatar.tsx';
export { GeneratedCover, coverTheme } from './components/GeneratedCover.tsx';
export { CoverUpload } from './components/CoverUpload.tsx';
export { CoverImage } from './components/CoverImage.tsx';
export type { CoverImageProps } from './components/CoverImage.tsx';
export type { CoverKind, GeneratedCoverProps } from './components/GeneratedCover.tsx';
export { ResponsiveImage, blurhashDataUrl, variantSrcsets, storedSrcsets, infoSrcsets } from './components/ResponsiveImage.tsx';
export type { ImageInfo } from './components/ResponsiveImage.tsx';
export type { ResponsiveImageProps } from './components/ResponsiveImage.tsx';
export { RoleBadge } from './components/RoleBadge.tsx';
export { RelativeTime, formatRelative } from './components/RelativeTime.tsx';
export { formatDateTime, formatDate, formatTimeOfDay, formatClock, intlLocale } from './lib/format.ts';
export { Pagination } from './components/Pagination.tsx';
export { InfiniteList } from './components/InfiniteList.tsx';
export { Icon, ICON_PATHS } from './components/Icon.tsx';
export { EmojiIcon, EmojiText, SYMBOL_PATHS, SYMBOL_EMOJI, symbolOfEmoji, inkOn } from './components/EmojiIcon.tsx';
export { Page, useDocumentTitle } from './components/Page.tsx';
export { useHashTarget, HASH_TARGET_CLASS } from './lib/hash-target.ts';
export { ThemeSelect } from './components/ThemeSelect.tsx';
export { useThemeChoice, setThemeChoice, readThemeChoice, resolvedTheme, isThemeChoice, THEME_CHOICES } from './lib/theme.ts';
export type { ThemeChoice } from './lib/theme.ts';
export { ErrorBoundary } from './components/ErrorBoundary.tsx';
