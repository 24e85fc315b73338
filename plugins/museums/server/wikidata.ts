/**
 * Wikidata client: finds a museum by name (wbsearchentities on the Action API), then reads its
 * facts with one SPARQL query on the candidates (only items that are a museum, gallery or
 * botanical garden by P31/P279*). Endpoints, timeout and User-Agent are configurable.
 */
import { ExternalServiceError, getJson } from './http-json.ts';
import { publicCategoryFromLabels } from './places.ts';

export interface WikidataConfig {
  apiUrl: string;
  sparqlUrl: string;
  timeoutMs: number;
  userAgent: string;
  language: string;
}

export interface WikidataMuseum {
  wikidataId: string;
  name: string;
  description: string;
  website: string;
  phone: string;
  email: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  /** public-form category (art, history, …) */
  category: string;
  latitude: number | null;
  longitude: number | null;
  featuredImage: string;
  /** English labels of its P31 classes */
  types: string[];
}

/** Museum (Q33506), art gallery (Q1007870), botanical garden (Q167346), arboretum (Q181623), historic house museum (Q2087181). */
const MUSEUM_CLASSES = ['Q33506', 'Q1007870', 'Q167346', 'Q181623', 'Q2087181'];

export function createWikidataClient(cfg: WikidataConfig) {
  const opts = { timeoutMs: cfg.timeoutMs, userAgent: cfg.userAgent };

  async function searchIds(name: string, limit = 10): Promise<string[]> {
    const u = new URL(cfg.apiUrl);
    u.search = new URLSearchParams({ action: 'wbsearchentities', search: name, language: cfg.language, uselang: cfg.language, type: 'item', format: 'json', limit: String(limit) }).toString();
    const body = await getJson('Wikidata', u.toString(), opts);
    if (body?.error) throw new ExternalServiceError('Wikidata', 'body', `Wikidata refused the search: ${body.error.info ?? body.error.code ?? 'error'}`);
    const list = Array.isArray(body?.search) ? body.search : [];
    return list.map((r: any) => String(r?.id ?? '')).filter((id: string) => /^Q\d+$/.test(id));
  }

  function sparqlFor(ids: string[]): string {
    const lang = cfg.language.replace(/[^a-z-]/gi, '') || 'en';
    return `SELECT ?item ?itemLabel ?itemDescription ?website ?phone ?email ?coord ?image ?street ?postal ?cityLabel ?stateLabel ?countryLabel ?typeLabel WHERE {
  VALUES ?item { ${ids.map((i) => `wd:${i}`).join(' ')} }
  VALUES ?museumClass { ${MUSEUM_CLASSES.map((i) => `wd:${i}`).join(' ')} }
  ?item wdt:P31 ?type .
  ?type wdt:P279* ?museumClass .
  OPTIONAL { ?type rdfs:label ?typeLabel . FILTER(LANG(?typeLabel) = "${lang}") }
  OPTIONAL { ?item wdt:P856 ?website . }
  OPTIONAL { ?item wdt:P1329 ?phone . }
  OPTIONAL { ?item wdt:P968 ?email . }
  OPTIONAL { ?item wdt:P625 ?coord . }
  OPTIONAL { ?item wdt:P18 ?image . }
  OPTIONAL { ?item wdt:P6375 ?street . }
  OPTIONAL { ?item wdt:P281 ?postal . }
  OPTIONAL { ?item wdt:P131 ?city . }
  OPTIONAL { ?item wdt:P131/wdt:P131 ?state . }
  OPTIONAL { ?item wdt:P17 ?country . }
  SERVICE wikibase:label { bd:serviceParam wikibase:language "${lang},en". }
}
LIMIT 500`;
  }

  /** Facts of the given items that are museums, in the given order. */
  async function fetchMuseums(ids: string[]): Promise<WikidataMuseum[]> {
    if (!ids.length) return [];
    const u = new URL(cfg.sparqlUrl);
    u.search = new URLSearchParams({ query: sparqlFor(ids), format: 'json' }).toString();
    const body = await getJson('Wikidata', u.toString(), { ...opts, accept: 'application/sparql-results+json' });
    const rows: any[] = body?.results?.bindings;
    if (!Array.isArray(rows)) throw new ExternalServiceError('Wikidata', 'body', 'Wikidata answered an unexpected SPARQL result');
    const byId = new Map<string, WikidataMuseum>();
    for (const r of rows) {
      const v = (k: string): string => (typeof r?.[k]?.value === 'string' ? r[k].value.trim() : '');
      const id = v('item').split('/').pop() ?? '';
      if (!/^Q\d+$/.test(id)) continue;
      let m = byId.get(id);
      if (!m) {
        m = { wikidataId: id, name: '', description: '', website: '', phone: '', email: '', address: '', city: '', state: '', zipCode: '', country: '', category: 'other', latitude: null, longitude: null, featuredImage: '', types: [] };
        byId.set(id, m);
      }
      const label = v('itemLabel');
      if (!m.name && label && label !== id) m.name = label;
      const set = (field: 'description' | 'website' | 'phone' | 'address' | 'zipCode' | 'city' | 'state' | 'country', value: string) => {
        if (!m![field] && value && !/^Q\d+$/.test(value) && !/^https?:\/\/www\.wikidata\.org\/\.well-known\/genid\//.test(value)) m![field] = value;
      };
      set('description', v('itemDescription'));
      set('website', v('website'));
      set('phone', v('phone'));
      set('address', v('street'));
      set('zipCode', v('postal'));
      set('city', v('cityLabel'));
      set('state', v('stateLabel'));
      set('country', v('countryLabel'));
      const email = v('email').replace(/^mailto:/i, '');
      if (!m.email && email) m.email = email;
      const coord = /^Point\(\s*(-?[\d.]+)\s+(-?[\d.]+)\s*\)$/i.exec(v('coord'));
      if (m.latitude === null && coord) {
        const lng = Number(coord[1]);
        const lat = Number(coord[2]);
        if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180) {
          m.latitude = lat;
          m.longitude = lng;
        }
      }
      const image = v('image');
      if (!m.featuredImage && image) m.featuredImage = commonsImageUrl(image);
      const t = v('typeLabel');
      if (t && !m.types.includes(t)) m.types.push(t);
    }
    const out: WikidataMuseum[] = [];
    for (const id of ids) {
      const m = byId.get(id);
      if (!m) continue;
      if (!m.name) m.name = id;
      m.category = publicCategoryFromLabels([...m.types, m.description]);
      if (m.state && m.state === m.city) m.state = '';
      out.push(m);
    }
    return out;
  }

  return {
    /** The best museum match for a name, or null. */
    async findMuseum(name: string): Promise<WikidataMuseum | null> {
      const ids = await searchIds(name.trim());
      const museums = await fetchMuseums(ids);
      return museums[0] ?? null;
    },
    /** Candidates for a name (museums only), best first. */
    async findMuseums(name: string, limit = 10): Promise<WikidataMuseum[]> {
      return fetchMuseums(await searchIds(name.trim(), limit));
    },
    fetchMuseums,
  };
}

export type WikidataClient = ReturnType<typeof createWikidataClient>;

/** Commons "Special:FilePath" address (as SPARQL gives it) → an https address, 1200 px wide. */
export function commonsImageUrl(value: string): string {
  let u = value.replace(/^http:\/\//, 'https://');
  if (!/^https:\/\//.test(u)) u = `https://commons.wikimedia.org/wiki/Special:FilePath/${encodeURIComponent(u.replace(/ /g, '_'))}`;
  return u.includes('?') ? u : `${u}?width=1200`;
}
