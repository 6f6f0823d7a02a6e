import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { unwrap, type ApiClient, type Schemas } from '../../openapi/client/index.ts';
import { WATERMARK_FILE_PATTERN } from '../../openapi/schemas/watermarks.ts';
import { defined, printPresetView, readObjectFile } from '../body-file.ts';
import { contextOf } from '../context.ts';
import { CliError, printJson, printLine, terminalWidth } from '../output.ts';
import { integer, positiveId } from '../parsers.ts';
import { Prompter } from '../prompt.ts';

interface JsonOption {
  json?: boolean;
}

interface WatermarkFlags extends JsonOption {
  file?: string;
  name?: string;
  image?: string;
  alpha?: number;
  scalePercent?: number;
  scaledWidth?: number;
  scaledHeight?: number;
  resolution?: string;
  resolutionWidth?: number;
  resolutionHeight?: number;
  x?: number;
  y?: number;
}

type WatermarkBody = Schemas['WatermarkInput'];

/** Send one local image as uploadWatermarkFile's raw body. */
async function uploadFile(client: ApiClient, file: string): Promise<Schemas['WatermarkFile']> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new CliError('FILE_UNREADABLE', `cannot read ${file}: ${(error as Error).message}`);
  }
  return unwrap(
    client.POST('/api/watermarks/files', {
      params: { query: { name: path.basename(file) } },
      body: new Uint8Array(bytes) as unknown as string,
      bodySerializer: (body: unknown) => body as BodyInit,
      headers: { 'Content-Type': 'application/octet-stream' },
    }),
  );
}

/** `--resolution 1920x1080`, `R_1920x1080` or `custom`, as the API names it. */
function resolutionValue(value: string): string {
  const trimmed = value.trim();
  if (/^custom$/i.test(trimmed)) return 'CUSTOM';
  if (/^\d+x\d+$/.test(trimmed)) return `R_${trimmed}`;
  return trimmed;
}

/** The fields the flags give; `--image` may name a local file, which is uploaded first. */
async function fieldsFromFlags(client: ApiClient, flags: WatermarkFlags, current?: WatermarkBody): Promise<Partial<WatermarkBody>> {
  let file: string | undefined;
  if (flags.image !== undefined) file = WATERMARK_FILE_PATTERN.test(flags.image) ? flags.image : (await uploadFile(client, flags.image)).file;
  const scaled = flags.scaledWidth !== undefined || flags.scaledHeight !== undefined;
  const resolution =
    flags.resolution !== undefined || flags.resolutionWidth !== undefined || flags.resolutionHeight !== undefined
      ? (defined({
          value: flags.resolution !== undefined ? resolutionValue(flags.resolution) : (current?.resolution?.value ?? 'CUSTOM'),
          width: flags.resolutionWidth ?? current?.resolution?.width,
          height: flags.resolutionHeight ?? current?.resolution?.height,
        }) as WatermarkBody['resolution'])
      : undefined;
  return defined({
    name: flags.name,
    file,
    alpha: flags.alpha,
    scalePercent: flags.scalePercent,
    scaledImage: scaled ? { width: flags.scaledWidth ?? current?.scaledImage?.width ?? 0, height: flags.scaledHeight ?? current?.scaledImage?.height ?? 0 } : undefined,
    resolution,
    x: flags.x,
    y: flags.y,
  }) as Partial<WatermarkBody>;
}

function bodyOf(w: Schemas['Watermark']): WatermarkBody {
  const resolution = w.resolution.value === 'CUSTOM' ? { value: w.resolution.value, width: w.resolution.width, height: w.resolution.height } : { value: w.resolution.value };
  return { name: w.name, file: w.file, alpha: w.alpha, scalePercent: w.scalePercent, scaledImage: w.scaledImage, resolution, x: w.x, y: w.y };
}

function fieldOptions(command: Command): Command {
  return command
    .option('--name <name>', 'max 100 characters')
    .option('--image <file>', 'a local PNG, JPEG, GIF or WebP file (uploaded first), or the stored name an upload answered')
    .option('--alpha <percent>', 'transparency, 0 (opaque) to 100', integer)
    .option('--scale-percent <percent>', 'size, 0 to 100 % of the image (sets the scaled size unless given)', integer)
    .option('--scaled-width <px>', 'scaled width, 0 to the image\'s width', integer)
    .option('--scaled-height <px>', 'scaled height, 0 to the image\'s height', integer)
    .option('--resolution <value>', 'R_1920x1080 (or 1920x1080), ..., or CUSTOM')
    .option('--resolution-width <px>', 'CUSTOM resolution width, at least 0', integer)
    .option('--resolution-height <px>', 'CUSTOM resolution height, at least 0', integer)
    .option('--x <px>', 'position x, 0 to the resolution\'s width less the scaled width', integer)
    .option('--y <px>', 'position y, 0 to the resolution\'s height less the scaled height', integer)
    .option('--file <path>', 'a JSON or YAML file with the watermark (the API\'s field names); - reads stdin; flags override it')
    .option('--json', 'print the API\'s JSON of the result');
}

export function registerWatermarkCommands(program: Command): void {
  const watermarks = program.command('watermarks').description('Watermark images laid over the video of encodings');

  watermarks
    .command('list')
    .description('List watermarks (listWatermarks), sorted by name, with the total')
    .option('--search <text>', 'name (case-insensitive) or an exact ID')
    .option('--page <n>', 'page number, from 1', integer)
    .option('--size <n>', 'watermarks per page, 1 to 500 (default 25)', integer)
    .addOption(new Option('--sort <field>', 'sort by').choices(['name', 'id']))
    .addOption(new Option('--order <order>', 'sort direction').choices(['asc', 'desc']))
    .option('--json', 'print the API\'s JSON')
    .action(async (options: JsonOption & { search?: string; page?: number; size?: number; sort?: 'name' | 'id'; order?: 'asc' | 'desc' }, command: Command) => {
      const { json: _json, ...query } = options;
      const page = await unwrap(contextOf(command).client.GET('/api/watermarks', { params: { query } }));
      if (options.json) return printJson(page);
      await printPresetView('WatermarkPageView', { page, maxWidth: terminalWidth() });
    });

  watermarks
    .command('get')
    .description('Show a watermark (getWatermark)')
    .argument('<id>', 'the watermark id', positiveId)
    .option('--json', 'print the API\'s JSON')
    .action(async (id: number, options: JsonOption, command: Command) => {
      const watermark = await unwrap(contextOf(command).client.GET('/api/watermarks/{id}', { params: { path: { id } } }));
      if (options.json) return printJson(watermark);
      await printPresetView('WatermarkView', { watermark });
    });

  watermarks
    .command('upload')
    .description('Upload images (uploadWatermarkFile, one per file); prints the stored name to give as --image')
    .argument('<files...>', 'PNG, JPEG, GIF or WebP files, up to 10 MB each')
    .option('--json', 'print the API\'s JSON: one entry per file')
    .action(async (files: string[], options: JsonOption, command: Command) => {
      const { client } = contextOf(command);
      const stored: Schemas['WatermarkFile'][] = [];
      for (const file of files) {
        const result = await uploadFile(client, file);
        stored.push(result);
        if (!options.json) printLine(`${file}: ${result.file} (${result.format}, ${result.width}x${result.height})`);
      }
      if (options.json) printJson(stored);
    });

  fieldOptions(watermarks.command('create').description('Create a watermark (createWatermark) from flags and/or --file; needs ENCODING_EDIT')).action(async (options: WatermarkFlags, command: Command) => {
    const { client } = contextOf(command);
    const file = options.file ? await readObjectFile(options.file, 'watermark') : {};
    const body = { ...file, ...(await fieldsFromFlags(client, options)) } as WatermarkBody;
    const watermark = await unwrap(client.POST('/api/watermarks', { body }));
    if (options.json) return printJson(watermark);
    printLine(`Watermark ${watermark.id} created.`);
  });

  fieldOptions(watermarks.command('update').description('Change a watermark (updateWatermark): only the fields given change').argument('<id>', 'the watermark id', positiveId)).action(
    async (id: number, options: WatermarkFlags, command: Command) => {
      const { client } = contextOf(command);
      const current = bodyOf(await unwrap(client.GET('/api/watermarks/{id}', { params: { path: { id } } })));
      const file = options.file ? await readObjectFile(options.file, 'watermark') : {};
      const changes = { ...file, ...(await fieldsFromFlags(client, options, current)) } as Partial<WatermarkBody>;
      // A new size in percent or a new image, without a scaled size: the server scales the image by the percent.
      const rescale = (changes.scalePercent !== undefined || (changes.file !== undefined && changes.file !== current.file)) && !changes.scaledImage;
      const base = rescale ? { ...current, scaledImage: undefined } : current;
      const watermark = await unwrap(client.PUT('/api/watermarks/{id}', { params: { path: { id } }, body: { ...base, ...changes } as WatermarkBody }));
      if (options.json) return printJson(watermark);
      printLine(`Watermark ${watermark.id} updated.`);
    },
  );

  watermarks
    .command('delete')
    .description('Delete a watermark no encoding uses (deleteWatermark); asks first unless --yes')
    .argument('<id>', 'the watermark id', positiveId)
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--json', 'print the API\'s JSON of the result')
    .action(async (id: number, options: JsonOption & { yes?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      if (!options.yes) {
        const prompter = new Prompter();
        if (!prompter.interactive) throw new CliError('CONFIRMATION_REQUIRED', `not deleting watermark ${id} without confirmation: stdin is not a terminal, pass --yes`);
        const watermark = await unwrap(client.GET('/api/watermarks/{id}', { params: { path: { id } } }));
        const confirmed = await prompter.confirm(`Delete watermark ${watermark.name}?`);
        prompter.close();
        if (!confirmed) return printLine('Nothing deleted.');
      }
      const result = await unwrap(client.DELETE('/api/watermarks/{id}', { params: { path: { id } } }));
      if (options.json) return printJson(result);
      printLine(`Watermark ${id} deleted.`);
    });
}
