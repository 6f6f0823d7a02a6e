import { lazy, type ReactNode } from 'react';
import type { IconName } from '../components/icons.tsx';
import { DashboardPage } from '../features/dashboard/DashboardPage.tsx';

const UsersPage = lazy(() => import('../features/users/UsersPage.tsx'));
const UserEditPage = lazy(() => import('../features/users/UserEditPage.tsx'));
const LoginHistoryPage = lazy(() => import('../features/users/LoginHistoryPage.tsx'));
const JobListPage = lazy(() => import('../features/jobs/JobListPage.tsx'));
const TemplateListPage = lazy(() => import('../features/jobs/TemplateListPage.tsx'));
const EndpointsPage = lazy(() => import('../features/endpoints/EndpointsPage.tsx'));
const JobEditPage = lazy(() => import('../features/jobs/edit/JobEditPage.tsx'));
const PresetsPage = lazy(() => import('../features/presets/PresetsPage.tsx'));
const PresetEditPage = lazy(() => import('../features/presets/PresetEditPage.tsx'));
const WatermarksPage = lazy(() => import('../features/watermarks/WatermarksPage.tsx'));
const WatermarkEditPage = lazy(() => import('../features/watermarks/WatermarkEditPage.tsx'));
const StatisticsPage = lazy(() => import('../features/statistics/StatisticsPage.tsx'));
const StatisticsViewPage = lazy(() => import('../features/statistics/StatisticsViewPage.tsx'));
const AlarmsPage = lazy(() => import('../features/alarms/AlarmsPage.tsx'));
const SystemAlarmsPage = lazy(() => import('../features/alarms/SystemAlarmsPage.tsx'));
const AlarmHistoryPage = lazy(() => import('../features/alarms/AlarmHistoryPage.tsx'));
const AlarmSettingsPage = lazy(() => import('../features/alarms/AlarmSettingsPage.tsx'));
const JobAlarmPage = lazy(() => import('../features/alarms/JobAlarmPage.tsx'));
const SettingsPage = lazy(() => import('../features/settings/SettingsPage.tsx'));
const DiagnosticsPage = lazy(() => import('../features/diagnostics/DiagnosticsPage.tsx'));
const MediaCheckerPage = lazy(() => import('../features/tools/MediaCheckerPage.tsx'));
const MtrPage = lazy(() => import('../features/tools/MtrPage.tsx'));
const PingPage = lazy(() => import('../features/tools/PingPage.tsx'));
const KeyframePage = lazy(() => import('../features/tools/KeyframePage.tsx'));
const TimersPage = lazy(() => import('../features/timers/TimersPage.tsx'));
const TimerEditPage = lazy(() => import('../features/timers/TimerEditPage.tsx'));

/** The edit screens of a job kind, or of its templates: one form (spec 01 §2.4, §2.6). */
function jobEditScreens(kind: 'relay' | 'encoding', template: boolean): ScreenRoute[] {
  const p = kind === 'relay' ? 'RELAY' : 'ENCODING';
  const noun = template ? 'template' : kind;
  return [
    // Adding a job needs EDIT or VIEW_EDIT; adding a template needs EDIT (spec 01 §6).
    { path: 'edit', label: `New ${noun}`, anyOf: template ? [`${p}_EDIT`] : [`${p}_EDIT`, `${p}_VIEW_EDIT`], element: <JobEditPage kind={kind} template={template} /> },
    { path: 'edit/:id', label: template ? 'Template' : kind === 'relay' ? 'Relay' : 'Encoding', element: <JobEditPage kind={kind} template={template} /> },
  ];
}

const LogsPage = lazy(() => import('../features/jobs/LogsPage.tsx'));
const BatchLogsPage = lazy(() => import('../features/jobs/BatchLogsPage.tsx'));
const TracePage = lazy(() => import('../features/jobs/TracePage.tsx'));

/** The logs, batch results (view-log or edit, spec 01 §2.9, §6) and trace (view, §2.8) of a job. */
function jobInsightScreens(kind: 'relay' | 'encoding'): ScreenRoute[] {
  const p = kind === 'relay' ? 'RELAY' : 'ENCODING';
  return [
    { path: 'logs/:id', label: 'Logs', anyOf: [`${p}_EDIT`, `${p}_VIEW_LOG`], element: <LogsPage kind={kind} /> },
    { path: 'batch_logs/:id', label: 'Batch Results', anyOf: [`${p}_EDIT`, `${p}_VIEW_LOG`], element: <BatchLogsPage kind={kind} /> },
    { path: 'trace/:id', label: 'Trace', anyOf: [`${p}_VIEW`, `${p}_EDIT`], element: <TracePage kind={kind} /> },
  ];
}

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
  Tools: { icon: 'wrench' },
  Alarms: { icon: 'alert' },
};

/**
 * THE route registry of the console, in sidebar order. Adding an area is one entry here: the
 * sidebar, the routes, the permission guard and the breadcrumbs all follow from it.
 */
export const AREAS: readonly AreaRoute[] = [
  { label: 'Dashboard', path: '/my', icon: 'dashboard', element: <DashboardPage /> },
  { label: 'Relays', path: '/my/relays', icon: 'relay', anyOf: ['RELAY_VIEW', 'RELAY_EDIT'], element: <JobListPage kind="relay" />, screens: [...jobEditScreens('relay', false), ...jobInsightScreens('relay')] },
  { label: 'Relay templates', path: '/my/relays/templates', icon: 'template', anyOf: ['RELAY_VIEW', 'RELAY_EDIT'], element: <TemplateListPage kind="relay" />, screens: jobEditScreens('relay', true) },
  { label: 'Encodings', path: '/my/encodings', icon: 'encoding', anyOf: ['ENCODING_VIEW', 'ENCODING_EDIT'], element: <JobListPage kind="encoding" />, screens: [...jobEditScreens('encoding', false), ...jobInsightScreens('encoding')] },
  { label: 'Encoding templates', path: '/my/encodings/templates', icon: 'template', anyOf: ['ENCODING_VIEW', 'ENCODING_EDIT'], element: <TemplateListPage kind="encoding" />, screens: jobEditScreens('encoding', true) },
  // Spec 03 §6: presets are viewed with ENCODING_VIEW and changed with ENCODING_EDIT or ENCODING_VIEW_EDIT.
  {
    label: 'Presets',
    path: '/my/presets',
    icon: 'sliders',
    anyOf: ['ENCODING_VIEW', 'ENCODING_EDIT'],
    element: <PresetsPage />,
    screens: [
      { path: 'edit/video', label: 'Add video preset', anyOf: ['ENCODING_EDIT', 'ENCODING_VIEW_EDIT'], element: <PresetEditPage type="video" /> },
      { path: 'edit/video/:id', label: 'Video preset', element: <PresetEditPage type="video" /> },
      { path: 'edit/audio', label: 'Add audio preset', anyOf: ['ENCODING_EDIT', 'ENCODING_VIEW_EDIT'], element: <PresetEditPage type="audio" /> },
      { path: 'edit/audio/:id', label: 'Audio preset', element: <PresetEditPage type="audio" /> },
      { path: 'clone/:type/:id', label: 'Clone preset', anyOf: ['ENCODING_EDIT', 'ENCODING_VIEW_EDIT'], element: <PresetEditPage clone /> },
    ],
  },
  // Spec 03 §6: watermarks are viewed with ENCODING_VIEW; Add New needs ENCODING_EDIT.
  {
    label: 'Watermarks',
    path: '/my/watermarks',
    icon: 'image',
    anyOf: ['ENCODING_VIEW', 'ENCODING_EDIT'],
    element: <WatermarksPage />,
    screens: [
      { path: 'edit', label: 'Add watermark', anyOf: ['ENCODING_EDIT'], element: <WatermarkEditPage /> },
      { path: 'edit/:id', label: 'Watermark', element: <WatermarkEditPage /> },
    ],
  },
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
  // Spec 03 §2, §6: the Tools group; TOOLS_VIEW views the tools, TOOLS_EDIT changes timers (the catalogue has no TIMER pair).
  { label: 'Media Checker', path: '/my/tools/mediachecker', icon: 'search', group: 'Tools', anyOf: ['TOOLS_VIEW', 'TOOLS_EDIT'], element: <MediaCheckerPage /> },
  { label: 'MTR', path: '/my/tools/mtr', icon: 'link', group: 'Tools', anyOf: ['TOOLS_VIEW', 'TOOLS_EDIT'], element: <MtrPage /> },
  { label: 'Ping', path: '/my/tools/ping', icon: 'activity', group: 'Tools', anyOf: ['TOOLS_VIEW', 'TOOLS_EDIT'], element: <PingPage /> },
  {
    label: 'Timers',
    path: '/my/tools/timers',
    icon: 'clock',
    group: 'Tools',
    anyOf: ['TOOLS_VIEW', 'TOOLS_EDIT'],
    element: <TimersPage />,
    screens: [
      { path: 'edit', label: 'Add timer', anyOf: ['TOOLS_EDIT'], element: <TimerEditPage /> },
      { path: 'edit/:id', label: 'Timer', element: <TimerEditPage /> },
    ],
  },
  { label: 'Keyframe Interval', path: '/my/tools/keyframe', icon: 'image', group: 'Tools', anyOf: ['TOOLS_VIEW', 'TOOLS_EDIT'], element: <KeyframePage /> },
  { label: 'Statistics', path: '/my/statistics', icon: 'history', anyOf: ['STATISTICS_VIEW'], element: <StatisticsPage />, screens: [{ path: 'view/:type/:id', label: 'Statistics', element: <StatisticsViewPage /> }] },
  // Spec 03 Alarms; §6: ALARMS_VIEW views, ALARMS_EDIT changes settings and deletes.
  { label: 'Alarms', path: '/my/alarms', icon: 'alert', group: 'Alarms', anyOf: ['ALARMS_VIEW', 'ALARMS_EDIT'], element: <AlarmsPage />, screens: [{ path: 'jobs/:id', label: 'Job alarm', element: <JobAlarmPage /> }] },
  { label: 'System Alarms', path: '/my/alarms/system', icon: 'activity', group: 'Alarms', anyOf: ['ALARMS_VIEW', 'ALARMS_EDIT'], element: <SystemAlarmsPage /> },
  { label: 'Sent Alarms', path: '/my/alarms/history', icon: 'history', group: 'Alarms', anyOf: ['ALARMS_VIEW', 'ALARMS_EDIT'], element: <AlarmHistoryPage /> },
  { label: 'General settings', path: '/my/alarms/settings', icon: 'sliders', group: 'Alarms', anyOf: ['ALARMS_VIEW', 'ALARMS_EDIT'], element: <AlarmSettingsPage /> },
  { label: 'Diagnostic Check', path: '/my/versions', icon: 'check', anyOf: ['DIAGNOSTICS_CHECK_VIEW'], element: <DiagnosticsPage /> },
  // Spec 03 System settings; §6: SETTINGS_VIEW/EDIT for the settings tabs, STREAM_POOL_VIEW/EDIT for the servers tab.
  { label: 'System settings', path: '/my/settings', icon: 'sliders', anyOf: ['SETTINGS_VIEW', 'SETTINGS_EDIT', 'STREAM_POOL_VIEW', 'STREAM_POOL_EDIT'], element: <SettingsPage /> },
  { label: 'Endpoints', path: '/my/endpoints', icon: 'link', anyOf: ['ENCODING_VIEW', 'ENCODING_EDIT', 'SETTINGS_VIEW', 'SETTINGS_EDIT'], element: <EndpointsPage /> },
];

export function mayOpen(route: { anyOf?: readonly string[]; feature?: string; group?: string }, granted: ReadonlySet<string>, features: Record<string, boolean>): boolean {
  const feature = route.feature ?? (route.group ? SIDEBAR_GROUPS[route.group]?.feature : undefined);
  if (feature && !features[feature]) return false;
  return !route.anyOf || route.anyOf.some((name) => granted.has(name));
}
