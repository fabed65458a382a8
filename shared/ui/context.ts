/** React contexts shared by the server render and the hydrated client. */
import { createContext, useContext } from 'react';
import type { AppState, PageState, PublicUser } from '../app-state';
import type { ImagePipeline } from '../image-pipeline';
import type { ResourceStore } from './data/resource-store';

export interface PortalContextValue {
  state: AppState;
  /** CSP nonce of this response (server) or '' in the browser, where the attribute is never re-applied. */
  nonce: string;
  resources: ResourceStore;
  /** True while a client navigation is loading. */
  navigating: boolean;
  /** In the browser: show a refreshed profile (header and personal center) without a reload. */
  updateUser?: (user: PublicUser) => void;
}

export const PortalContext = createContext<PortalContextValue | null>(null);

export function usePortal(): PortalContextValue {
  const value = useContext(PortalContext);
  if (!value) throw new Error('usePortal outside <PortalContext.Provider>');
  return value;
}

/** Where pictures are resized: what every `srcset` goes through (shared/image-pipeline.ts). */
export function useImages(): ImagePipeline {
  return usePortal().state.images;
}

export function usePage(): PageState {
  return usePortal().state.page;
}
