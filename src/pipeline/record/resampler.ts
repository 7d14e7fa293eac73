/**
 * Turns the screencast's irregular frames into a constant frame rate.
 *
 * Chrome sends a frame only when the screen changes, and frames can arrive slightly out of order. Output frame i
 * stands for the moment `startMs + i / fps` and shows the newest input frame taken at or before that moment (the
 * last frame is held while nothing changes; before the first input frame, the first one is used). Frames wait in a
 * small reorder buffer (`reorderWindowMs`) so a late frame still lands in order; output frames are emitted as soon
 * as their moment is older than the window, so only a fraction of a second of frames is ever held here.
 */
export interface ResamplerOptions<T> {
  /** the moment of output frame 0, on the same clock as the frame timestamps (ms) */
  startMs: number;
  fps: number;
  /** how long a frame may be late and still be placed in order; default 150 ms */
  reorderWindowMs?: number;
  /** total output frames; none are emitted past it (the video has exactly this many frames when finished) */
  maxFrames?: number;
  emit(frame: T, index: number): void;
}

export interface ResamplerStats {
  /** input frames pushed */
  received: number;
  /** input frames that arrived after their moment had been emitted (used from the next output frame on) */
  late: number;
  /** input frames never shown: replaced by a newer one within the same output frame */
  skipped: number;
  /** output frames emitted */
  emitted: number;
  /** output frames that repeat the previous input frame */
  held: number;
}

interface Timed<T> {
  ts: number;
  frame: T;
  shown: boolean;
}

export class FrameResampler<T> {
  private readonly startMs: number;
  private readonly frameMs: number;
  private readonly windowMs: number;
  private readonly maxFrames: number;
  private readonly emitFrame: (frame: T, index: number) => void;
  /** sorted by timestamp, ascending */
  private pending: Timed<T>[] = [];
  private current: Timed<T> | null = null;
  private next = 0;
  private finished = false;
  private readonly counts: ResamplerStats = { received: 0, late: 0, skipped: 0, emitted: 0, held: 0 };

  constructor(options: ResamplerOptions<T>) {
    if (!(options.fps > 0)) throw new RangeError('fps must be positive.');
    this.startMs = options.startMs;
    this.frameMs = 1000 / options.fps;
    this.windowMs = options.reorderWindowMs ?? 150;
    this.maxFrames = options.maxFrames ?? Number.POSITIVE_INFINITY;
    this.emitFrame = options.emit;
  }

  get stats(): ResamplerStats {
    return { ...this.counts };
  }

  /** output frames emitted so far */
  get emitted(): number {
    return this.next;
  }

  /** The moment output frame `index` stands for. */
  frameTime(index: number): number {
    return this.startMs + index * this.frameMs;
  }

  /** Add an input frame taken at `timestampMs`. Emits nothing by itself; call advance() (or finish()). */
  push(timestampMs: number, frame: T): void {
    if (this.finished) return;
    this.counts.received++;
    const item: Timed<T> = { ts: timestampMs, frame, shown: false };
    if (this.next > 0 && timestampMs <= this.frameTime(this.next - 1)) {
      // Its moment has been emitted already; the best we can do is show it from now on, if it is newer.
      this.counts.late++;
      if (!this.current || timestampMs > this.current.ts) {
        if (this.current && !this.current.shown) this.counts.skipped++;
        this.current = item;
      } else {
        this.counts.skipped++;
      }
      return;
    }
    let i = this.pending.length;
    while (i > 0 && this.pending[i - 1]!.ts > timestampMs) i--;
    this.pending.splice(i, 0, item);
  }

  /** Emit every output frame whose moment is at least the reorder window older than `nowMs`. */
  advance(nowMs: number): void {
    this.emitThrough(nowMs - this.windowMs);
  }

  /**
   * Emit all remaining frames: through `frameCount` frames in total (holding the last input frame), or, without
   * it, through `maxFrames` when that is finite, else through the newest input frame. Returns the output count.
   */
  finish(frameCount?: number): number {
    const total = frameCount ?? (Number.isFinite(this.maxFrames) ? this.maxFrames : null);
    if (total === null) {
      const newest = this.pending.at(-1)?.ts ?? this.current?.ts ?? this.startMs;
      this.emitThrough(Math.max(newest, this.frameTime(this.next)));
    } else {
      this.emitThrough(this.frameTime(Math.min(total, this.maxFrames) - 1));
    }
    this.finished = true;
    this.pending = [];
    return this.next;
  }

  private emitThrough(untilMs: number): void {
    while (this.next < this.maxFrames) {
      const t = this.frameTime(this.next);
      if (t > untilMs) break;
      // The newest frame taken at or before t becomes current; those it replaces unseen are skipped.
      while (this.pending.length > 0 && this.pending[0]!.ts <= t) {
        if (this.current && !this.current.shown) this.counts.skipped++;
        this.current = this.pending.shift()!;
      }
      // Nothing yet at t: start with the first frame there is (a page that is already still).
      if (!this.current) {
        if (this.pending.length === 0) break;
        this.current = this.pending.shift()!;
      }
      if (this.current.shown) this.counts.held++;
      this.current.shown = true;
      this.counts.emitted++;
      this.emitFrame(this.current.frame, this.next++);
    }
  }
}
