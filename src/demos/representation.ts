import { demoPhase } from './phase.js';
import { type AspectRatio, aspectRatios } from './presentation.js';
import type { DemoJobRecord, DemoRecord } from './queries.js';
import { variantView } from './urls.js';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/** The spec's Demo resource; `publicUrl` (PUBLIC_URL) makes its variants' addresses. */
export function toDemo(record: DemoRecord, publicUrl: string) {
  return {
    id: record.id,
    project_id: record.project_id,
    prompt: record.prompt,
    status: record.status,
    phase: demoPhase(record.status, record.latest_step),
    title: record.title,
    action_script: record.action_script,
    ai_plan: record.ai_plan,
    snapshots: record.snapshots,
    video_key: record.video_key,
    gif_key: record.gif_key,
    thumbnail_key: record.thumbnail_key,
    duration_ms: record.duration_ms,
    recording_log: record.recording_log,
    format: record.format,
    resolution: record.resolution,
    duration_target: record.duration_target,
    context: record.context,
    context_hash: record.context_hash,
    presentation: record.presentation,
    version: record.version,
    error: record.error,
    source: record.source,
    // Issue 59: whether a cut added later is made from the shown version's recording (free) or needs a new one.
    capture_kept: Boolean(record.capture_key),
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
    refreshed_at: iso(record.refreshed_at),
    ...storyMembers(record.story ?? null),
    warnings: parseSentences(record.warnings ?? null) ?? [],
    // A variant is as long as the video: the same timeline composed for another frame.
    variants: variantsOf(record.variants).map((variant) => variantView(publicUrl, record, variant, record.duration_ms)),
  };
}

/**
 * Issue 36: the shown version's chapters (the player's chapter list) and what its captions are (how many, in which
 * language, or why there are none). The cues themselves are WebVTT at /chapters/<id>.vtt and /captions/<id>.vtt.
 * A demo recorded before issue 36, or uploaded, has no chapters and `captions: null`.
 */
export function storyMembers(text: string | null) {
  const story = parseStory(text);
  if (!story) return { chapters: [], captions: null, narration: null };
  return {
    chapters: story.chapters.map((chapter) => ({ title: chapter.title, start_ms: chapter.startMs, end_ms: chapter.endMs })),
    captions: { count: story.captions.length, language: story.language, off_reason: story.captionsOff, source: captionsSource(story.captions) },
    narration: narrationMember(story.narration),
  };
}

/** Issue 59: the version's narration as spoken (the lines, their times and shots), or null when it is not narrated. */
function narrationMember(narration: StoredStory['narration']) {
  if (!narration || !Array.isArray(narration.lines)) return null;
  return {
    engine: narration.engine,
    voice: narration.voice,
    speed: narration.speed,
    lines: narration.lines.map((line) => ({ chapter: line.beatTitle, text: line.text, start_ms: line.startMs, end_ms: line.endMs })),
    unsaid: (narration.unsaid ?? []).map((line) => ({ chapter: line.beatTitle, text: line.text, reason: line.reason })),
  };
}

/** The stored story as this module reads it (written by the pipeline's story-text/, TimedStory). */
interface StoredStory {
  language: string | null;
  chapters: Array<{ title: string; startMs: number; endMs: number }>;
  captions: Array<{ by?: unknown }>;
  captionsOff: string | null;
  narration?: {
    engine: string;
    voice: string;
    speed: number;
    lines: Array<{ beatTitle: string; text: string; startMs: number; endMs: number }>;
    unsaid?: Array<{ beatTitle: string; text: string; reason: string }>;
  };
}

/** Who wrote the captions shown; a caption stored before model captions existed was written by the rules. */
function captionsSource(captions: StoredStory['captions']): 'model' | 'rules' | 'mixed' | null {
  if (captions.length === 0) return null;
  const byModel = captions.filter((caption) => caption?.by === 'model').length;
  return byModel === 0 ? 'rules' : byModel === captions.length ? 'model' : 'mixed';
}

function parseStory(text: string | null): StoredStory | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as StoredStory;
    return Array.isArray(value.chapters) && Array.isArray(value.captions) ? value : null;
  } catch {
    return null;
  }
}

export function toLatestJob(job: DemoJobRecord | null) {
  if (!job) return null;
  return {
    id: job.id,
    status: job.status,
    step: job.step,
    started_at: iso(job.started_at),
    completed_at: iso(job.completed_at),
    error: job.error,
  };
}

/**
 * refreshHistory `result`: queued | running | succeeded | failed | unchanged (issue 37: a scheduled or webhook
 * refresh that found nothing changed, recorded nothing and charged nothing; `checked_at` says when). Added members:
 * `changes` (what changed, in words; [] when nothing did; null when unknown: before fingerprints, or still running),
 * `checked_at`, the thumbnails of the versions before and after (`?v=N` URLs; after is null when nothing new
 * was recorded), and `credits_charged` (issue 57): what the run cost in the end. Every run is charged when it is
 * queued; a failed one and one that found nothing changed are refunded in full, so they show 0. `from_capture`
 * (issue 59): a restyle that made its cuts from the kept capture, recording nothing (and charging nothing).
 */
export function toHistoryEntry(job: DemoJobRecord, publicUrl: string) {
  const thumbnail = (version: number | null) => (version === null || version < 1 ? null : `${publicUrl}/thumb/${job.demo_id}.png?v=${version}`);
  return {
    id: job.id,
    triggered_by: job.kind === 'restyle' ? 'restyle' : job.triggered_by,
    result: job.status,
    old_version: job.old_version,
    new_version: job.new_version,
    error: job.error,
    created_at: job.created_at.toISOString(),
    changes: parseSentences(job.changes ?? null),
    checked_at: job.status === 'unchanged' || job.status === 'succeeded' ? iso(job.completed_at) : null,
    before_thumbnail_url: thumbnail(job.old_version),
    after_thumbnail_url: thumbnail(job.new_version),
    credits_charged: job.status === 'failed' || job.status === 'unchanged' ? 0 : job.credits,
    from_capture: job.from_capture ?? false,
  };
}

/** A stored JSON array of sentences (a job's changes, a version's warnings); null when absent or unreadable. */
function parseSentences(text: string | null): string[] | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : null;
  } catch {
    return null;
  }
}

/** The polling answer (pollUrl): where the demo's latest job stands. */
export function toProgress(
  record: Pick<DemoRecord, 'id' | 'status' | 'error' | 'updated_at'>,
  job: Pick<DemoJobRecord, 'status' | 'step' | 'progress'> | null,
) {
  return {
    id: record.id,
    status: record.status,
    phase: demoPhase(record.status, job?.step),
    step: job?.step ?? null,
    progress: job ? (job.status === 'succeeded' ? 1 : job.progress) : record.status === 'ready' ? 1 : 0,
    error: record.error,
    updated_at: record.updated_at.toISOString(),
  };
}

/** Issue 59: an aspect variant of a version, as stored (DemoJobSucceeded.variants). */
export interface StoredVariant {
  aspect: AspectRatio;
  videoKey: string;
  gifKey: string | null;
  thumbnailKey: string | null;
}

/** The variants stored with a demo or a version; [] when none (or unreadable). */
export function variantsOf(text: string | null | undefined): StoredVariant[] {
  if (!text) return [];
  try {
    const value = JSON.parse(text) as StoredVariant[];
    return Array.isArray(value) ? value.filter((v) => typeof v?.videoKey === 'string' && (aspectRatios as readonly string[]).includes(v.aspect)) : [];
  } catch {
    return [];
  }
}
