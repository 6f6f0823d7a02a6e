import { Switch, type SwitchProps } from '../../components/Switch.tsx';
import type { AlarmSettings } from '../../data/alarms/queries.ts';

export const SWITCHES: Array<[keyof AlarmSettings['general'], string]> = [
  ['rixjobStop', 'Job stopped by the system'],
  ['rixjobStart', 'Job started by the system'],
  ['rixjobRestart', 'Job restarted by the system'],
  ['userStop', 'Job stopped by a user'],
  ['userStart', 'Job started by a user'],
  ['userRestart', 'Job restarted by a user'],
];

export function LabeledSwitch(props: SwitchProps) {
  return (
    <span className="alarm-switch">
      <Switch {...props} />
      <span>{props.label}</span>
    </span>
  );
}

