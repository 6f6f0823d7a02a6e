import type { Readable } from 'node:stream';
import { frameOf, maxPosition, resolutionName, type WatermarkDto, type WatermarkFileDto, type WatermarkInputValue } from '../../openapi/schemas/watermarks.ts';
import { ConflictError, NotFoundError, ValidationError, type FieldIssue } from '../errors.ts';
import type { Db } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
import { WatermarksRepository, isWatermarkInUseError, type WatermarkColumns, type WatermarkListRow } from '../repositories/watermarks.repository.ts';
import { WatermarkFiles } from './watermark-files.ts';

export function watermarkToDto(row: WatermarkListRow): WatermarkDto {
  const resolution = row.resolution;
  const frame = frameOf(resolution);
  return {
    id: row.id,
    name: row.name,
    file: row.file,
    alpha: row.alpha,
    scalePercent: row.scale_percent,
    scaledImage: { width: row.scaled_width, height: row.scaled_height },
    image: { width: row.image_width, height: row.image_height },
    resolution: { value: resolution.value as WatermarkDto['resolution']['value'], name: resolution.name ?? resolutionName(resolution.value), width: frame.width, height: frame.height },
    x: row.x,
    y: row.y,
    usageCount: row.job_count,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function createWatermarksService(db: Db, events: EventBus, watermarksDir: string): WatermarksService {
  return new WatermarksService(new WatermarksRepository(db), new WatermarkFiles(watermarksDir), events);
}

/** Watermarks (spec 03 §3, §5): uploaded images placed at a size and position in a resolution. */
export class WatermarksService {
  constructor(
    private readonly watermarks: WatermarksRepository,
    private readonly files: WatermarkFiles,
    private readonly events: EventBus,
  ) {}

  async list(query: { search?: string; page: number; size: number; sort: 'name' | 'id'; order: 'asc' | 'desc' }) {
    const { rows, total } = await this.watermarks.list({
      search: query.search?.trim() || undefined,
      sort: query.sort,
      order: query.order,
      offset: (query.page - 1) * query.size,
      limit: query.size,
    });
    return { items: rows.map(watermarkToDto), total, page: query.page, size: query.size };
  }

  async get(id: number): Promise<WatermarkDto> {
    return watermarkToDto(await this.require(id));
  }

  async create(input: WatermarkInputValue): Promise<WatermarkDto> {
    const id = await this.watermarks.insert(await this.columns(input));
    await this.changed('created', id);
    return this.get(id);
  }

  async update(id: number, input: WatermarkInputValue): Promise<WatermarkDto> {
    const current = await this.require(id);
    const columns = await this.columns(input);
    if (!(await this.watermarks.update(id, columns))) throw new NotFoundError('Watermark', id);
    if (current.file !== columns.file) await this.removeIfUnused(current.file);
    await this.changed('updated', id);
    return this.get(id);
  }

  async delete(id: number): Promise<void> {
    const current = await this.require(id);
    const inUse = (count: number) => new ConflictError(`Watermark ${current.name} is used by ${plural(count, 'encoding')}; remove it from ${count === 1 ? 'that encoding' : 'those encodings'} first.`, 'WATERMARK_IN_USE');
    if (current.job_count > 0) throw inUse(current.job_count);
    try {
      if (!(await this.watermarks.delete(id))) throw new NotFoundError('Watermark', id);
    } catch (error) {
      if (isWatermarkInUseError(error)) throw inUse((await this.require(id)).job_count || 1);
      throw error;
    }
    await this.removeIfUnused(current.file);
    await this.changed('deleted', id);
  }

  /** Store one uploaded image (its bytes as the request body); old uploads no watermark took are swept. */
  async upload(body: Readable, originalName: string, declaredLength?: number): Promise<WatermarkFileDto> {
    const stored = await this.files.store(body, originalName, declaredLength);
    const inUse = await this.watermarks.filesInUse();
    await this.files.sweep(new Set([...inUse, stored.file]));
    return stored;
  }

  /** Where the image of a watermark lies, and its type. */
  async image(id: number): Promise<{ path: string; contentType: string }> {
    return this.file((await this.require(id)).file);
  }

  async file(file: string): Promise<{ path: string; contentType: string }> {
    if (!(await this.files.header(file))) throw new NotFoundError('Watermark image', file);
    return { path: this.files.pathOf(file), contentType: this.files.contentTypeOf(file) };
  }

  /** The rules that need the image: it was uploaded, and the scaled size and the position fit it and the resolution. */
  private async columns(input: WatermarkInputValue): Promise<WatermarkColumns> {
    const image = await this.files.header(input.file);
    if (!image) throw ValidationError.field('body.file', `No uploaded image named ${input.file}: upload it first`);
    const scaled = input.scaledImage ?? { width: Math.round((image.width * input.scalePercent) / 100), height: Math.round((image.height * input.scalePercent) / 100) };
    const issues: FieldIssue[] = [];
    if (scaled.width > image.width) issues.push({ path: 'body.scaledImage.width', message: `Scaled width must be between 0 and ${image.width}` });
    if (scaled.height > image.height) issues.push({ path: 'body.scaledImage.height', message: `Scaled height must be between 0 and ${image.height}` });
    const max = maxPosition(input.resolution, scaled);
    if (input.x > max.x) issues.push({ path: 'body.x', message: `Position x must be at most ${max.x}` });
    if (input.y > max.y) issues.push({ path: 'body.y', message: `Position y must be at most ${max.y}` });
    if (issues.length) throw new ValidationError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
    const frame = frameOf(input.resolution);
    return {
      name: input.name,
      file: input.file,
      alpha: input.alpha,
      scale_percent: input.scalePercent,
      image_width: image.width,
      image_height: image.height,
      scaled_width: scaled.width,
      scaled_height: scaled.height,
      resolution: { value: input.resolution.value, name: resolutionName(input.resolution.value), width: frame.width, height: frame.height },
      x: input.x,
      y: input.y,
    };
  }

  private async removeIfUnused(file: string): Promise<void> {
    if (!(await this.watermarks.isFileInUse(file))) await this.files.remove(file);
  }

  private async require(id: number): Promise<WatermarkListRow> {
    const row = await this.watermarks.findById(id);
    if (!row) throw new NotFoundError('Watermark', id);
    return row;
  }

  private changed(type: string, id: number): Promise<void> {
    return this.events.publish({ topic: 'watermarks', type, id });
  }
}
