/**
 * React side of the interactions: a group of like, collect or subscribe buttons of one kind shares one state,
 * filled after hydration by one batch_exist call for a signed-in reader (per-reader state is never in the
 * server's HTML, which is cached for everyone). A click flips the button at once and settles it with the CMS's
 * answer, or flips it back with a toast. A visitor's click opens the sign-in dialog and is done after sign-in.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { EMPTY_GROUP_STATE, failureMessage, groupReducer, isOn, targetOf } from '../../interactions';
import { NO_RESPONSE_ENVELOPE } from '../../types/envelope';
import type { InteractionGroup } from '../../types/interactions';
import { requestSignIn } from '../blocks/LoginModal';
import { showToast } from '../blocks/Toast';
import { usePortal } from '../context';
import { fetchGroupStates, fetchLikeCount, toggleInteraction } from './interactions-api';
import { forgetPending, pendingFor, rememberPending } from './pending-interaction';

export interface InteractionControls {
  isOn(id: number): boolean;
  isBusy(id: number): boolean;
  toggle(id: number): void;
}

/**
 * The subscribe group of a list of columnists, keyed by their ids rather than the array: the same authors after a
 * re-render are the same group, a new page of authors is a new one.
 */
export function useAuthorGroup(authors: readonly { id: number }[]): InteractionGroup {
  const ids = authors.map((author) => author.id).join(',');
  return useMemo(() => ({ kind: 'author', ids: ids === '' ? [] : ids.split(',').map(Number) }), [ids]);
}

export function useInteractionGroup(group: InteractionGroup, onSettled?: (id: number, on: boolean) => void): InteractionControls {
  const { state } = usePortal();
  const signedIn = state.user !== null;
  const path = state.page.path;
  const [groupState, dispatch] = useReducer(groupReducer, EMPTY_GROUP_STATE);
  // Read by callbacks that outlive a render: the latest values, not the ones of the render that made them.
  const latest = useRef({ group, groupState, onSettled });
  latest.current = { group, groupState, onSettled };
  // Set synchronously on click, so a double click cannot send two toggles before the next render.
  const inFlight = useRef(new Set<number>());
  const groupKey = JSON.stringify(group);

  const send = useCallback(async (id: number, previous: boolean) => {
    const { group: current } = latest.current;
    inFlight.current.add(id);
    dispatch({ type: 'start', id });
    const result = await toggleInteraction(targetOf(current, id));
    inFlight.current.delete(id);
    if (result.ok) {
      dispatch({ type: 'settled', id, on: result.on });
      latest.current.onSettled?.(id, result.on);
      return;
    }
    dispatch({ type: 'failed', id, previous });
    showToast(failureMessage(current.kind, result.code));
  }, []);

  useEffect(() => {
    dispatch({ type: 'reset' });
    inFlight.current.clear();
    if (!signedIn) return;
    let live = true;
    const current = latest.current.group;
    const pending = pendingFor(current, path);
    void fetchGroupStates(current).then((states) => {
      // A newer run of this effect took over: it finds the pending click still stored and acts on it.
      if (!live) return;
      if (states) dispatch({ type: 'loaded', states });
      // Claimed by whoever gets here first: another group holding the same target finds it gone.
      if (!pending || pendingFor(current, path) === null) return;
      forgetPending();
      // Without the reader's current state a toggle could undo what they already had: do nothing, say so.
      if (!states) return showToast(failureMessage(current.kind, NO_RESPONSE_ENVELOPE.code));
      // The visitor asked to like (collect, subscribe); if that is already so, there is nothing to do.
      if (states.get(pending.id) !== true && !inFlight.current.has(pending.id)) void send(pending.id, false);
    });
    return () => {
      live = false;
    };
  }, [signedIn, groupKey, path, send]);

  const toggle = useCallback(
    (id: number) => {
      const { group: current, groupState: shown } = latest.current;
      if (!signedIn) {
        rememberPending(targetOf(current, id), path);
        // Closing the dialog means "not now": the click is not done at some later sign-in.
        requestSignIn({ onDismiss: forgetPending });
        return;
      }
      if (inFlight.current.has(id)) return;
      void send(id, isOn(shown, id));
    },
    [signedIn, path, send],
  );

  return {
    isOn: (id) => isOn(groupState, id),
    isBusy: (id) => groupState.busy.has(id),
    toggle,
  };
}

/** An article's like count, read after hydration (it changes with every like; the cached page must not hold it). */
export function useLikeCount(catid: number, id: number, enabled = true): { count: number | null; refresh: () => void } {
  const [count, setCount] = useState<number | null>(null);
  const [version, setVersion] = useState(0);
  // Another article (a client navigation): its count is not known yet.
  useEffect(() => setCount(null), [catid, id]);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void fetchLikeCount(catid, id).then((num) => {
      // A failed read keeps what is shown (docs/product.md §8: state does not change).
      if (live && num !== null) setCount(num);
    });
    return () => {
      live = false;
    };
  }, [catid, id, enabled, version]);
  const refresh = useCallback(() => setVersion((value) => value + 1), []);
  return { count, refresh };
}
