import { LOG_LEVEL_NAMES } from '../../../../../openapi/schemas/jobs.ts';
import { ADMIN_ROLE } from '../../../../../openapi/permissions.ts';
import { useCan, useCurrentUser } from '../../../data/auth/queries.ts';
import { useNodeSummaries } from '../../../data/system/queries.ts';
import { useJobEdit } from './context.ts';
import { FeaturesTable } from './FeaturesTable.tsx';
import { CheckField, FieldRow, NumberField, Section, SelectField, SwitchField } from './fields.tsx';

const LOG_LEVEL_OPTIONS = LOG_LEVEL_NAMES.map((value) => ({ value, label: value }));
const LOG_TARGET_OPTIONS = [
  { value: 'FILE', label: 'FILE' },
  { value: 'NONE', label: 'NONE' },
];

/** Details > Advanced Setting(s): run-time settings, task distribution, statistics, alarm, and the admin's features. */
export function AdvancedTab() {
  const { form } = useJobEdit();
  const me = useCurrentUser();
  const nodes = useNodeSummaries();
  const alarmVisible = useCan('ALARMS_VIEW', 'ALARMS_EDIT');
  const alarmEditable = useCan('ALARMS_EDIT');
  const isAdmin = me.role.value === ADMIN_ROLE;
  const nodeOptions = (nodes.data?.items ?? []).map((node) => ({ value: node.id, label: `${node.name} (${node.ip})${node.online ? '' : ' – offline'}` }));

  return (
    <div className="job-tab-body">
      <Section title="Streams">
        <FieldRow>
          <CheckField path="noVideo" label="Disable Video" />
          <CheckField path="noSound" label="Disable Audio" />
        </FieldRow>
      </Section>
      <Section title="Restarts">
        <FieldRow>
          <NumberField path="restartAttempts" label="Restart attempts" min={0} max={1000} placeholder="10" hint="0: never restart." />
          <SwitchField path="lipSyncRestart" label="Smart restart" hint="Restart when audio and video drift apart." />
        </FieldRow>
      </Section>
      <Section title="Logging">
        <FieldRow>
          <SelectField path="logLevel" label="Log level" options={LOG_LEVEL_OPTIONS} placeholder="NOTICE" />
          <SelectField path="logTarget" label="Log target" options={LOG_TARGET_OPTIONS} placeholder="FILE" clearButton />
          <NumberField path="logMaxSizeInMegaBytes" label="Log max size in Mb" min={1} max={10240} placeholder="10" />
        </FieldRow>
      </Section>
      <Section title="Task Distribution">
        <FieldRow>
          {/* Not clearable: "auto" is a choice of its own (placed by load). */}
          <SelectField path="node" label="Node" numeric empty="null" clearable placeholder="auto" options={nodeOptions} />
        </FieldRow>
      </Section>
      <Section title="Statistics and alarm">
        <FieldRow>
          <SwitchField path="statistics" label="Statistics" />
          {form.values.statistics && <NumberField path="statisticsDays" label="Days" required min={1} max={30} placeholder="7" hint="1 to 30." />}
          {alarmVisible && (
            <SwitchField path="alarmed" label="Alarm" disabled={!alarmEditable} hint={alarmEditable ? 'Raise alarms when the job fails.' : 'Changing it needs ALARMS_EDIT.'} />
          )}
        </FieldRow>
      </Section>
      {isAdmin && <FeaturesTable />}
    </div>
  );
}
