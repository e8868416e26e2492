import { useEffect } from 'react';

/** Sets the document title to '{title} · Gaia' while the page is shown. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (title) document.title = `${title} · Gaia`;
  }, [title]);
}
