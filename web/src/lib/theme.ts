import { useEffect, useState } from 'react';
import { readPreferenceCookie, writePreferenceCookie } from './preference-cookie.ts';

/**
 * Light, dark or the system's choice (prefers-color-scheme), issue 21. The choice lives in
 * localStorage and in the `curio-theme` cookie: the server puts `data-theme` on `<html>` from the
 * cookie (core/app.ts serveWebBuild), so the first paint — the server-rendered pages included — is
 * already in the right theme; "system" leaves the attribute off and the stylesheet follows the OS
 * (web/src/styles.css). A signed-in member's choice is also stored with their preferences
 * (accounts) and applied on their other devices.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
export const THEME_COOKIE = 'curio-theme';
const STORAGE_KEY = 'curio-theme';
const CHANGED = 'curio:theme-changed';

export const isThemeChoice = (v: unknown): v is ThemeChoice => typeof v === 'string' && (THEME_CHOICES as readonly string[]).includes(v);

/** The stored choice (localStorage, else the cookie), 'system' when none. */
export function readThemeChoice(): ThemeChoice {
  if (typeof window === 'undefined') return 'system';
  try {
    const v = window.localStorage.getItem(STORAGE_KEY);
    if (isThemeChoice(v)) return v;
  } catch {
    /* storage blocked */
  }
  const cookie = readPreferenceCookie(THEME_COOKIE);
  return isThemeChoice(cookie) ? cookie : 'system';
}

/** The theme in force: the choice, or the system's for 'system'. */
export function resolvedTheme(choice: ThemeChoice = readThemeChoice()): 'light' | 'dark' {
  if (choice !== 'system') return choice;
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Applies a choice to the page (data-theme on <html>) and remembers it here (localStorage and cookie, a year). */
export function setThemeChoice(choice: ThemeChoice): void {
  if (typeof document === 'undefined' || !isThemeChoice(choice)) return;
  const root = document.documentElement;
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
  try {
    window.localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    /* storage blocked: the cookie still carries it */
  }
  writePreferenceCookie(THEME_COOKIE, choice);
  window.dispatchEvent(new CustomEvent(CHANGED, { detail: choice }));
}

/** At start: the page follows the stored choice even when the cookie was lost (e.g. cleared). */
export function initTheme(): void {
  if (typeof document === 'undefined') return;
  const choice = readThemeChoice();
  const attr = document.documentElement.getAttribute('data-theme');
  if ((choice === 'system' && attr) || (choice !== 'system' && attr !== choice)) setThemeChoice(choice);
}

/** The current choice, re-rendered when it changes (here or in another component). */
export function useThemeChoice(): [ThemeChoice, (c: ThemeChoice) => void] {
  // 'system' first, as the server renders it (no hydration mismatch), then the stored choice
  const [choice, setChoice] = useState<ThemeChoice>('system');
  useEffect(() => {
    const on = (e: Event) => setChoice((e as CustomEvent).detail as ThemeChoice);
    window.addEventListener(CHANGED, on);
    setChoice(readThemeChoice());
    return () => window.removeEventListener(CHANGED, on);
  }, []);
  return [choice, setThemeChoice];
}
