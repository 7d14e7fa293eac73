import type { Tx } from '../platform/database.js';
import { ConflictError } from '../platform/errors.js';
import type { RecordedEvent } from '../platform/event-store/types.js';
import type { Projection } from '../platform/projections.js';
import type { UserEvent } from './events.js';

export const usersProjection: Projection = {
  name: 'users',
  tables: ['users'],
  async apply(tx: Tx, stored: RecordedEvent) {
    const event = stored as unknown as UserEvent & RecordedEvent;
    switch (event.type) {
      case 'UserRegistered': {
        const d = event.data;
        // The unique index on lower(email) is the set-wide guard an aggregate alone cannot give.
        const inserted = await tx`
          insert into users (id, email, password_hash, is_admin, plan, starting_credits, created_at)
          values (${d.userId}, ${d.email}, ${d.passwordHash}, ${d.isAdmin}, ${d.plan}, ${d.startingCredits}, ${stored.createdAt})
          on conflict do nothing returning id`;
        if (inserted.length === 0) throw new ConflictError(`A user with the email ${d.email} already exists.`);
        return;
      }
      case 'UserPlanChanged':
        await tx`update users set plan = ${event.data.plan} where id = ${event.data.userId}`;
        return;
      case 'UserPasswordChanged':
        await tx`update users set password_hash = ${event.data.passwordHash} where id = ${event.data.userId}`;
        return;
    }
  },
};
