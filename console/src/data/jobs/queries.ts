import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';
import { jobKeys, type JobKind, type JobListQuery } from './keys.ts';
import { jobPaths } from './paths.ts';

export type Job = Schemas['Job'];
export type JobSummary = Schemas['JobSummary'];
export type JobPage = Schemas['JobPage'];
export type JobWrite = Schemas['JobWrite'];

export function useJobs(kind: JobKind, query: JobListQuery) {
  return useQuery({
    queryKey: jobKeys.list(kind, query),
    queryFn: ({ signal }) => unwrap(api.GET(jobPaths(kind).list, { params: { query }, signal })),
    placeholderData: keepPreviousData,
  });
}

export function useJob(kind: JobKind, id: number | undefined) {
  return useQuery({
    queryKey: jobKeys.detail(kind, id ?? 0),
    queryFn: ({ signal }) => unwrap(api.GET(jobPaths(kind).one, { params: { path: { id: id as number } }, signal })),
    enabled: id !== undefined,
  });
}

export function useJobTemplates(kind: JobKind, query: JobListQuery, enabled = true) {
  return useQuery({
    queryKey: jobKeys.templates(kind, query),
    queryFn: ({ signal }) => unwrap(api.GET(jobPaths(kind).templates, { params: { query }, signal })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useJobTemplate(kind: JobKind, id: number | undefined) {
  return useQuery({
    queryKey: jobKeys.template(kind, id ?? 0),
    queryFn: ({ signal }) => unwrap(api.GET(jobPaths(kind).template, { params: { path: { id: id as number } }, signal })),
    enabled: id !== undefined,
  });
}

/** Admin only: the features table's catalogue. */
export function useJobFeatures(enabled: boolean) {
  return useQuery({
    queryKey: jobKeys.features,
    queryFn: ({ signal }) => unwrap(api.GET('/api/job-features', { signal })),
    enabled,
  });
}

export function useEndpoints() {
  return useQuery({ queryKey: jobKeys.endpoints, queryFn: ({ signal }) => unwrap(api.GET('/api/endpoints', { signal })) });
}
