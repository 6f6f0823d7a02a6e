import { InvalidArgumentError, Option, type Command } from 'commander';
import { unwrap, type ApiClient, type Schemas } from '../../openapi/client/index.ts';
import { printPresetView, readObjectFile } from '../body-file.ts';
import { contextOf } from '../context.ts';
import { CliError, printJson, printLine, terminalWidth } from '../output.ts';
import { positiveId } from '../parsers.ts';
import { Prompter } from '../prompt.ts';

type PresetType = 'video' | 'audio';
type VideoBody = Schemas['VideoPresetInput'];
type AudioBody = Schemas['AudioPresetInput'];

interface JsonOption {
  json?: boolean;
}

function presetType(value: string): PresetType {
  const type = value.trim().toLowerCase();
  if (type !== 'video' && type !== 'audio') throw new InvalidArgumentError('A preset type is video or audio.');
  return type;
}

const Title: Record<PresetType, string> = { video: 'Video preset', audio: 'Audio preset' };

async function getPreset(client: ApiClient, type: PresetType, id: number): Promise<Schemas['VideoPreset'] | Schemas['AudioPreset']> {
  const params = { path: { id } };
  return type === 'video' ? unwrap(client.GET('/api/presets/video/{id}', { params })) : unwrap(client.GET('/api/presets/audio/{id}', { params }));
}

/** The form's body for a stored preset: what `update` starts from before the file's fields. */
function bodyOf(preset: Schemas['VideoPreset'] | Schemas['AudioPreset']): VideoBody | AudioBody {
  if ('videoCodec' in preset) {
    return { name: preset.name, videoCodec: preset.videoCodec, videoBitrate: preset.videoBitrate, audioPreset: preset.audioPreset, advancedOption: preset.advancedOption, videoCodecParameters: preset.videoCodecParameters };
  }
  return { name: preset.name, audioCodec: preset.audioCodec, audioBitrate: preset.audioBitrate, channels: preset.channels, sampleRate: preset.sampleRate };
}

async function show(type: PresetType, preset: Schemas['VideoPreset'] | Schemas['AudioPreset']): Promise<void> {
  if (type === 'video') await printPresetView('VideoPresetView', { preset: preset as Schemas['VideoPreset'] });
  else await printPresetView('AudioPresetView', { preset: preset as Schemas['AudioPreset'] });
}

const FILE_HELP =
  'a JSON or YAML file with the preset, the API\'s field names (video: name, videoCodec, videoBitrate, audioPreset, advancedOption, videoCodecParameters; audio: name, audioCodec, audioBitrate, channels, sampleRate); - reads stdin';

export function registerPresetCommands(program: Command): void {
  const presets = program.command('presets').description('Video and audio presets of encodings');

  presets
    .command('list')
    .description('List the video and audio presets (listVideoPresets, listAudioPresets), each with its usage')
    .addOption(new Option('--type <type>', 'only this kind').choices(['video', 'audio']))
    .option('--search <text>', 'name (case-insensitive) or an exact ID')
    .option('--json', 'print the API\'s JSON: { video, audio }')
    .action(async (options: JsonOption & { type?: PresetType; search?: string }, command: Command) => {
      const { client } = contextOf(command);
      const query = { query: { search: options.search } };
      const [video, audio] = await Promise.all([
        options.type === 'audio' ? undefined : unwrap(client.GET('/api/presets/video', { params: query })),
        options.type === 'video' ? undefined : unwrap(client.GET('/api/presets/audio', { params: query })),
      ]);
      if (options.json) return printJson({ ...(video ? { video } : {}), ...(audio ? { audio } : {}) });
      await printPresetView('PresetListsView', { video, audio, maxWidth: terminalWidth() });
    });

  presets
    .command('get')
    .description('Show a preset (getVideoPreset, getAudioPreset)')
    .argument('<type>', 'video or audio', presetType)
    .argument('<id>', 'the preset id', positiveId)
    .option('--json', 'print the API\'s JSON')
    .action(async (type: PresetType, id: number, options: JsonOption, command: Command) => {
      const preset = await getPreset(contextOf(command).client, type, id);
      if (options.json) return printJson(preset);
      await show(type, preset);
    });

  presets
    .command('create')
    .description('Create a preset (createVideoPreset, createAudioPreset) from a JSON or YAML file')
    .argument('<type>', 'video or audio', presetType)
    .requiredOption('--file <path>', FILE_HELP)
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (type: PresetType, options: JsonOption & { file: string }, command: Command) => {
      const { client } = contextOf(command);
      const body = await readObjectFile(options.file, `${type} preset`);
      const preset =
        type === 'video' ? await unwrap(client.POST('/api/presets/video', { body: body as VideoBody })) : await unwrap(client.POST('/api/presets/audio', { body: body as AudioBody }));
      if (options.json) return printJson(preset);
      printLine(`${Title[type]} ${preset.id} created.`);
    });

  presets
    .command('update')
    .description('Change a preset (updateVideoPreset, updateAudioPreset): the fields of the file over the preset as it is')
    .argument('<type>', 'video or audio', presetType)
    .argument('<id>', 'the preset id', positiveId)
    .requiredOption('--file <path>', `${FILE_HELP}; videoCodecParameters, when given, replaces all of them`)
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (type: PresetType, id: number, options: JsonOption & { file: string }, command: Command) => {
      const { client } = contextOf(command);
      const changes = await readObjectFile(options.file, `${type} preset`);
      const body = { ...bodyOf(await getPreset(client, type, id)), ...changes };
      const params = { path: { id } };
      const preset =
        type === 'video'
          ? await unwrap(client.PUT('/api/presets/video/{id}', { params, body: body as VideoBody }))
          : await unwrap(client.PUT('/api/presets/audio/{id}', { params, body: body as AudioBody }));
      if (options.json) return printJson(preset);
      printLine(`${Title[type]} ${preset.id} updated.`);
    });

  presets
    .command('clone')
    .description('Copy a preset (cloneVideoPreset, cloneAudioPreset), named "<name> (copy)" unless --name')
    .argument('<type>', 'video or audio', presetType)
    .argument('<id>', 'the preset id', positiveId)
    .option('--name <name>', 'the name of the copy')
    .option('--json', 'print the API\'s JSON of the copy')
    .action(async (type: PresetType, id: number, options: JsonOption & { name?: string }, command: Command) => {
      const { client } = contextOf(command);
      const params = { path: { id }, query: { name: options.name } };
      const copy = type === 'video' ? await unwrap(client.POST('/api/presets/video/{id}/clone', { params })) : await unwrap(client.POST('/api/presets/audio/{id}/clone', { params }));
      if (options.json) return printJson(copy);
      printLine(`${Title[type]} ${id} cloned as ${copy.id} "${copy.name}".`);
    });

  presets
    .command('delete')
    .description('Delete a preset no job uses (deleteVideoPreset, deleteAudioPreset); asks first unless --yes')
    .argument('<type>', 'video or audio', presetType)
    .argument('<id>', 'the preset id', positiveId)
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (type: PresetType, id: number, options: JsonOption & { yes?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      if (!options.yes) {
        const prompter = new Prompter();
        if (!prompter.interactive) throw new CliError('CONFIRMATION_REQUIRED', `not deleting ${type} preset ${id} without confirmation: stdin is not a terminal, pass --yes`);
        const preset = await getPreset(client, type, id);
        const confirmed = await prompter.confirm(`Delete preset ${preset.name}?`);
        prompter.close();
        if (!confirmed) return printLine('Nothing deleted.');
      }
      const params = { path: { id } };
      const result = type === 'video' ? await unwrap(client.DELETE('/api/presets/video/{id}', { params })) : await unwrap(client.DELETE('/api/presets/audio/{id}', { params }));
      if (options.json) return printJson(result);
      printLine(`${Title[type]} ${id} deleted.`);
    });

  presets
    .command('codecs')
    .description('The codecs presets may use and their options, as the server\'s ffmpeg has them (getPresetCodecs)')
    .option('--codec <name>', 'show this codec\'s options, e.g. libx264')
    .option('--json', 'print the API\'s JSON')
    .action(async (options: JsonOption & { codec?: string }, command: Command) => {
      const codecs = await unwrap(contextOf(command).client.GET('/api/presets/codecs'));
      if (options.codec && ![...codecs.video, ...codecs.audio].some((c) => c.name === options.codec)) {
        throw new CliError('NOT_FOUND', `the server's ffmpeg offers no codec ${options.codec} for presets`);
      }
      if (options.json) return printJson(options.codec ? [...codecs.video, ...codecs.audio].find((c) => c.name === options.codec) : codecs);
      await printPresetView('CodecsView', { codecs, codec: options.codec, maxWidth: terminalWidth() });
    });
}
