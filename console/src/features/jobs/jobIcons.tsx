import type { SVGProps } from 'react';
import { SvgIcon } from '../../components/icons.tsx';

/** Icons of the job screens, drawn like components/icons.tsx (24-unit grid, stroke = currentColor). */
const PATHS = {
  hardRestart: <><path d="M23 4v6h-6" /><path d="M20.49 15a9 9 0 1 1-2.12-9.36L23 10" /></>,
  softRestart: <><path d="M1 4v6h6" /><path d="M3.51 15a9 9 0 1 0 2.13-9.36L1 10" /></>,
  reload: <><path d="M10.29 3.86 1.82 18a2 2 0 0 0 1.71 3h16.94a2 2 0 0 0 1.71-3L13.71 3.86a2 2 0 0 0-3.42 0z" /><path d="M12 9v4M12 17h.01" /></>,
  logs: <><path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z" /><path d="M14 2v6h6M16 13H8M16 17H8M10 9H8" /></>,
  more: <><circle cx="12" cy="5" r="1" /><circle cx="12" cy="12" r="1" /><circle cx="12" cy="19" r="1" /></>,
  comment: <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />,
  template: <><rect x="3" y="3" width="18" height="18" rx="2" /><path d="M3 9h18M9 21V9" /></>,
  play: <path d="M5 3l14 9-14 9V3z" />,
  stop: <rect x="5" y="5" width="14" height="14" rx="1" />,
  relay: <><path d="M4 12h16" /><path d="M14 6l6 6-6 6" /><circle cx="4" cy="12" r="2" /></>,
  encoding: <><rect x="2" y="4" width="20" height="14" rx="2" /><path d="M8 21h8M12 18v3M9 9l-2 2 2 2M15 9l2 2-2 2" /></>,
  link: <><path d="M10 13a5 5 0 0 0 7.54.54l3-3a5 5 0 0 0-7.07-7.07l-1.72 1.71" /><path d="M14 11a5 5 0 0 0-7.54-.54l-3 3a5 5 0 0 0 7.07 7.07l1.71-1.71" /></>,
} as const;

export type JobIconName = keyof typeof PATHS;

export function JobIcon({ name, ...rest }: { name: JobIconName; size?: number } & SVGProps<SVGSVGElement>) {
  return <SvgIcon {...rest}>{PATHS[name]}</SvgIcon>;
}
