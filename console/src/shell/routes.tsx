import { lazy, type ReactNode } from 'react';
import type { IconName } from '../components/icons.tsx';
import { DashboardPage } from '../features/dashboard/DashboardPage.tsx';

const UsersPage = lazy(() => import('../features/users/UsersPage.tsx'));
const UserEditPage = lazy(() => import('../features/users/UserEditPage.tsx'));
const LoginHistoryPage = lazy(() => import('../features/users/LoginHistoryPage.tsx'));

/** A screen inside an area (an edit form, a history ...). */
export interface ScreenRoute {
  /** Path under the area's, e.g. "edit/:id". */
  path: string;
  /** Breadcrumb label (a screen may name itself better with usePageTitle). */
  label: string;
  /** Narrower than the area's permissions, when the screen needs more (any-of). */
  anyOf?: readonly string[];
  element: ReactNode;
}

/** An area of the console: one sidebar entry with its screens. */
export interface AreaRoute {
  /** Sidebar and breadcrumb label, as the spec spells it. */
  label: string;
  /** Absolute path of the area's main screen, e.g. "/my/users". */
  path: string;
  icon: IconName;
  /** The area shows to holders of any one of these; absent: to every signed-in user. */
  anyOf?: readonly string[];
  /** Shown only while this system feature is on (SystemInfo.features), e.g. "ads". */
  feature?: string;
  /** Sidebar group the entry sits in (e.g. "Ad", "Tools", "Settings"); absent: top level. */
  group?: string;
  element: ReactNode;
  screens?: readonly ScreenRoute[];
}

/** Sidebar groups: their icon, and a feature that gates the whole group. */
export const SIDEBAR_GROUPS: Record<string, { icon: IconName; feature?: string }> = {
  Ad: { icon: 'dashboard', feature: 'ads' },
};

/**
 * THE route registry of the console, in sidebar order. Adding an area is one entry here: the
 * sidebar, the routes, the permission guard and the breadcrumbs all follow from it.
 */
export const AREAS: readonly AreaRoute[] = [
  { label: 'Dashboard', path: '/my', icon: 'dashboard', element: <DashboardPage /> },
  {
    label: 'Users',
    path: '/my/users',
    icon: 'users',
    anyOf: ['USER_VIEW', 'USER_EDIT'],
    element: <UsersPage />,
    screens: [
      { path: 'edit', label: 'Add user', anyOf: ['USER_EDIT'], element: <UserEditPage /> },
      { path: 'edit/:id', label: 'User', element: <UserEditPage /> },
      { path: 'histories', label: 'User history', anyOf: ['USER_EDIT'], element: <LoginHistoryPage /> },
    ],
  },
];

export function mayOpen(route: { anyOf?: readonly string[]; feature?: string; group?: string }, granted: ReadonlySet<string>, features: Record<string, boolean>): boolean {
  const feature = route.feature ?? (route.group ? SIDEBAR_GROUPS[route.group]?.feature : undefined);
  if (feature && !features[feature]) return false;
  return !route.anyOf || route.anyOf.some((name) => granted.has(name));
}
