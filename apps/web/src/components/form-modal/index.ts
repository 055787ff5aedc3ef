export { FormModal, type FormModalProps, type FormModalRenderProps } from './form-modal.tsx';
