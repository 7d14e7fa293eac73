import type { Decider } from '../platform/command.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import type { ProjectEvent, RefreshSchedule, Viewport } from './events.js';

export type ProjectState =
  | { exists: false }
  | {
      exists: true;
      userId: string;
      name: string;
      url: string;
      viewport: Viewport;
      refreshSchedule: RefreshSchedule;
      allowSubmit: boolean;
      hasSiteAccess: boolean;
    };

export type ProjectChanges = { name?: string; url?: string; viewport?: Viewport; refreshSchedule?: RefreshSchedule; allowSubmit?: boolean };
type SiteAccessSet = Extract<ProjectEvent, { type: 'ProjectSiteAccessSet' }>['data'];

export type ProjectCommand =
  | ({ type: 'CreateProject' } & Extract<ProjectEvent, { type: 'ProjectCreated' }>['data'])
  | { type: 'UpdateProject'; projectId: string; userId: string; changes: ProjectChanges }
  | { type: 'RotateSigningSecret'; projectId: string; userId: string; sealedSigningSecret: string }
  | { type: 'SetSiteAccess'; projectId: string; userId: string; summary: SiteAccessSet['summary']; sealedCredentials: string }
  | { type: 'ClearSiteAccess'; projectId: string; userId: string };

export const projectDecider: Decider<ProjectState, ProjectEvent, ProjectCommand> = {
  initialState: () => ({ exists: false }),
  evolve(state, event) {
    switch (event.type) {
      case 'ProjectCreated': {
        const { userId, name, url, viewport, refreshSchedule, allowSubmit, siteAccess } = event.data;
        return { exists: true, userId, name, url, viewport, refreshSchedule, allowSubmit: allowSubmit ?? false, hasSiteAccess: siteAccess !== undefined };
      }
      case 'ProjectUpdated': {
        if (!state.exists) return state;
        const { projectId: _id, ...changes } = event.data;
        return { ...state, ...definedOnly(changes) };
      }
      case 'ProjectSigningSecretRotated':
        return state;
      case 'ProjectSiteAccessSet':
        return state.exists ? { ...state, hasSiteAccess: true } : state;
      case 'ProjectSiteAccessCleared':
        return state.exists ? { ...state, hasSiteAccess: false } : state;
    }
  },
  decide(command, state) {
    if (command.type === 'CreateProject') {
      if (state.exists) throw new ConflictError('This project already exists.');
      const { type: _type, ...data } = command;
      return [{ type: 'ProjectCreated', data }];
    }
    // Another user's project is indistinguishable from a missing one (owner scoping).
    if (!state.exists || state.userId !== command.userId) throw new NotFoundError('Project');
    switch (command.type) {
      case 'UpdateProject': {
        const changed = Object.fromEntries(
          Object.entries(definedOnly(command.changes)).filter(([key, value]) => state[key as keyof ProjectChanges] !== value),
        ) as ProjectChanges;
        if (Object.keys(changed).length === 0) return [];
        return [{ type: 'ProjectUpdated', data: { projectId: command.projectId, ...changed } }];
      }
      case 'RotateSigningSecret':
        return [{ type: 'ProjectSigningSecretRotated', data: { projectId: command.projectId, sealedSigningSecret: command.sealedSigningSecret } }];
      // Always an event: sealed credentials cannot be compared with the stored ones (each seal has its own IV).
      case 'SetSiteAccess':
        return [{ type: 'ProjectSiteAccessSet', data: { projectId: command.projectId, summary: command.summary, sealedCredentials: command.sealedCredentials } }];
      case 'ClearSiteAccess':
        return state.hasSiteAccess ? [{ type: 'ProjectSiteAccessCleared', data: { projectId: command.projectId } }] : [];
    }
  },
};

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
