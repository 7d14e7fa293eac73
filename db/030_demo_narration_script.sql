-- Issue 59: the narration script as the user edited it on the demo page or through the API: a JSON array of
-- {chapter, text}, one per chapter they changed (an empty text: nothing said over that chapter). Null: never edited,
-- every line is written from the story beats. Used by the next recording (restyle or refresh); read model of the
-- demo streams (rebuilt by replay).
alter table demos add column narration_script text;
