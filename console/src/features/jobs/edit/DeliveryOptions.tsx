import { DELIVERY_TYPES } from '../../../../../openapi/schemas/jobs.ts';
import { Icon } from '../../../components/icons.tsx';
import { Switch } from '../../../components/Switch.tsx';
import { useJobEdit } from './context.ts';
import { CheckField, FieldRow, NumberField, SelectField, TextField } from './fields.tsx';
import { DELIVERY_TYPE_LABELS, newDelivery, type DeliveryValue } from './jobFormModel.ts';

const DELIVERY_OPTIONS = DELIVERY_TYPES.map((value) => ({ value, label: DELIVERY_TYPE_LABELS[value] }));

/** Where a type pushes to: the URI field's label and example. */
const URI_OF: Partial<Record<DeliveryValue['deliveryType'], { label: string; placeholder: string }>> = {
  LOCAL_STORAGE: { label: 'Folder', placeholder: '/var/media/out' },
  AKAMAI_NET_STORAGE: { label: 'Upload URL', placeholder: 'https://example-nsu.akamaihd.net/12345/live' },
  AMAZON_S3: { label: 'Bucket URL', placeholder: 's3://bucket/prefix' },
  AWS_MEDIASTORE: { label: 'Container endpoint', placeholder: 'https://abc.data.mediastore.eu-west-1.amazonaws.com/live' },
  EDGIO_ORIGIN_STORAGE: { label: 'Upload URL', placeholder: 'https://upload.example.com/path' },
};

function DeliveryFields({ path, delivery }: { path: string; delivery: DeliveryValue }) {
  const at = (field: string) => `${path}.${field}`;
  const uri = URI_OF[delivery.deliveryType];
  switch (delivery.deliveryType) {
    case 'STREAMPOOL':
      return (
        <FieldRow>
          <NumberField path={at('server')} label="Server (ID)" required min={1} />
          <TextField path={at('streamPool')} label="Pool" required />
        </FieldRow>
      );
    case 'AKAMAI_MSLV3':
    case 'AKAMAI_MSLV4':
      return (
        <FieldRow>
          <TextField path={at('akamaiIngestPoint')} label="Ingest point" required placeholder="p-ep12345.i.akamaientrypoint.net" />
          {delivery.deliveryType === 'AKAMAI_MSLV4' && <TextField path={at('mslv4Ias')} label="IAS" />}
        </FieldRow>
      );
    case 'EDGIO_LIVE_PUSH':
      return (
        <FieldRow>
          <TextField path={at('edgioSlot')} label="Slot" required />
          <TextField path={at('edgioUser')} label="User" required />
          <TextField path={at('edgioPass')} label="Password" required type="password" />
          <CheckField path={at('useEdgioBackupPublishUrl')} label="Use backup publish URL" />
        </FieldRow>
      );
    default:
      return (
        <FieldRow className="job-fields-wide">
          <TextField path={at('uri')} label={uri?.label ?? 'URI'} placeholder={uri?.placeholder} />
        </FieldRow>
      );
  }
}

/** The delivery options of a segmented output: each can be enabled or disabled, and removed. */
export function DeliveryOptions({ outputIndex }: { outputIndex: number }) {
  const { form, disabled } = useJobEdit();
  const path = `outputs.${outputIndex}.deliveryOptions`;
  const deliveries = form.values.outputs[outputIndex]?.deliveryOptions ?? [];

  return (
    <div className="deliveries">
      <div className="subsection-header">
        <h4>Delivery options</h4>
        <button type="button" className="button button-secondary button-small" onClick={() => form.update<DeliveryValue[]>(path, (list) => [...(list ?? []), newDelivery('LOCAL_STORAGE')])}>
          <Icon name="plus" size={14} /> Add delivery
        </button>
      </div>
      {deliveries.length === 0 && <p className="muted">Served by the product itself; no other delivery.</p>}
      {deliveries.map((delivery, index) => {
        const at = `${path}.${index}`;
        return (
          <div key={index} className={`delivery${delivery.disabled ? ' is-disabled' : ''}`}>
            <div className="delivery-head">
              <SelectField
                path={`${at}.deliveryType`}
                label={`Delivery ${index + 1}`}
                options={DELIVERY_OPTIONS}
                onChange={(type) => form.set(at, { ...newDelivery(type as DeliveryValue['deliveryType']), disabled: delivery.disabled, token: delivery.token })}
              />
              <TextField path={`${at}.token`} label="Token" />
              <div className="item-controls">
                <Switch checked={!delivery.disabled} onChange={(on) => form.set(`${at}.disabled`, !on)} label={`Delivery ${index + 1} enabled`} disabled={disabled} />
                <button
                  type="button"
                  className="icon-button icon-button-danger"
                  aria-label={`Remove delivery ${index + 1}`}
                  title="Remove delivery"
                  onClick={() => form.update<DeliveryValue[]>(path, (list) => list.filter((_, i) => i !== index))}
                >
                  <Icon name="trash" />
                </button>
              </div>
            </div>
            <DeliveryFields path={at} delivery={delivery} />
          </div>
        );
      })}
    </div>
  );
}
