/**
 * Like, collect and subscribe buttons (docs/product.md §4, §5). Toggle buttons with aria-pressed; the label says the state
 * ('点赞' / '已点赞', '收藏' / '已收藏', '订阅' / '已订阅'). Rendered off on the server for everyone; the reader's
 * own state arrives after hydration (shared/ui/lib/use-interactions.ts). They call the accounts API, so they are not
 * rendered before hydration (a reader without script meets no dead button).
 */
import { useMemo } from 'react';
import { INTERACTION_LABELS } from '../../interactions';
import type { InteractionKind, SubscriptionKind } from '../../types/interactions';
import { useHydrated } from '../lib/use-hydrated';
import { useInteractionGroup, useLikeCount, type InteractionControls } from '../lib/use-interactions';

export interface InteractionButtonProps {
  kind: InteractionKind;
  id: number;
  controls: InteractionControls;
  className: string;
  /** Who or what the button acts on, for screen readers when several such buttons share a page. */
  subject?: string;
  count?: number | null;
}

export function InteractionButton({ kind, id, controls, className, subject, count }: InteractionButtonProps) {
  const on = controls.isOn(id);
  const busy = controls.isBusy(id);
  const labels = INTERACTION_LABELS[kind];
  if (!useHydrated()) return null;
  return (
    <button
      type="button"
      className={`${className} interaction${on ? ' interaction--on' : ''}`}
      data-interaction={kind}
      aria-pressed={on}
      aria-busy={busy || undefined}
      onClick={() => controls.toggle(id)}
    >
      <span className="interaction__label">{on ? labels.on : labels.off}</span>
      {subject && <span className="visually-hidden">：{subject}</span>}
      {count !== undefined && count !== null && <span className="interaction__count">{count}</span>}
    </button>
  );
}

/** An article's (or video's) like and collect buttons; the like count is read again after each change. */
export function ArticleMarkButtons(props: { catid: number; id: number; collectKind: 'collection' | 'collection_video'; withLike: boolean; className: string }) {
  const { catid, id, collectKind, withLike, className } = props;
  const likeGroup = useMemo(() => ({ kind: 'thumbsup' as const, catid, ids: withLike ? [id] : [] }), [catid, id, withLike]);
  const collectGroup = useMemo(() => ({ kind: collectKind, catid, ids: [id] }), [collectKind, catid, id]);
  const { count, refresh } = useLikeCount(catid, id, withLike);
  const likes = useInteractionGroup(likeGroup, refresh);
  const collections = useInteractionGroup(collectGroup);
  return (
    <>
      {withLike && <InteractionButton kind="thumbsup" id={id} controls={likes} className={className} count={count} />}
      <InteractionButton kind={collectKind} id={id} controls={collections} className={className} />
    </>
  );
}

/** One subscribe button for the author or tag a page is about. */
export function SubscribeButton({ kind, id, subject }: { kind: SubscriptionKind; id: number; subject: string }) {
  const group = useMemo(() => ({ kind, ids: [id] }), [kind, id]);
  const controls = useInteractionGroup(group);
  return <InteractionButton kind={kind} id={id} controls={controls} className="subscribe-button" subject={subject} />;
}
