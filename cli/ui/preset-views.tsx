import { Box, Text } from 'ink';
import type { Schemas } from '../../openapi/client/index.ts';
import { formatTime } from '../output.ts';
import { Fields } from './fields.tsx';
import { Table, type Column } from './table.tsx';

/** What `mediaplane presets` and `mediaplane watermarks` show when not asked for --json. */

const kbps = (value: number) => `${value} kbit/s`;
const parameters = (values: Record<string, unknown>) =>
  Object.entries(values)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(' ') || '-';

const videoColumns: Column<Schemas['VideoPreset']>[] = [
  { header: 'ID', value: (p) => String(p.id), align: 'right' },
  { header: 'NAME', value: (p) => p.name },
  { header: 'CODEC', value: (p) => p.videoCodec },
  { header: 'BITRATE', value: (p) => kbps(p.videoBitrate), align: 'right' },
  { header: 'AUDIO PRESET', value: (p) => p.audioPresetName },
  { header: 'USAGE', value: (p) => String(p.usageCount), align: 'right' },
];

const audioColumns: Column<Schemas['AudioPreset']>[] = [
  { header: 'ID', value: (p) => String(p.id), align: 'right' },
  { header: 'NAME', value: (p) => p.name },
  { header: 'CODEC', value: (p) => p.audioCodec },
  { header: 'BITRATE', value: (p) => kbps(p.audioBitrate), align: 'right' },
  { header: 'CHANNELS', value: (p) => (p.channels === null ? 'source' : String(p.channels)), align: 'right' },
  { header: 'SAMPLE RATE', value: (p) => `${p.sampleRate} Hz`, align: 'right' },
  { header: 'USAGE', value: (p) => String(p.usageCount), align: 'right' },
];

export function PresetListsView({ video, audio, maxWidth }: { video?: Schemas['VideoPresetList']; audio?: Schemas['AudioPresetList']; maxWidth?: number }) {
  return (
    <Box flexDirection="column" rowGap={1}>
      {video && (
        <Box flexDirection="column">
          <Text bold underline>
            Video presets
          </Text>
          <Table columns={videoColumns} rows={video.items} empty="No video presets" footer={`Total: ${video.total}`} maxWidth={maxWidth} />
        </Box>
      )}
      {audio && (
        <Box flexDirection="column">
          <Text bold underline>
            Audio presets
          </Text>
          <Table columns={audioColumns} rows={audio.items} empty="No audio presets" footer={`Total: ${audio.total}`} maxWidth={maxWidth} />
        </Box>
      )}
    </Box>
  );
}

export function VideoPresetView({ preset }: { preset: Schemas['VideoPreset'] }) {
  return (
    <Fields
      fields={[
        ['ID', String(preset.id)],
        ['Name', preset.name],
        ['Video codec', `${preset.videoCodec}${preset.gpu ? ' (GPU)' : ''}`],
        ['Video bitrate', kbps(preset.videoBitrate)],
        ['Audio preset', `${preset.audioPresetName} (${preset.audioPreset})`],
        ['Advanced options', preset.advancedOption ? parameters(preset.videoCodecParameters) : 'off'],
        ['Usage', String(preset.usageCount)],
        ['Updated', formatTime(preset.updatedAt)],
      ]}
    />
  );
}

export function AudioPresetView({ preset }: { preset: Schemas['AudioPreset'] }) {
  return (
    <Fields
      fields={[
        ['ID', String(preset.id)],
        ['Name', preset.name],
        ['Audio codec', preset.audioCodec],
        ['Audio bitrate', kbps(preset.audioBitrate)],
        ['Channels', preset.channels === null ? 'as the source' : String(preset.channels)],
        ['Sample rate', `${preset.sampleRate} Hz`],
        ['Usage', String(preset.usageCount)],
        ['Updated', formatTime(preset.updatedAt)],
      ]}
    />
  );
}

function optionRange(option: Schemas['CodecOption']): string {
  switch (option.type) {
    case 'select':
      return (option.values ?? []).map((v) => v.value).join(', ');
    case 'range':
      return `${option.min} to ${option.max}${option.step && option.step !== 1 ? ` (step ${option.step})` : ''}`;
    case 'checkbox':
      return 'true or false';
    default:
      return 'text';
  }
}

const optionColumns: Column<Schemas['CodecOption']>[] = [
  { header: 'OPTION', value: (o) => o.name },
  { header: 'TYPE', value: (o) => o.type },
  { header: 'VALUES', value: optionRange },
  { header: 'DEFAULT', value: (o) => o.default ?? '-' },
];

/** Every codec in one table; with `codec`, that codec's options. */
export function CodecsView({ codecs, codec, maxWidth }: { codecs: Schemas['PresetCodecs']; codec?: string; maxWidth?: number }) {
  const chosen = codec ? [...codecs.video, ...codecs.audio].find((c) => c.name === codec) : undefined;
  if (chosen) {
    return (
      <Box flexDirection="column">
        <Text bold>{chosen.label}</Text>
        <Table columns={optionColumns} rows={chosen.options} empty="No options" maxWidth={maxWidth} />
      </Box>
    );
  }
  const rows = [
    ...codecs.video.map((c) => ({ name: c.name, kind: c.gpu ? 'video (GPU)' : 'video', label: c.label, options: c.options.length })),
    ...codecs.audio.map((c) => ({ name: c.name, kind: 'audio', label: c.label, options: c.options.length })),
  ];
  return (
    <Table
      columns={[
        { header: 'CODEC', value: (r) => r.name },
        { header: 'KIND', value: (r) => r.kind },
        { header: 'NAME', value: (r) => r.label },
        { header: 'OPTIONS', value: (r) => String(r.options), align: 'right' },
      ]}
      rows={rows}
      empty="No codecs: is ffmpeg installed on the server?"
      maxWidth={maxWidth}
    />
  );
}

const size = (s: { width: number; height: number }) => `${s.width}x${s.height}`;

const watermarkColumns: Column<Schemas['Watermark']>[] = [
  { header: 'ID', value: (w) => String(w.id), align: 'right' },
  { header: 'NAME', value: (w) => w.name },
  { header: 'IMAGE', value: (w) => size(w.image) },
  { header: 'SCALED', value: (w) => `${size(w.scaledImage)} (${w.scalePercent}%)` },
  { header: 'TRANSPARENCY', value: (w) => `${w.alpha}%`, align: 'right' },
  { header: 'RESOLUTION', value: (w) => w.resolution.value === 'CUSTOM' ? `Custom ${size(w.resolution)}` : w.resolution.name },
  { header: 'POSITION', value: (w) => `${w.x},${w.y}` },
  { header: 'USAGE', value: (w) => String(w.usageCount), align: 'right' },
];

export function WatermarkPageView({ page, maxWidth }: { page: Schemas['WatermarkPage']; maxWidth?: number }) {
  const pages = Math.max(1, Math.ceil(page.total / page.size));
  return (
    <Table
      columns={watermarkColumns}
      rows={page.items}
      empty="No watermarks"
      footer={`Total Watermarks: ${page.total}${pages > 1 ? `   Page ${page.page} of ${pages}` : ''}`}
      maxWidth={maxWidth}
    />
  );
}

export function WatermarkView({ watermark }: { watermark: Schemas['Watermark'] }) {
  const w = watermark;
  return (
    <Fields
      fields={[
        ['ID', String(w.id)],
        ['Name', w.name],
        ['File', `${w.file} (${size(w.image)})`],
        ['Transparency', `${w.alpha}%`],
        ['Size', `${w.scalePercent}% = ${size(w.scaledImage)}`],
        ['Resolution', `${w.resolution.value === 'CUSTOM' ? 'Custom' : w.resolution.value} (${size(w.resolution)})`],
        ['Position', `x ${w.x}, y ${w.y}`],
        ['Usage', String(w.usageCount)],
        ['Updated', formatTime(w.updatedAt)],
      ]}
    />
  );
}
