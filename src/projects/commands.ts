import { decideAndAppend } from '../platform/command.js';
import type { Tx } from '../platform/database.js';
import type { EventMetadata, StoredEvent } from '../platform/event-store/types.js';
import { newId } from '../platform/ids.js';
import { randomToken, type SecretBox } from '../platform/secrets.js';
import { notifyAfterCommit } from '../platform/transaction.js';
import { type ProjectChanges, projectDecider } from './decide.js';
import { type ProjectEvent, type RefreshSchedule, type Viewport, projectStream } from './events.js';
import { projectRecordOf } from './projection.js';
import { sealSiteAccess, summaryOf, type SiteAccess } from './site-access.js';

export const newSigningSecret = () => `sk_sign_${randomToken(32)}`;
export const newWebhookSecret = () => `whsec_${randomToken(32)}`;

export interface CreateProjectInput {
  userId: string;
  name: string;
  url: string;
  viewport: Viewport;
  refreshSchedule: RefreshSchedule;
  allowSubmit?: boolean;
  siteAccess?: SiteAccess | null;
}

export async function createProject(tx: Tx, secrets: SecretBox, input: CreateProjectInput, metadata: EventMetadata) {
  const projectId = newId();
  const signingSecret = newSigningSecret();
  const { siteAccess, allowSubmit, ...fields } = input;
  const { events } = await decideAndAppend(
    tx,
    projectStream(projectId),
    projectDecider,
    {
      type: 'CreateProject',
      projectId,
      ...fields,
      ...(allowSubmit ? { allowSubmit } : {}),
      ...(siteAccess ? { siteAccess: { summary: summaryOf(siteAccess), sealedCredentials: sealSiteAccess(secrets, siteAccess) } } : {}),
      sealedSigningSecret: secrets.seal(signingSecret),
      sealedWebhookSecret: secrets.seal(newWebhookSecret()),
    },
    metadata,
    // Nothing below needs the database: the append and its projection go out with BEGIN and COMMIT, one round trip.
    { newStream: true, untilCommit: true },
  );
  const created = events[0] as unknown as Extract<ProjectEvent, { type: 'ProjectCreated' }> & StoredEvent;
  // The row the projection just wrote, without reading it back.
  return { projectId, signingSecret, project: projectRecordOf(created.data, created.createdAt) };
}

/** NOTIFYd with a project's id when it changes: caches of answers that depend on it (embed reuse) forget them. */
export const PROJECT_CHANGED_CHANNEL = 'project_changed';

export async function updateProject(tx: Tx, projectId: string, userId: string, changes: ProjectChanges, metadata: EventMetadata) {
  const result = await decideAndAppend(tx, projectStream(projectId), projectDecider, { type: 'UpdateProject', projectId, userId, changes }, metadata);
  // After COMMIT: listeners only forget cached answers, and a NOTIFY in the transaction would make commits queue.
  if (result.events.length > 0) await notifyAfterCommit(tx, PROJECT_CHANGED_CHANNEL, projectId);
  return result;
}

export async function rotateSigningSecret(tx: Tx, secrets: SecretBox, projectId: string, userId: string, metadata: EventMetadata) {
  const signingSecret = newSigningSecret();
  await decideAndAppend(
    tx,
    projectStream(projectId),
    projectDecider,
    { type: 'RotateSigningSecret', projectId, userId, sealedSigningSecret: secrets.seal(signingSecret) },
    metadata,
  );
  return signingSecret;
}

/** Issue 56: replaces the project's way into its app (null: clears it). Sealed here; the summary goes in clear. */
export async function setSiteAccess(tx: Tx, secrets: SecretBox, projectId: string, userId: string, access: SiteAccess | null, metadata: EventMetadata) {
  const command = access === null
    ? { type: 'ClearSiteAccess' as const, projectId, userId }
    : { type: 'SetSiteAccess' as const, projectId, userId, summary: summaryOf(access), sealedCredentials: sealSiteAccess(secrets, access) };
  return decideAndAppend(tx, projectStream(projectId), projectDecider, command, metadata);
}
