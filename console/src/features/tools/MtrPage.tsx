import { useCallback } from 'react';
import { MtrRequest } from '../../../../openapi/schemas/tools.ts';
import { eventsOf, useToolRun, type ToolBodies } from '../../data/tools/stream.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { HostToolPage } from './HostToolPage.tsx';
import { StoppedNote, Waiting } from './ToolParts.tsx';
import { numberOrText, useToolForm } from './toolForm.ts';

interface MtrValues extends Record<string, unknown> {
  host: string;
  noDns: boolean;
  count: string;
}

const ms = (value: number | null) => (value === null ? '' : value.toFixed(1));

/** /my/tools/mtr: the route to a host with mtr; the hop table fills as the probes come back. */
export default function MtrPage() {
  usePageTitle('MTR');
  const run = useToolRun('mtr');
  const toPayload = useCallback((v: MtrValues) => ({ host: v.host.trim(), noDns: v.noDns, count: numberOrText(v.count) ?? 30 }), []);
  const form = useToolForm(MtrRequest, { host: '', noDns: false, count: '30' }, toPayload);
  const hops = eventsOf(run.events, 'hops').at(-1)?.hops;
  const errors = eventsOf(run.events, 'error');
  const end = eventsOf(run.events, 'end')[0];

  return (
    <HostToolPage
      title="MTR"
      host={{ name: 'host', label: 'Host' }}
      form={form}
      run={run}
      onRun={(payload) => void run.start(payload as ToolBodies['mtr'])}
      runLabel="Start"
      stopLabel="Stop"
      fields={
        <label className="check-label tool-check">
          <input type="checkbox" name="noDns" checked={form.values.noDns} onChange={(e) => form.set('noDns', e.target.checked)} />
          No DNS
        </label>
      }
    >
      {errors.map((error, i) => (
        <p key={i} className="tool-error" role="alert">
          {error.error}
        </p>
      ))}
      {hops && hops.length > 0 && (
        <div className="table-wrap">
          <table className="table tool-table" aria-label="MTR results">
            <thead>
              <tr>
                <th scope="col" className="align-right">#</th>
                <th scope="col">Host</th>
                <th scope="col" className="align-right">Loss%</th>
                <th scope="col" className="align-right">Snt</th>
                <th scope="col" className="align-right">Last</th>
                <th scope="col" className="align-right">Avg</th>
                <th scope="col" className="align-right">Best</th>
                <th scope="col" className="align-right">Wrst</th>
                <th scope="col" className="align-right">StDev</th>
              </tr>
            </thead>
            <tbody>
              {hops.map((hop) => (
                <tr key={hop.hop}>
                  <td className="align-right">{hop.hop}.</td>
                  <td className="cell-mono">{hop.host ?? '???'}</td>
                  <td className="align-right">{hop.lossPercent.toFixed(1)}%</td>
                  <td className="align-right">{hop.sent}</td>
                  <td className="align-right">{ms(hop.lastMs)}</td>
                  <td className="align-right">{ms(hop.avgMs)}</td>
                  <td className="align-right">{ms(hop.bestMs)}</td>
                  <td className="align-right">{ms(hop.worstMs)}</td>
                  <td className="align-right">{ms(hop.stdevMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {run.running && !hops && errors.length === 0 && <Waiting />}
      {run.running && hops && <p className="tool-note">Probing ...</p>}
      <StoppedNote stopped={run.stopped || end?.reason === 'aborted'} />
    </HostToolPage>
  );
}
