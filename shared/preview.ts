/** The editors' preview as both sides link to it (docs/preview.md); the server's side of it is server/preview/. */
export const PREVIEW_EXIT = '/_preview/exit';
