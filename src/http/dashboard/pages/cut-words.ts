/**
 * Issue 59: what a run that made cuts from a kept recording changed, in the words the History's Result column and
 * the Versions' "Made by" column share (a new user saw such a version listed as "Restyle", the History beside it
 * saying "New cut (9:16)").
 */
export interface CutChange {
  /** e.g. "New cut (9:16)", "New cuts (9:16, 1:1)"; null when none was added */
  made: string | null;
  /** e.g. "9:16 cut removed"; null when none was removed */
  gone: string | null;
}

export function cutChange(before: readonly string[], after: readonly string[]): CutChange {
  const added = after.filter((aspect) => !before.includes(aspect));
  const removed = before.filter((aspect) => !after.includes(aspect));
  return {
    made: added.length > 0 ? `New cut${added.length === 1 ? '' : 's'} (${added.join(', ')})` : null,
    gone: removed.length > 0 ? `${removed.join(', ')} cut removed` : null,
  };
}
