export { FormModal, type FormModalProps, type FormModalRenderProps } from './form-modal.tsx';
export { numberFieldProps } from './number-field.ts';
export { DurationField, MoneyField } from './number-fields.tsx';
