import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { ErrorBody, IdParams, OkResponse } from '../schemas/common.ts';
import { Watermark, WatermarkFile, WatermarkFileParams, WatermarkInput, WatermarkListQuery, WatermarkPage, WatermarkUploadQuery } from '../schemas/watermarks.ts';

const tag = 'watermarks';
/**
 * Spec 03 §6: ENCODING_VIEW views watermarks; ENCODING_EDIT or ENCODING_VIEW_EDIT edits them and
 * uploads files; ENCODING_EDIT or ENCODING_VIEW_DELETE deletes them; Add New needs ENCODING_EDIT.
 *
 * The spec writes "ENCODING_EDIT with ENCODING_VIEW_EDIT: edit watermarks and upload files",
 * "ENCODING_EDIT with ENCODING_VIEW_DELETE: delete watermarks" and, apart from them, "ENCODING_EDIT
 * alone: Add New and Delete selected": the pairs are the permissions that open each action, either
 * one. Read as "both", edit and delete would need no more than Add New (the Edit level holds every
 * View sub-flag), and in the original, where choosing Edit clears the View sub-flags (spec 03 §4),
 * nobody but an ADMIN could edit a watermark. Spec 01 §6 gives VIEW_EDIT and VIEW_DELETE the same
 * meaning for jobs and templates.
 */
export const WATERMARK_PERMISSIONS = {
  view: { anyOf: ['ENCODING_VIEW', 'ENCODING_EDIT'] },
  edit: { anyOf: ['ENCODING_EDIT', 'ENCODING_VIEW_EDIT'] },
  delete: { anyOf: ['ENCODING_EDIT', 'ENCODING_VIEW_DELETE'] },
  add: { anyOf: ['ENCODING_EDIT'] },
} as const;
const permissions = WATERMARK_PERMISSIONS;

const notFound = { description: 'No watermark with that id.', schema: ErrorBody };
const invalid = { description: 'A field breaks a rule (the image was not uploaded, a size or a position out of range ...).', schema: ErrorBody };
const image = { description: 'The image, with its own content type.', contentType: 'image/*', schema: z.string().describe('The image bytes (PNG, JPEG, GIF or WebP).') };

export const watermarkOperations = {
  listWatermarks: defineOperation({
    operationId: 'listWatermarks',
    method: 'get',
    path: '/api/watermarks',
    tag,
    summary: 'List watermarks, sorted by name, with the total',
    permission: permissions.view,
    query: WatermarkListQuery,
    responses: { 200: { description: 'A page of watermarks.', schema: WatermarkPage } },
  }),
  getWatermark: defineOperation({
    operationId: 'getWatermark',
    method: 'get',
    path: '/api/watermarks/{id}',
    tag,
    summary: 'Get a watermark',
    permission: permissions.view,
    params: IdParams,
    responses: { 200: { description: 'The watermark.', schema: Watermark }, 404: notFound },
  }),
  createWatermark: defineOperation({
    operationId: 'createWatermark',
    method: 'post',
    path: '/api/watermarks',
    tag,
    summary: 'Create a watermark from an uploaded image (Add New)',
    description: 'Upload the image first with uploadWatermarkFile and give its stored name as `file`.',
    permission: permissions.add,
    body: WatermarkInput,
    responses: { 201: { description: 'Created.', schema: Watermark }, 400: invalid },
  }),
  updateWatermark: defineOperation({
    operationId: 'updateWatermark',
    method: 'put',
    path: '/api/watermarks/{id}',
    tag,
    summary: 'Update a watermark; running encodings take the change at their next start',
    permission: permissions.edit,
    params: IdParams,
    body: WatermarkInput,
    responses: { 200: { description: 'Updated.', schema: Watermark }, 400: invalid, 404: notFound },
  }),
  deleteWatermark: defineOperation({
    operationId: 'deleteWatermark',
    method: 'delete',
    path: '/api/watermarks/{id}',
    tag,
    summary: 'Delete a watermark no encoding uses',
    permission: permissions.delete,
    params: IdParams,
    responses: { 200: { description: 'Deleted.', schema: OkResponse }, 404: notFound, 409: { description: 'An encoding uses it: the message says how many.', schema: ErrorBody } },
  }),
  uploadWatermarkFile: defineOperation({
    operationId: 'uploadWatermarkFile',
    method: 'post',
    path: '/api/watermarks/files',
    tag,
    summary: 'Upload one watermark image (PNG, JPEG, GIF or WebP, up to 10 MB) as the raw request body',
    description:
      'The body is the image itself (any content type; `image/png` ... or `application/octet-stream`), the file name goes in `name`. The image is checked by its content and its width and height are read from its header; it is stored under a generated name, which the answer gives as `file`. Several files are uploaded one request each. An upload no watermark uses is removed after a day.',
    permission: permissions.edit,
    query: WatermarkUploadQuery,
    body: z.string().optional().meta({ format: 'binary', description: 'The image bytes.' }),
    bodyContentType: 'application/octet-stream',
    responses: {
      201: { description: 'Stored.', schema: WatermarkFile },
      400: { description: 'Not a PNG, JPEG, GIF or WebP image, or empty.', schema: ErrorBody },
      413: { description: 'Larger than 10 MB.', schema: ErrorBody },
    },
  }),
  getWatermarkFile: defineOperation({
    operationId: 'getWatermarkFile',
    method: 'get',
    path: '/api/watermarks/files/{file}',
    tag,
    summary: 'An uploaded image by its stored name (the form\'s preview before saving)',
    permission: permissions.view,
    params: WatermarkFileParams,
    responses: { 200: image, 404: { description: 'No such upload.', schema: ErrorBody } },
  }),
  getWatermarkImage: defineOperation({
    operationId: 'getWatermarkImage',
    method: 'get',
    path: '/api/watermarks/{id}/image',
    tag,
    summary: 'The image of a watermark',
    permission: permissions.view,
    params: IdParams,
    responses: { 200: image, 404: notFound },
  }),
};
