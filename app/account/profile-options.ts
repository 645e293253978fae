/**
 * The choices offered by the profile form, built on the server so the server HTML and the browser's
 * first render agree (browsers ship other ICU versions, with other zone lists and names).
 */

export interface Option {
  value: string;
  label: string;
}

export interface OptionGroup {
  label: string;
  options: Option[];
}

/** Common languages and regional variants; the account's own value is added when it is not among them. */
const LOCALES = [
  'ar',
  'bg',
  'bn',
  'ca',
  'cs',
  'da',
  'de',
  'de-AT',
  'de-CH',
  'el',
  'en',
  'en-AU',
  'en-CA',
  'en-GB',
  'en-IE',
  'en-IN',
  'en-NZ',
  'en-US',
  'es',
  'es-419',
  'es-MX',
  'et',
  'fa',
  'fi',
  'fil',
  'fr',
  'fr-BE',
  'fr-CA',
  'fr-CH',
  'ga',
  'he',
  'hi',
  'hr',
  'hu',
  'id',
  'is',
  'it',
  'ja',
  'ko',
  'lt',
  'lv',
  'ms',
  'nb',
  'nl',
  'nl-BE',
  'pl',
  'pt',
  'pt-BR',
  'pt-PT',
  'ro',
  'ru',
  'sk',
  'sl',
  'sr',
  'sv',
  'sw',
  'ta',
  'th',
  'tr',
  'uk',
  'ur',
  'vi',
  'zh-Hans',
  'zh-Hant',
];

/** "Deutsch (Österreich) — German (Austria)": the name its speakers read first, then the page's language. */
export function localeLabel(tag: string): string {
  try {
    const english = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard' }).of(tag) ?? tag;
    const native = new Intl.DisplayNames([tag], { type: 'language', languageDisplay: 'standard' }).of(tag) ?? tag;
    return native === english ? english : `${native} — ${english}`;
  } catch {
    return tag;
  }
}

/** Sorted by the English name, the page's language, so a list read top to bottom is in one order. */
export function localeOptions(current: string | null): Option[] {
  const tags = current && !LOCALES.includes(current) ? [...LOCALES, current] : LOCALES;
  const inEnglish = new Intl.DisplayNames(['en'], { type: 'language' });
  const english = new Map(tags.map((tag) => [tag, inEnglish.of(tag) ?? tag]));
  return tags.map((tag) => ({ value: tag, label: localeLabel(tag) })).sort((a, b) => english.get(a.value)!.localeCompare(english.get(b.value)!));
}

/**
 * "America/Argentina/Buenos_Aires" -> "Buenos Aires — America / Argentina": the city first, because
 * a closed select shows only the label and typing in a select jumps by the label's first letters.
 */
export function zoneLabel(zone: string): string {
  const parts = zone.replaceAll('_', ' ').split('/');
  const city = parts.pop()!;
  return parts.length ? `${city} — ${parts.join(' / ')}` : city;
}

/** Every IANA zone this runtime knows, grouped by region, UTC first; plus the account's own value. */
export function timeZoneGroups(current: string | null): OptionGroup[] {
  const zones = new Set(Intl.supportedValuesOf('timeZone'));
  if (current) zones.add(current);
  zones.delete('UTC');
  const groups = new Map<string, Option[]>([['Universal', [{ value: 'UTC', label: 'UTC' }]]]);
  for (const zone of [...zones].sort()) {
    const region = zone.includes('/') ? zone.split('/')[0]! : 'Other';
    groups.set(region, [...(groups.get(region) ?? []), { value: zone, label: zoneLabel(zone) }]);
  }
  return [...groups].map(([label, options]) => ({ label, options }));
}
