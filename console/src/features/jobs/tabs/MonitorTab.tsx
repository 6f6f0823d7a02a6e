import { useEffect, useId, useMemo, useState } from 'react';
import { Icon } from '../../../components/icons.tsx';
import { LOADING_TEXT } from '../../../components/list/ListTable.tsx';
import { useGranted } from '../../../data/auth/queries.ts';
import { messageOf } from '../../../data/client.ts';
import type { JobKind } from '../../../data/jobs/keys.ts';
import type { Job } from '../../../data/jobs/queries.ts';
import { useJobInsightLive } from '../../../data/job-insights/live.ts';
import { useJobMonitor, type JobMonitor, type MonitorDelivery } from '../../../data/job-insights/queries.ts';
import '../../../styles/job-insights.css';
import { JOB_KINDS, OUTPUT_TYPE_LABELS } from '../jobLabels.ts';
import { insightTabs } from '../logs/insightTabs.ts';
import { MonitorPlayer } from '../monitor/MonitorPlayer.tsx';
import type { PlayerFailure } from '../monitor/players.ts';
import { SrtStatsTable, type SrtLink } from '../monitor/SrtStatsTable.tsx';

const NO_TOKEN = '';

function deliveryLabel(delivery: MonitorDelivery, all: readonly MonitorDelivery[]): string {
  const type = OUTPUT_TYPE_LABELS[delivery.outputType] ?? delivery.outputType;
  const siblings = all.filter((d) => d.outputPosition === delivery.outputPosition).length;
  return `Output ${delivery.outputPosition + 1} · ${type}${siblings > 1 ? ` (${delivery.type.toUpperCase()})` : ''}`;
}

function withToken(url: string, token: string): string {
  return token ? `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}` : url;
}

function srtLinks(monitor: JobMonitor | undefined, job: Job): { inputs: SrtLink[]; outputs: SrtLink[] } {
  return {
    inputs: (monitor?.inputs ?? []).map((link) => ({ label: link.index === 0 ? 'Input' : 'Failover input', stats: link.srtStat })),
    outputs: (monitor?.outputs ?? []).map((link) => {
      const type = job.outputs[link.position]?.type;
      return { label: `Output ${link.position + 1}${type ? ` (${OUTPUT_TYPE_LABELS[type]})` : ''}`, stats: link.srtStat };
    }),
  };
}

/**
 * The Monitor tab (spec 01 §2.6): a player for the job's playable outputs with an output selector
 * and a token selector per delivery type, the SRT statistics of its outputs and inputs, and a
 * dismissible "Error code: {code}" alert when the player fails.
 */
function MonitorView({ kind, job }: { kind: JobKind; job: Job }) {
  const outputId = useId();
  const tokenId = useId();
  useJobInsightLive(kind, job.id, 'monitor');
  const monitor = useJobMonitor(kind, job.id);
  const deliveries = useMemo(() => monitor.data?.deliveries ?? [], [monitor.data]);
  const [chosen, setChosen] = useState<string>();
  const [tokens, setTokens] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<PlayerFailure | null>(null);
  const [attempt, setAttempt] = useState(0);

  const selected = deliveries.find((d) => d.uuid === chosen) ?? deliveries[0];
  const deliveryTypes = useMemo(() => [...new Set(deliveries.map((d) => d.deliveryType))], [deliveries]);
  const tokensOf = (type: string) => [...new Set(deliveries.filter((d) => d.deliveryType === type && d.token).map((d) => d.token as string))];
  const token = selected ? (tokens[selected.deliveryType] ?? NO_TOKEN) : NO_TOKEN;
  const url = selected ? withToken(selected.url, token) : undefined;
  const running = monitor.data?.state === 'running';
  const noun = JOB_KINDS[kind].noun;

  // A job that starts (again) is played from the start; an old failure no longer applies.
  useEffect(() => {
    if (running) setFailure(null);
  }, [running]);
  const replay = () => {
    setFailure(null);
    setAttempt((n) => n + 1);
  };

  const { inputs, outputs } = srtLinks(monitor.data, job);
  if (monitor.isPending) return <p className="monitor-message">{LOADING_TEXT}</p>;
  if (monitor.error && !monitor.data) return <p className="monitor-message table-error" role="alert">{messageOf(monitor.error)}</p>;

  return (
    <section className="monitor" aria-label="Monitor">
      {failure && (
        <div className="monitor-alert" role="alert">
          <Icon name="alert" size={16} />
          <div className="monitor-alert-text">
            <strong>Error code: {failure.code}</strong>
            <span>{failure.message}</span>
          </div>
          <button type="button" className="icon-button" aria-label="Dismiss" title="Dismiss" onClick={() => setFailure(null)}>
            <Icon name="x" size={14} />
          </button>
        </div>
      )}

      {deliveries.length === 0 ? (
        <p className="monitor-message muted">No playable output: the monitor plays HLS, CMAF, DASH and HTTP MPEG-TS outputs.</p>
      ) : (
        <div className="monitor-body">
          <div className="monitor-controls">
            <div className="log-control">
              <label htmlFor={outputId}>Output</label>
              <select
                id={outputId}
                value={selected?.uuid}
                onChange={(e) => {
                  setChosen(e.target.value);
                  setFailure(null);
                }}
              >
                {deliveries.map((d) => (
                  <option key={d.uuid} value={d.uuid}>
                    {deliveryLabel(d, deliveries)}
                  </option>
                ))}
              </select>
            </div>
            {deliveryTypes.map((type) => {
              const options = tokensOf(type);
              return (
                <div key={type} className="log-control">
                  <label htmlFor={`${tokenId}-${type}`}>Token ({type})</label>
                  <select
                    id={`${tokenId}-${type}`}
                    value={tokens[type] ?? NO_TOKEN}
                    disabled={options.length === 0}
                    onChange={(e) => {
                      setTokens((before) => ({ ...before, [type]: e.target.value }));
                      setFailure(null);
                    }}
                  >
                    <option value={NO_TOKEN}>No token</option>
                    {options.map((t) => (
                      <option key={t} value={t}>
                        {t}
                      </option>
                    ))}
                  </select>
                </div>
              );
            })}
            <button type="button" className="button button-secondary" onClick={replay}>
              <Icon name="refresh" size={14} />
              Reload player
            </button>
          </div>

          {!running && <p className="monitor-note muted">The {noun} is not running: its outputs play while it runs.</p>}

          {selected && url && selected.type === 'dash' ? (
            <div className="monitor-dash">
              <p>DASH plays in a DASH player, which the console does not include. The manifest of this output:</p>
              <a href={url} target="_blank" rel="noreferrer" className="cell-mono">
                {new URL(url, window.location.origin).href}
              </a>
            </div>
          ) : (
            selected &&
            url && (
              <>
                <MonitorPlayer key={`${url}#${attempt}#${running}`} type={selected.type} url={url} waitForStream={running} onFailure={setFailure} />
                <p className="monitor-url muted cell-mono">{url}</p>
              </>
            )
          )}
        </div>
      )}

      <div className="monitor-srt">
        <SrtStatsTable title="SRT statistics: output" links={outputs} emptyText={running ? 'No SRT output.' : `Shown while the ${noun} runs.`} />
        <SrtStatsTable title="SRT statistics: input" links={inputs} emptyText={running ? 'No SRT input.' : `Shown while the ${noun} runs.`} />
      </div>
    </section>
  );
}

/** The Monitor tab of a saved relay or encoding (not a template); needs the view permission. */
export function MonitorTab({ kind, job }: { kind: JobKind; job: Job }) {
  const granted = useGranted();
  if (!insightTabs(kind, job, granted).monitor) return null;
  return <MonitorView kind={kind} job={job} />;
}

export default MonitorTab;
