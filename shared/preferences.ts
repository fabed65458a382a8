/**
 * Reader preferences kept in browser storage (night mode, article text size). The keys and the classes they
 * set on <html> are shared by the head script (applied before first paint, so no flash of the wrong theme)
 * and the React controls that change them.
 */
export const THEME_KEY = 'portal.theme';
export const TEXT_SIZE_KEY = 'portal.textSize';
export const DARK_CLASS = 'theme-dark';
/** Set on <html> by the head script: styles that only make sense with script (collapsed search) use it. */
export const SCRIPT_CLASS = 'js';
export const TEXT_SIZE_MIN = 0;
export const TEXT_SIZE_MAX = 2;
export const TEXT_SIZE_DEFAULT = 1;

export function parseTextSize(raw: string | null): number {
  const value = Number(raw);
  if (raw === null || !Number.isInteger(value)) return TEXT_SIZE_DEFAULT;
  return Math.min(TEXT_SIZE_MAX, Math.max(TEXT_SIZE_MIN, value));
}

/**
 * The inline head script: tiny, no imports, mirrors parseTextSize; storage may be unavailable (privacy mode).
 * The `js` class promises the bundle will run (it folds the phone menu and the search box behind buttons the
 * bundle makes work), so it is set only where a module script can run at all, and taken back when the bundle's
 * module graph fails to load (blocked, 404, network error): the only module script of a page is the bundle's
 * bootstrap, whose `error` event (it does not bubble) a capturing listener on window sees. Without the class the
 * page is the no-script page, whose controls work as links and forms (decision 0070).
 */
export const PREFERENCES_HEAD_SCRIPT =
  `(function(w,d){var c=d.documentElement.classList;if('noModule' in d.createElement('script')){c.add('${SCRIPT_CLASS}');` +
  `w.addEventListener('error',function(e){var t=e.target;if(t&&t.tagName==='SCRIPT'&&t.type==='module')c.remove('${SCRIPT_CLASS}')},true)}` +
  `try{var s=localStorage;` +
  `if(s.getItem('${THEME_KEY}')==='dark')c.add('${DARK_CLASS}');` +
  `var t=s.getItem('${TEXT_SIZE_KEY}');if(t==='0'||t==='1'||t==='2')d.documentElement.dataset.textSize=t;}catch(e){}})(window,document);`;
