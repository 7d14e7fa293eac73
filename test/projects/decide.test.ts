import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { projectDecider, type ProjectCommand, type ProjectState } from '../../src/projects/decide.js';
import type { ProjectEvent } from '../../src/projects/events.js';
import { AppError } from '../../src/platform/errors.js';

/** Given events, when a command, then events (or an error): the decider alone, no database. */
function given(events: ProjectEvent[]) {
  const state = events.reduce<ProjectState>(projectDecider.evolve, projectDecider.initialState());
  return { when: (command: ProjectCommand) => () => projectDecider.decide(command, state) };
}

const created: ProjectEvent = {
  type: 'ProjectCreated',
  data: {
    projectId: 'p1', userId: 'u1', name: 'Acme', url: 'https://acme.example', viewport: 'desktop',
    refreshSchedule: 'manual', sealedSigningSecret: 'v1.a.b.c', sealedWebhookSecret: 'v1.d.e.f',
  },
};

describe('project decisions', () => {
  it('records only what an update really changes', () => {
    const events = given([created]).when({ type: 'UpdateProject', projectId: 'p1', userId: 'u1', changes: { name: 'Acme', viewport: 'mobile' } })();
    assert.deepEqual(events, [{ type: 'ProjectUpdated', data: { projectId: 'p1', viewport: 'mobile' } }]);
  });

  it('records nothing for an update that changes nothing', () => {
    assert.deepEqual(given([created]).when({ type: 'UpdateProject', projectId: 'p1', userId: 'u1', changes: { name: 'Acme' } })(), []);
  });

  it("treats another user's project as missing", () => {
    assert.throws(
      given([created]).when({ type: 'UpdateProject', projectId: 'p1', userId: 'u2', changes: { name: 'x' } }),
      (error: unknown) => error instanceof AppError && error.status === 404,
    );
  });

  it('refuses to create a project twice', () => {
    const { type: _t, ...data } = { type: 'CreateProject' as const, ...created.data };
    assert.throws(given([created]).when({ type: 'CreateProject', ...data }), (error: unknown) => error instanceof AppError && error.status === 409);
  });

  it('rotates the signing secret of an existing project', () => {
    const events = given([created]).when({ type: 'RotateSigningSecret', projectId: 'p1', userId: 'u1', sealedSigningSecret: 'v1.x.y.z' })();
    assert.deepEqual(events, [{ type: 'ProjectSigningSecretRotated', data: { projectId: 'p1', sealedSigningSecret: 'v1.x.y.z' } }]);
  });
});
