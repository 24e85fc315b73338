/** Server entry for opening hours; the implementation is isomorphic and lives in ../shared/. */
export * from '../shared/opening-hours.ts';
