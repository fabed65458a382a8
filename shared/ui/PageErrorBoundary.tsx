/**
 * The error boundary around every page (shared/ui/App.tsx): a page component that throws while rendering in the
 * browser (after a client navigation, or while hydrating) leaves the portal's error page inside the layout
 * (header, footer and a way home stay) instead of unmounting the app into a blank screen, and the error is
 * reported to the server's log (shared/ui/lib/report-error.ts). Keyed by the page's path where it is used, so the
 * next page starts with a fresh boundary. A server render that throws is the server's to answer (its error page).
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportClientError } from './lib/report-error';
import { ErrorPage } from './StatusPage';

interface Props {
  children: ReactNode;
}

interface State {
  failed: boolean;
}

export class PageErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    reportClientError(error, info.componentStack ?? undefined);
  }

  override render(): ReactNode {
    return this.state.failed ? <ErrorPage status={500} /> : this.props.children;
  }
}
