import { Option, type Command } from 'commander';
import { unwrap, type ApiClient, type Schemas } from '../../openapi/client/index.ts';
import { contextOf } from '../context.ts';
import { createJobBody, jobPath, listQuery, readJobFile, updateJobBody, type JobKind, type ListFlags } from '../job-input.ts';
import { printJson, printLine, terminalWidth } from '../output.ts';
import { positiveId } from '../parsers.ts';
import { confirmOrRefuse, KIND_NAMES, listOptions, printJobView } from './jobs.ts';

/**
 * `mediaplane templates ...`: the relay and encoding templates (list{Kind}Templates, get, create,
 * update, delete, create{Kind}FromTemplate), the kind chosen with --kind.
 */

interface KindOption {
  kind: JobKind;
  json?: boolean;
}

const kindOption = () => new Option('--kind <kind>', 'relay or encoding templates').choices(['relay', 'encoding']).makeOptionMandatory();

async function getTemplate(client: ApiClient, kind: JobKind, id: number): Promise<Schemas['Job']> {
  return unwrap(client.GET(jobPath(kind, '/api/relays/templates/{id}'), { params: { path: { id } } }));
}

export function registerTemplateCommands(program: Command): void {
  const templates = program.command('templates').description('Templates of relays and encodings: saved configurations to create jobs from');

  // The template list has the search, type, sort and paging of the job lists (spec 01 §2.7).
  listOptions(templates.command('list').description('List templates (listRelayTemplates, listEncodingTemplates)').addOption(kindOption()), 'relay', true).action(
    async (options: ListFlags & KindOption, command: Command) => {
      const { client } = contextOf(command);
      const { kind, ...flags } = options;
      const page = await unwrap(client.GET(jobPath(kind, '/api/relays/templates'), { params: { query: listQuery(flags) } }));
      if (options.json) return printJson(page);
      await printJobView('TemplatePageView', { kind, page, maxWidth: terminalWidth() });
    },
  );

  templates
    .command('get')
    .description('Show a template (getRelayTemplate, getEncodingTemplate)')
    .argument('<id>', 'the template id', positiveId)
    .addOption(kindOption())
    .option('--json', 'print the API\'s JSON')
    .action(async (id: number, options: KindOption, command: Command) => {
      const template = await getTemplate(contextOf(command).client, options.kind, id);
      if (options.json) return printJson(template);
      await printJobView('JobView', { kind: options.kind, job: template });
    });

  templates
    .command('create')
    .description('Create a template (createRelayTemplate, createEncodingTemplate) from a JSON or YAML file with the API\'s field names')
    .addOption(kindOption())
    .requiredOption('--file <path>', 'the JSON or YAML file; - reads stdin')
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (options: KindOption & { file: string }, command: Command) => {
      const { client } = contextOf(command);
      const body = createJobBody(await readJobFile(options.file, options.kind));
      const template = await unwrap(client.POST(jobPath(options.kind, '/api/relays/templates'), { body }));
      if (options.json) return printJson(template);
      printLine(`Template ${template.id} created.`);
    });

  templates
    .command('update')
    .description('Change a template (updateRelayTemplate, updateEncodingTemplate): the fields the file gives change, the others stay')
    .argument('<id>', 'the template id', positiveId)
    .addOption(kindOption())
    .requiredOption('--file <path>', 'a JSON or YAML file with the fields to change; - reads stdin')
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (id: number, options: KindOption & { file: string }, command: Command) => {
      const { client } = contextOf(command);
      const file = await readJobFile(options.file, options.kind);
      const body = updateJobBody(await getTemplate(client, options.kind, id), file);
      const template = await unwrap(client.PUT(jobPath(options.kind, '/api/relays/templates/{id}'), { params: { path: { id } }, body }));
      if (options.json) return printJson(template);
      printLine(`Template ${template.id} updated.`);
    });

  templates
    .command('delete')
    .description('Delete a template (deleteRelayTemplate, deleteEncodingTemplate); asks first unless --yes')
    .argument('<id>', 'the template id', positiveId)
    .addOption(kindOption())
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (id: number, options: KindOption & { yes?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      if (!options.yes) {
        const template = await getTemplate(client, options.kind, id);
        if (!(await confirmOrRefuse(`Delete ${options.kind} template ${template.name}?`, `not deleting template ${id}`))) return;
      }
      const result = await unwrap(client.DELETE(jobPath(options.kind, '/api/relays/templates/{id}'), { params: { path: { id } } }));
      if (options.json) return printJson(result);
      printLine(`Template ${id} deleted.`);
    });

  templates
    .command('use')
    .description('Create a relay or an encoding from a template (createRelayFromTemplate, createEncodingFromTemplate)')
    .argument('<templateId>', 'the template id', positiveId)
    .addOption(kindOption())
    .requiredOption('--name <name>', 'the name of the new job (max 100 characters)')
    .option('--json', 'print the API\'s JSON of the new job')
    .action(async (templateId: number, options: KindOption & { name: string }, command: Command) => {
      const { client } = contextOf(command);
      const job = await unwrap(client.POST(jobPath(options.kind, '/api/relays/templates/{id}/jobs'), { params: { path: { id: templateId } }, body: { name: options.name } }));
      if (options.json) return printJson(job);
      printLine(`${KIND_NAMES[options.kind]} ${job.id} created from template ${templateId}.`);
    });
}
