/**
 * What the museums web part offers other plugins' web parts. Other plugins import only this file
 * from museums/web (like `public.ts` on the server side), never its components or helpers.
 *
 * - `useFactChanges()`: a change of museum fields in words, fact by fact, worded as the museum
 *   page words those facts (hours, closures, admission, accessibility, contact…), in the viewer's
 *   language. The admin suggestion queue shows suggestions with it.
 */
export { useFactChanges, type FactChange } from './fact-changes.ts';
