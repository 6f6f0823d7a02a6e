import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

/** What a screen says about itself in the header's last breadcrumb (e.g. "User bob"). */
const PageTitleContext = createContext<{ title: string | undefined; setTitle: (title: string | undefined) => void }>({ title: undefined, setTitle: () => {} });

export function PageTitleProvider({ children }: { children: ReactNode }) {
  const [title, setTitle] = useState<string | undefined>(undefined);
  return <PageTitleContext.Provider value={{ title, setTitle }}>{children}</PageTitleContext.Provider>;
}

/** Names the current page in the breadcrumbs and the browser tab while the screen is shown. */
export function usePageTitle(title: string | undefined): void {
  const { setTitle } = useContext(PageTitleContext);
  useEffect(() => {
    setTitle(title);
    if (title) document.title = `${title} · Mediaplane`;
    return () => setTitle(undefined);
  }, [title, setTitle]);
}

export function useCurrentPageTitle(): string | undefined {
  return useContext(PageTitleContext).title;
}
