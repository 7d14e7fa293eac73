-- Issue 56: how the recorder reaches a project's app behind a sign-in, and whether a recording may submit forms.
-- site_access_enc: the cookies or sign-in recipe, AES-256-GCM under the master key (src/platform/secrets.ts), never
-- in plaintext; site_access: its summary as JSON text (kind, sign-in URL, user name, cookie count), what the owner is
-- shown; both null when the project has none. Read model of the project streams (rebuilt by replay).
alter table projects add column site_access_enc text;
alter table projects add column site_access text;
alter table projects add column allow_submit boolean not null default false;
