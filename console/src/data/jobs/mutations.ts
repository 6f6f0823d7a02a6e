import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkAction } from '../../../../openapi/schemas/job-api.ts';
import { api, unwrap, type Schemas } from '../client.ts';
import { jobKeys, type JobKind } from './keys.ts';
import { jobPaths } from './paths.ts';

type Job = Schemas['Job'];

/** After any change to a kind's jobs: keep the changed one, refresh the lists. */
function useRefreshJobs(kind: JobKind) {
  const queryClient = useQueryClient();
  return (job?: Job) => {
    if (job) queryClient.setQueryData(job.isTemplate ? jobKeys.template(kind, job.id) : jobKeys.detail(kind, job.id), job);
    void queryClient.invalidateQueries({ queryKey: jobKeys.all(kind) });
  };
}

const byId = (id: number) => ({ params: { path: { id } } });

export function useCreateJob(kind: JobKind) {
  const refresh = useRefreshJobs(kind);
  return useMutation({ mutationFn: (body: Schemas['JobWrite']) => unwrap(api.POST(jobPaths(kind).list, { body })), onSuccess: refresh });
}

/** Update; with `restart` the running job applies it at once ("Update & Restart"). */
export function useUpdateJob(kind: JobKind, id: number) {
  const refresh = useRefreshJobs(kind);
  return useMutation({
    mutationFn: ({ body, restart }: { body: Schemas['JobWrite']; restart?: boolean }) =>
      unwrap(api.PUT(jobPaths(kind).one, { params: { path: { id }, query: restart ? { restart: 'true' } : {} }, body })),
    onSuccess: refresh,
  });
}

export function useDeleteJob(kind: JobKind) {
  const refresh = useRefreshJobs(kind);
  return useMutation({ mutationFn: (id: number) => unwrap(api.DELETE(jobPaths(kind).one, byId(id))), onSuccess: () => refresh() });
}

/** The on/off switch. */
export function useSwitchJob(kind: JobKind) {
  const refresh = useRefreshJobs(kind);
  return useMutation({
    mutationFn: ({ id, on }: { id: number; on: boolean }) => unwrap(api.POST(on ? jobPaths(kind).start : jobPaths(kind).stop, byId(id))),
    onSuccess: refresh,
  });
}

export function useRestartJob(kind: JobKind) {
  const refresh = useRefreshJobs(kind);
  return useMutation({
    mutationFn: ({ id, mode }: { id: number; mode: Schemas['RestartRequest']['mode'] }) => unwrap(api.POST(jobPaths(kind).restart, { ...byId(id), body: { mode } })),
    onSuccess: refresh,
  });
}

/** One action of the bulk bar over the selected jobs. */
export function useBulkJobs(kind: JobKind) {
  const refresh = useRefreshJobs(kind);
  return useMutation({
    mutationFn: ({ action, ids }: { action: BulkAction; ids: number[] }) => unwrap(api.POST(jobPaths(kind).bulk(action), { body: { ids } })),
    onSuccess: () => refresh(),
  });
}

export function useSaveAsTemplate(kind: JobKind, id: number) {
  const refresh = useRefreshJobs(kind);
  return useMutation({ mutationFn: (body: Schemas['SaveAsTemplateRequest']) => unwrap(api.POST(jobPaths(kind).saveAsTemplate, { ...byId(id), body })), onSuccess: refresh });
}

export function useCreateTemplate(kind: JobKind) {
  const refresh = useRefreshJobs(kind);
  return useMutation({ mutationFn: (body: Schemas['JobWrite']) => unwrap(api.POST(jobPaths(kind).templates, { body })), onSuccess: refresh });
}

export function useUpdateTemplate(kind: JobKind, id: number) {
  const refresh = useRefreshJobs(kind);
  return useMutation({ mutationFn: (body: Schemas['JobWrite']) => unwrap(api.PUT(jobPaths(kind).template, { ...byId(id), body })), onSuccess: refresh });
}

export function useDeleteTemplate(kind: JobKind) {
  const refresh = useRefreshJobs(kind);
  return useMutation({ mutationFn: (id: number) => unwrap(api.DELETE(jobPaths(kind).template, byId(id))), onSuccess: () => refresh() });
}

export function useCreateFromTemplate(kind: JobKind) {
  const refresh = useRefreshJobs(kind);
  return useMutation({
    mutationFn: ({ templateId, name }: { templateId: number; name: string }) => unwrap(api.POST(jobPaths(kind).fromTemplate, { ...byId(templateId), body: { name } })),
    onSuccess: refresh,
  });
}

export function useAddComment(kind: JobKind, id: number) {
  const refresh = useRefreshJobs(kind);
  return useMutation({ mutationFn: (body: Schemas['CommentCreate']) => unwrap(api.POST(jobPaths(kind).comments, { ...byId(id), body })), onSuccess: () => refresh() });
}

export function useDeleteComment(kind: JobKind, id: number) {
  const refresh = useRefreshJobs(kind);
  return useMutation({
    mutationFn: (commentId: number) => unwrap(api.DELETE(jobPaths(kind).comment, { params: { path: { id, commentId } } })),
    onSuccess: () => refresh(),
  });
}

export function useUpdateEndpoints() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['Endpoints']) => unwrap(api.PUT('/api/endpoints', { body })),
    onSuccess: (data) => queryClient.setQueryData(jobKeys.endpoints, data),
  });
}
