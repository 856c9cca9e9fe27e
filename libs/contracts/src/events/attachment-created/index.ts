export * as AttachmentCreated from './attachment-created.event';
