import type { Queryable } from '../platform/database.js';
import type { ImageFormat } from './events.js';

export interface BackgroundRecord {
  id: string;
  user_id: string;
  name: string;
  storage_key: string;
  format: ImageFormat;
  size_bytes: number;
  created_at: Date;
}

/** Owner scoping: only the caller's own uploads, newest first. */
export async function listUserBackgrounds(sql: Queryable, userId: string): Promise<BackgroundRecord[]> {
  return sql<BackgroundRecord[]>`select * from backgrounds where user_id = ${userId} order by created_at desc, id desc`;
}

/** Any user's upload by id: images are public by unguessable id, like demo media. */
export async function findBackgroundById(sql: Queryable, id: string): Promise<BackgroundRecord | null> {
  const [row] = await sql<BackgroundRecord[]>`select * from backgrounds where id = ${id}`;
  return row ?? null;
}
