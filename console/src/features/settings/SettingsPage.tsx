import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../components/Page.tsx';
import { useCan, useCurrentUser } from '../../data/auth/queries.ts';
import { useLiveUpdates } from '../../data/live.ts';
import { useApplicationSettings, useFeatureSettings, useLogSettings, useRedisSettings, useStreampoolServers } from '../../data/settings/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import '../../styles/settings.css';
import { ApplicationTab, RedisTab } from './ApplicationTab.tsx';
import { FeaturesTab } from './FeaturesTab.tsx';
import { LogSettingsTab } from './LogSettingsTab.tsx';
import { StreampoolServersTab } from './StreampoolServersTab.tsx';

type TabKey = 'application' | 'redis' | 'rixui-log' | 'rixjob-log' | 'features' | 'streampool-servers';

/** Loading, an error, or the tab once its data is there. */
function Loaded<T>({ query, children }: { query: { isPending: boolean; isError: boolean; error: Error | null; data?: T }; children: (data: T) => ReactNode }) {
  if (query.isPending) return <div className="page-loading">Loading ...</div>;
  if (query.isError || query.data === undefined)
    return (
      <div className="notice notice-error" role="alert">
        {query.error?.message ?? 'Could not load the settings.'}
      </div>
    );
  return <>{children(query.data)}</>;
}

function ApplicationPanel({ readOnly }: { readOnly: boolean }) {
  return <Loaded query={useApplicationSettings()}>{(data) => <ApplicationTab initial={data} readOnly={readOnly} />}</Loaded>;
}
function RedisPanel({ readOnly }: { readOnly: boolean }) {
  return <Loaded query={useRedisSettings()}>{(data) => <RedisTab key={`${data.redisHost}-${data.connected}`} initial={data} readOnly={readOnly} />}</Loaded>;
}
function LogPanel({ target, title, readOnly }: { target: 'rixui' | 'rixjob'; title: string; readOnly: boolean }) {
  return <Loaded query={useLogSettings(target)}>{(data) => <LogSettingsTab key={target} target={target} title={title} initial={data} readOnly={readOnly} />}</Loaded>;
}
function FeaturesPanel() {
  return <Loaded query={useFeatureSettings()}>{(data) => <FeaturesTab initial={data.features} />}</Loaded>;
}
function ServersPanel({ canEdit }: { canEdit: boolean }) {
  return <Loaded query={useStreampoolServers()}>{(data) => <StreampoolServersTab servers={data.items} canEdit={canEdit} />}</Loaded>;
}

/**
 * /my/settings (spec 03 System settings): tabs Application Settings, Redis Settings, RixUI Log
 * Settings, Rixjob Log Settings, Rixjob Features (ADMIN only) and Streampool Server Settings
 * (STREAM_POOL_VIEW or STREAM_POOL_EDIT). SETTINGS_EDIT shows the Update buttons and Add logger.
 */
export default function SettingsPage() {
  usePageTitle('System settings');
  const isAdmin = useCurrentUser().role.value === 'ADMIN';
  const canView = useCan('SETTINGS_VIEW', 'SETTINGS_EDIT');
  const canEdit = useCan('SETTINGS_EDIT');
  const canSeeServers = useCan('STREAM_POOL_VIEW', 'STREAM_POOL_EDIT');
  const canEditServers = useCan('STREAM_POOL_EDIT');
  const tabs: Array<{ key: TabKey; label: string; shown: boolean }> = [
    { key: 'application', label: 'Application Settings', shown: canView },
    { key: 'redis', label: 'Redis Settings', shown: canView },
    { key: 'rixui-log', label: 'RixUI Log Settings', shown: canView },
    { key: 'rixjob-log', label: 'Rixjob Log Settings', shown: canView },
    { key: 'features', label: 'Rixjob Features', shown: isAdmin },
    { key: 'streampool-servers', label: 'Streampool Server Settings', shown: canSeeServers },
  ];
  const shown = tabs.filter((t) => t.shown);
  const [params, setParams] = useSearchParams();
  const active = shown.find((t) => t.key === params.get('tab')) ?? shown[0];
  // Any API process changing a setting refreshes what this screen shows.
  useLiveUpdates(['settings']);

  return (
    <div className="page settings-page">
      <PageHeader title="System settings" />
      <div className="settings-tabs" role="tablist" aria-label="System settings">
        {shown.map((tab) => (
          <button
            key={tab.key}
            type="button"
            role="tab"
            aria-selected={tab.key === active?.key}
            className={tab.key === active?.key ? 'settings-tab is-active' : 'settings-tab'}
            onClick={() => setParams({ tab: tab.key }, { replace: true })}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={active?.label} className="settings-panel">
        {active?.key === 'application' && <ApplicationPanel readOnly={!canEdit} />}
        {active?.key === 'redis' && <RedisPanel readOnly={!canEdit} />}
        {active?.key === 'rixui-log' && <LogPanel target="rixui" title="RixUI Log Settings" readOnly={!canEdit} />}
        {active?.key === 'rixjob-log' && <LogPanel target="rixjob" title="Rixjob Log Settings" readOnly={!canEdit} />}
        {active?.key === 'features' && <FeaturesPanel />}
        {active?.key === 'streampool-servers' && <ServersPanel canEdit={canEditServers} />}
      </div>
    </div>
  );
}
