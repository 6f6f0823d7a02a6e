/** A ring gauge drawn with inline SVG: the share of `value` (0 to 100), coloured by level. */
export function Gauge({ value, label, detail }: { value: number | null | undefined; label: string; detail?: string }) {
  const radius = 34;
  const circumference = 2 * Math.PI * radius;
  const share = value === null || value === undefined ? 0 : Math.max(0, Math.min(100, value));
  const level = share >= 90 ? 'danger' : share >= 70 ? 'warning' : 'ok';
  return (
    <div className="gauge" aria-label={`${label} ${value === null || value === undefined ? 'unknown' : `${share.toFixed(1)} percent`}`}>
      <svg viewBox="0 0 84 84" width="84" height="84" role="img">
        <circle className="gauge-track" cx="42" cy="42" r={radius} />
        {share > 0 && <circle className={`gauge-value gauge-${level}`} cx="42" cy="42" r={radius} strokeDasharray={`${(share / 100) * circumference} ${circumference}`} transform="rotate(-90 42 42)" />}
        <text x="42" y="47" textAnchor="middle" className="gauge-text">
          {value === null || value === undefined ? '--' : `${Math.round(share)}%`}
        </text>
      </svg>
      <div className="gauge-label">{label}</div>
      {detail && <div className="gauge-detail">{detail}</div>}
    </div>
  );
}

/** A thin horizontal bar for a percentage (GPU engines). */
export function Bar({ label, value }: { label: string; value: number | null | undefined }) {
  const share = value === null || value === undefined ? 0 : Math.max(0, Math.min(100, value));
  return (
    <div className="bar-row">
      <span className="bar-label">{label}</span>
      <svg className="bar" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true">
        <rect className="bar-track" x="0" y="0" width="100" height="8" rx="2" />
        <rect className={`bar-value ${share >= 90 ? 'gauge-danger' : share >= 70 ? 'gauge-warning' : 'gauge-ok'}`} x="0" y="0" width={share} height="8" rx="2" />
      </svg>
      <span className="bar-figure">{value === null || value === undefined ? 'N/A' : `${Math.round(share)}%`}</span>
    </div>
  );
}
