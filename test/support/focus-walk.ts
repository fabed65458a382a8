/**
 * A page as a screen reader and a keyboard reader meet it (the page sweep's sweep-checks.ts, hostile-content.test.ts):
 * its landmarks and headings in Chromium's accessibility tree, and a walk with Tab through the whole page that
 * opens every popup on the way, checking focus is never on an element a reader cannot see.
 */
import type { CDPSession, Page } from 'playwright-core';
import { BACK_TO_TOP_THRESHOLD_PX } from '../../shared/constants';

interface AXNode {
  ignored: boolean;
  role?: { value: string };
  name?: { value: string };
}

const LANDMARKS = new Set(['banner', 'main', 'contentinfo', 'navigation', 'region', 'complementary', 'search', 'form']);
const ONCE = new Set(['banner', 'main', 'contentinfo']);

/**
 * What is wrong with the page's landmarks and headings in the accessibility tree; empty when nothing is. `bare`:
 * a page drawn without the site's header and footer (reading mode), which has no banner or contentinfo at all.
 */
export async function treeProblems(page: Page, cdp: CDPSession, bare = false): Promise<string[]> {
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] };
  const exposed = nodes.filter((node) => !node.ignored);
  const landmarks = exposed
    .filter((node) => LANDMARKS.has(node.role?.value ?? ''))
    .map((node) => ({ role: node.role!.value, name: node.name?.value?.trim() ?? '' }));
  const problems: string[] = [];
  for (const role of ONCE) {
    const count = landmarks.filter((landmark) => landmark.role === role).length;
    if (count !== (bare && role !== 'main' ? 0 : 1)) problems.push(`${count} ${role} landmarks`);
  }
  const seen = new Set<string>();
  for (const { role, name } of landmarks) {
    if (ONCE.has(role)) continue;
    if (!name) problems.push(`a ${role} landmark without a name`);
    else if (seen.has(`${role}:${name}`)) problems.push(`two ${role} landmarks named ${name}`);
    seen.add(`${role}:${name}`);
  }
  const treeHeadings = exposed.filter((node) => node.role?.value === 'heading').map((node) => node.name?.value?.trim() ?? '');
  const pageHeadings = await page.$$eval('h1, h2, h3, h4, h5, h6', (elements) =>
    elements
      .filter((element) => element.checkVisibility({ visibilityProperty: true }) && !element.closest('[aria-hidden="true"], [hidden]'))
      .map((element) => element.textContent!.replace(/\s+/g, ' ').trim()),
  );
  const missing = pageHeadings.filter((heading) => !treeHeadings.some((name) => name.replace(/\s+/g, ' ') === heading));
  if (missing.length > 0) problems.push(`headings not in the accessibility tree: ${missing.join(', ')}`);
  return problems;
}

/** Where focus is after a key, and what the walk needs to know of it, asked in one round trip to the page. */
interface Stop {
  /** The child indexes from the focused element up to the root; 'body' when only the page has focus. */
  key: string;
  /** Why the focused element is not one a reader can see; null when it is (or only the page has focus). */
  hidden: string | null;
  /** It opens a popup or a panel (and is a button, so Enter does not follow a link). */
  trigger: boolean;
}

/**
 * The stop focus is at. When a key scrolled the page across the back-to-top button's threshold, the button's scroll
 * listener sees the event on the next frame and renders after it, so two frames pass first; a walk pressing on
 * sooner would Tab past (or onto) a button the scroll has just brought (or taken away), and its stop count would
 * depend on the machine's speed. Only then: waiting after every scroll would double the walk. A hidden focus is
 * asked again on every frame for up to 3 s, since a control may move focus, or bring it into view, a frame or two
 * after the key (a carousel sliding its focused slide in, a panel closing).
 */
function stopOf(page: Page): Promise<Stop> {
  return page.evaluate(async (threshold) => {
    const shown = (y: number) => y > threshold;
    const walked = window as unknown as { __walkScrollY?: number };
    if (shown(window.scrollY) !== shown(walked.__walkScrollY ?? 0)) {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }
    walked.__walkScrollY = window.scrollY;
    const reason = (): string | null => {
      const focused = document.activeElement;
      if (!focused || focused === document.body) return null;
      const what = `${focused.tagName.toLowerCase()}${focused.className ? `.${String(focused.className).trim().split(/\s+/).join('.')}` : ''} "${(focused.getAttribute('aria-label') ?? focused.textContent ?? '').trim().slice(0, 20)}"`;
      const box = focused.getBoundingClientRect();
      if (box.width < 1 || box.height < 1) return `${what}: ${box.width}×${box.height} px`;
      if (!focused.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return `${what}: display:none, visibility:hidden or transparent`;
      if (focused.closest('[aria-hidden="true"]')) return `${what}: inside aria-hidden`;
      // Clipped away by a box it sits in (a carousel's slide swiped out of view); a modal dialog or an open
      // popover is drawn in the top layer, out of reach of its ancestors' clipping.
      for (let node: Element = focused; node.parentElement && !node.matches(':modal, :popover-open'); node = node.parentElement) {
        const style = getComputedStyle(node.parentElement);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const clip = node.parentElement.getBoundingClientRect();
        if (box.right <= clip.left + 1 || box.left >= clip.right - 1 || box.bottom <= clip.top + 1 || box.top >= clip.bottom - 1)
          return `${what}: clipped out of view`;
      }
      return null;
    };
    const deadline = performance.now() + 3_000;
    let hidden = reason();
    while (hidden !== null && performance.now() < deadline) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      hidden = reason();
    }
    const focused = document.activeElement;
    if (!focused || focused === document.body) return { key: 'body', hidden, trigger: false };
    const path: number[] = [];
    for (let node: Element | null = focused; node && node.parentElement; node = node.parentElement) path.push([...node.parentElement.children].indexOf(node));
    const trigger = focused.tagName === 'BUTTON' && (focused.hasAttribute('aria-expanded') || focused.hasAttribute('aria-haspopup'));
    return { key: path.join('/'), hidden, trigger };
  }, BACK_TO_TOP_THRESHOLD_PX);
}

/**
 * Tabs through the whole page (until focus comes back round); at every stop focus is visible, and at every popup
 * trigger Enter, a Tab into what opened and Escape each leave focus visible too. Returns what went wrong.
 */
export async function walkPage(page: Page): Promise<{ stops: number; triggers: number; problems: string[] }> {
  const problems: string[] = [];
  const check = async (step: string): Promise<Stop> => {
    const stop = await stopOf(page);
    if (stop.hidden) problems.push(`${step}: ${stop.hidden}`);
    return stop;
  };
  let triggers = 0;
  const visited = new Set<string>();
  let stops = 0;
  let previous = '';
  for (; stops < 600; stops += 1) {
    await page.keyboard.press('Tab');
    const stop = await stopOf(page);
    // Tab through an element's own controls (a <video>'s play, time, volume…): focus stays on the element itself.
    if (stop.key === previous) continue;
    previous = stop.key;
    if (stop.key === 'body' || visited.has(stop.key)) break;
    visited.add(stop.key);
    if (stop.hidden) problems.push(`Tab ${stops}: ${stop.hidden}`);
    if (!stop.trigger) continue;
    triggers += 1;
    await page.keyboard.press('Enter');
    await check(`Enter on trigger ${triggers}`);
    await page.keyboard.press('Tab');
    await check(`Tab after opening trigger ${triggers}`);
    await page.keyboard.press('Escape');
    const escaped = await check(`Escape after trigger ${triggers}`);
    // Back to the trigger (Escape may have put focus there already), and Escape once more to close what it opened.
    if (!escaped.trigger) await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Escape');
    visited.add((await check(`Escape on trigger ${triggers}`)).key);
  }
  return { stops, triggers, problems };
}

/**
 * Follows 跳到正文 from the keyboard (focus on it, Enter) and then presses Tab: what went wrong, empty when focus
 * went into <main> and the next Tab went on from there (a keyboard reader skips the header's links, as the link
 * says), into the content or, when it has nothing to focus, past it.
 */
export async function skipLinkProblems(page: Page): Promise<string[]> {
  const skip = page.locator('a.skip-link');
  if ((await skip.count()) !== 1) return [`${await skip.count()} skip links`];
  await skip.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.location.hash === '#main');
  // 'main' when focus is in it; 'after' past its end (a page whose content has nothing to focus, the footer next).
  const where = () =>
    page.evaluate(() => {
      const active = document.activeElement;
      const main = document.querySelector('main');
      if (!active || !main) return `${String(active?.tagName)} without a main`;
      if (main.contains(active)) return 'main';
      if (main.compareDocumentPosition(active) & Node.DOCUMENT_POSITION_FOLLOWING) return 'after';
      return active.outerHTML.slice(0, 60);
    });
  const afterEnter = await where();
  await page.keyboard.press('Tab');
  const afterTab = await where();
  const problems: string[] = [];
  if (afterEnter !== 'main') problems.push(`after 跳到正文 focus is on ${afterEnter}`);
  if (afterTab !== 'main' && afterTab !== 'after') problems.push(`the Tab after 跳到正文 goes back to ${afterTab}`);
  return problems;
}
