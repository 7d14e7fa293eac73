import type { Queryable } from '../platform/database.js';
import type { Plan } from './events.js';

export interface UserRecord {
  id: string;
  email: string;
  password_hash: string;
  is_admin: boolean;
  plan: Plan;
  starting_credits: number;
  created_at: Date;
}

export async function findUserByEmail(sql: Queryable, email: string): Promise<UserRecord | null> {
  const [row] = await sql<UserRecord[]>`select * from users where lower(email) = lower(${email})`;
  return row ?? null;
}

export async function findUserById(sql: Queryable, id: string): Promise<UserRecord | null> {
  const [row] = await sql<UserRecord[]>`select * from users where id = ${id}`;
  return row ?? null;
}
