import type { Provider } from '@nestjs/common';
import { OrphanSweeper } from './orphan-sweeper';
import { AttachmentsRepository } from './repository/attachments.repository';
import { DownloadAttachment } from './use-cases/download-attachment.use-case';
import { UploadAttachment } from './use-cases/upload-attachment.use-case';

/** The attachment use cases (one per operation), the sweeper, and the repository they write through. */
export const ATTACHMENT_PROVIDERS: Provider[] = [AttachmentsRepository, UploadAttachment, DownloadAttachment, OrphanSweeper];
