import { z } from 'zod';
import { editNarrationScript, findVisibleDemo, type DemoRecord } from '../../demos/index.js';
import { inTransaction } from '../../platform/command.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { authedProcedure, eventMetadata, router } from '../../platform/trpc.js';
import { editedLines, writeNarrationScript } from '../../pipeline/narration/script.js';
import { LINE_MAX_CHARS } from '../../pipeline/narration/types.js';
import type { StoryText } from '../../pipeline/story-text/types.js';
import { parseJsonOrNull } from '../../platform/json-or-null.js';

/**
 * Issue 59: a demo's narration script, shown and edited on its own (the demo page's editor, the API). The script is
 * what the next recording says: one line per chapter, written from the story beats stored with the plan, with the
 * user's edits in place of the rules' lines for their chapters. An edit is kept by chapter title, so a refresh that
 * changes the page rewrites only the lines of chapters it changed, and keeps the user's words for the rest. Saved
 * edits are heard after the next restyle (with narration on) or refresh; saving records nothing by itself.
 */
const tags = ['Demos'];

const lineSchema = z.object({
  chapter: z.string().describe('the chapter (shot) the line is said over, by its title'),
  text: z.string().describe('what is said; empty: nothing over this chapter'),
  by: z.enum(['rules', 'user']).describe('`rules`: written from the page’s words; `user`: an edit'),
});

const scriptSchema = z.object({
  lines: z.array(lineSchema).describe('one line per chapter, in order: what the next narrated recording says'),
  edited: z.boolean().describe('whether any line is the user’s'),
});

const editInput = z.object({
  id: z.string().min(1),
  lines: z
    .array(z.object({ chapter: z.string().min(1).max(200), text: z.string().max(LINE_MAX_CHARS) }))
    .max(40)
    .describe(`the lines to say, by chapter title (at most ${LINE_MAX_CHARS} characters each; empty: nothing said there). Lines the same as the rules’ are not kept as edits; an empty list goes back to the rules’ script.`),
});

export const narrationRouter = router({
  script: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/demos/{id}/narration', tags, protect: true, summary: 'The narration script the next recording says', errorResponses: [401, 403, 404, 409] } })
    .input(z.object({ id: z.string().min(1) }))
    .output(scriptSchema)
    .query(async ({ ctx, input }) => {
      const demo = await findVisibleDemo(ctx.sql, ctx.principal, input.id);
      if (!demo) throw new NotFoundError('Demo');
      return scriptOf(storyOf(demo), editedLines(demo.narration_script).map((line) => ({ chapter: line.beatTitle, text: line.text })));
    }),

  edit: authedProcedure
    .meta({ openapi: { method: 'PUT', path: '/demos/{id}/narration', tags, protect: true, summary: 'Edit the narration script (heard from the next restyle or refresh)', errorResponses: [400, 401, 403, 404, 409] } })
    .input(editInput)
    .output(scriptSchema)
    .mutation(async ({ ctx, input }) => {
      const demo = await findVisibleDemo(ctx.sql, ctx.principal, input.id);
      if (!demo) throw new NotFoundError('Demo');
      const story = storyOf(demo);
      const rules = new Map(writeNarrationScript(story).map((line) => [line.beatTitle, line.text]));
      const chapters = new Set(story.beats.map((beat) => beat.title));
      const edits: Array<{ chapter: string; text: string }> = [];
      for (const line of input.lines) {
        if (!chapters.has(line.chapter)) throw new ValidationError(`lines: "${line.chapter}" is not a chapter of this demo (its chapters: ${[...chapters].map((title) => `"${title}"`).join(', ')}).`);
        const text = line.text.replace(/\s+/g, ' ').trim();
        if (text !== (rules.get(line.chapter) ?? '')) edits.push({ chapter: line.chapter, text });
      }
      await inTransaction(ctx.sql, (tx) =>
        editNarrationScript(tx, { demoId: demo.id, userId: ctx.principal.userId, script: edits.length > 0 ? JSON.stringify(edits) : null }, eventMetadata(ctx)),
      );
      return scriptOf(story, edits);
    }),
});

/** The story beats stored with the demo's plan; a demo without them (an upload, one made before captions) has no script. */
function storyOf(demo: DemoRecord): StoryText {
  const story = parseJsonOrNull<{ story?: StoryText }>(demo.ai_plan)?.story;
  if (!story || !Array.isArray(story.beats)) {
    throw new ConflictError(demo.source === 'upload' ? 'Uploaded demos are not narrated.' : 'This demo has no story beats to narrate yet (it is still being made, or was made before captions); wait until it is ready, or refresh it.');
  }
  return story;
}

function scriptOf(story: StoryText, edits: Array<{ chapter: string; text: string }>) {
  const lines = writeNarrationScript(story, edits.map((edit) => ({ beatTitle: edit.chapter, stepLabel: null, text: edit.text, by: 'user' as const })));
  const said = new Map(lines.map((line) => [line.beatTitle, line]));
  const edited = new Set(edits.map((edit) => edit.chapter));
  return {
    // Every chapter, even one with nothing said over it (the editor offers it to be filled in).
    lines: story.beats.map((beat) => ({ chapter: beat.title, text: said.get(beat.title)?.text ?? '', by: edited.has(beat.title) ? ('user' as const) : ('rules' as const) })),
    edited: edits.length > 0,
  };
}
