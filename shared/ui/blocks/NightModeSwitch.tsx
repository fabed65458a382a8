/** The header's 夜间/日间 switch: night mode from every page, kept in step with the article float menu's. */
import { useNightMode } from '../lib/preferences';

export function NightModeSwitch({ className }: { className: string }) {
  const [night, setNight] = useNightMode();
  return (
    <button type="button" className={className} aria-pressed={night} onClick={() => setNight(!night)}>
      {night ? '日间' : '夜间'}
    </button>
  );
}
