import { Link, useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useCan } from '../../data/auth/queries.ts';
import { useSaveWatermark } from '../../data/watermarks/mutations.ts';
import { useWatermark } from '../../data/watermarks/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { WatermarkForm } from './WatermarkForm.tsx';
import { newWatermarkValues, watermarkValuesOf } from './watermarkFormModel.ts';

function NewWatermark() {
  usePageTitle('Add watermark');
  const save = useSaveWatermark();
  const navigate = useNavigate();
  const toast = useToast();
  return (
    <div className="page">
      <PageHeader title="Add watermark" />
      <WatermarkForm
        title="Add watermark"
        initial={newWatermarkValues()}
        isNew
        readOnly={false}
        save={async (payload) => {
          const watermark = await save.mutateAsync(payload);
          toast.success(`Watermark ${watermark.name} created.`);
          navigate(`/my/watermarks/edit/${watermark.id}`, { replace: true });
        }}
      />
    </div>
  );
}

function ExistingWatermark({ id }: { id: number }) {
  const watermark = useWatermark(id);
  const save = useSaveWatermark(id);
  // Spec 03 §6: ENCODING_EDIT or ENCODING_VIEW_EDIT edits watermarks and uploads files.
  const canEdit = useCan('ENCODING_EDIT', 'ENCODING_VIEW_EDIT');
  const toast = useToast();
  const title = watermark.data ? `Watermark ${watermark.data.name}` : 'Watermark';
  usePageTitle(title);
  if (watermark.isPending) return <div className="page-loading">Loading ...</div>;
  if (watermark.isError)
    return (
      <div className="page">
        <PageHeader title="Watermark" />
        <div className="notice notice-error" role="alert">
          {watermark.error.message} <Link to="/my/watermarks">Back to watermarks</Link>
        </div>
      </div>
    );
  const used = watermark.data.usageCount;
  return (
    <div className="page">
      <PageHeader title={title} subtitle={used > 0 ? `Used by ${used} encoding${used === 1 ? '' : 's'}: a change applies at their next start.` : undefined} />
      <WatermarkForm
        key={watermark.data.id}
        title={title}
        initial={watermarkValuesOf(watermark.data)}
        isNew={false}
        readOnly={!canEdit}
        save={async (payload) => {
          const saved = await save.mutateAsync(payload);
          toast.success(`Watermark ${saved.name} updated.`);
          return watermarkValuesOf(saved);
        }}
      />
    </div>
  );
}

/** /my/watermarks/edit (Add New) and /my/watermarks/edit/{id}. */
export default function WatermarkEditPage() {
  const { id } = useParams();
  if (id === undefined) return <NewWatermark />;
  const numeric = Number(id);
  if (!Number.isInteger(numeric) || numeric <= 0) return <div className="notice notice-error">No such watermark.</div>;
  return <ExistingWatermark key={numeric} id={numeric} />;
}
