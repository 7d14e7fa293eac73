/**
 * How close to the bottom edge a target may sit and still count as comfortably on screen. The recorder scrolls again
 * to a click or typing target any closer (record/steps.ts; a hover only needs to be on screen); a planner that wants a heading and a row of buttons on one screen keeps
 * the buttons above it (plan/templates/choreography.ts), or the recorder's second scroll takes the heading away.
 */
export function bottomComfortMargin(viewportHeight: number): number {
  return Math.min(80, viewportHeight * 0.1);
}
