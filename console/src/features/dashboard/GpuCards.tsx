import { useState } from 'react';
import { Icon } from '../../components/icons.tsx';
import type { DashboardStatus, GpuDevice } from '../../data/dashboard/queries.ts';
import { Bar } from './Gauge.tsx';

/** Cards shown at once; more GPUs than this get a slider. */
const PER_SLIDE = 3;

function GpuCard({ gpu }: { gpu: GpuDevice }) {
  return (
    <section className="card gpu-card" aria-label={`GPU ${gpu.index}`}>
      <header className="gpu-card-head">
        <strong>
          GPU {gpu.index}: {gpu.name}
        </strong>
        <span className="gpu-temp">{gpu.temperature === null ? '--' : `${gpu.temperature} °C`}</span>
      </header>
      <Bar label="SM" value={gpu.streamingMultiprocessorUsagePercent} />
      <Bar label="ENC" value={gpu.encoderUsed} />
      <Bar label="DEC" value={gpu.decoderUsed} />
      <Bar label="MEM" value={gpu.memoryUsed} />
      <div className="gpu-foot">
        <span>Tasks: {gpu.processes.length}</span>
        {gpu.memoryUsedMiB !== null && gpu.memoryTotalMiB !== null && (
          <span>
            {gpu.memoryUsedMiB} / {gpu.memoryTotalMiB} MiB
          </span>
        )}
      </div>
      {gpu.processes.length > 0 && (
        <ul className="gpu-processes" title={gpu.processes.map((p) => `${p.pid} ${p.name}`).join('\n')}>
          {gpu.processes.slice(0, 4).map((p) => (
            <li key={p.pid}>
              {p.pid} {p.name.split('/').pop()}
            </li>
          ))}
          {gpu.processes.length > 4 && <li>+{gpu.processes.length - 4} more</li>}
        </ul>
      )}
    </section>
  );
}

/** The NVIDIA cards, with a slider when there are many, and the Intel Quick Sync card; nothing when neither exists. */
export function GpuCards({ status }: { status: DashboardStatus }) {
  const [first, setFirst] = useState(0);
  const gpus = status.gpus;
  const quickSync = status.mfxDevice;
  if (gpus.length === 0 && !quickSync) return null;
  const start = Math.min(first, Math.max(0, gpus.length - PER_SLIDE));
  const shown = gpus.slice(start, start + PER_SLIDE);
  return (
    <div className="gpu-area">
      {quickSync && (
        <section className="card gpu-card" aria-label="Intel Quick Sync">
          <header className="gpu-card-head">
            <strong>Intel Quick Sync</strong>
          </header>
          <Bar label="Render" value={quickSync.renderUsed} />
          <Bar label="Video 1" value={quickSync.video1Used} />
          <Bar label="Video 2" value={quickSync.video2Used} />
        </section>
      )}
      {gpus.length > PER_SLIDE && (
        <button type="button" className="icon-button slider-arrow" aria-label="Previous GPUs" disabled={start === 0} onClick={() => setFirst(Math.max(0, start - 1))}>
          <Icon name="chevronLeft" />
        </button>
      )}
      {shown.map((gpu) => (
        <GpuCard key={gpu.index} gpu={gpu} />
      ))}
      {gpus.length > PER_SLIDE && (
        <button type="button" className="icon-button slider-arrow" aria-label="Next GPUs" disabled={start + PER_SLIDE >= gpus.length} onClick={() => setFirst(start + 1)}>
          <Icon name="chevronRight" />
        </button>
      )}
    </div>
  );
}
