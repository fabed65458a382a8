/**
 * The header's 夜间/日间 switch: night mode from every page, kept in step with the article float menu's. Kept in
 * localStorage by script, so not rendered before hydration (./ScriptOnly).
 */
import { useNightMode } from '../lib/preferences';
import { useHydrated } from '../lib/use-hydrated';

export function NightModeSwitch({ className }: { className: string }) {
  const [night, setNight] = useNightMode();
  if (!useHydrated()) return null;
  return (
    <button type="button" className={className} aria-pressed={night} onClick={() => setNight(!night)}>
      {night ? '日间' : '夜间'}
    </button>
  );
}
