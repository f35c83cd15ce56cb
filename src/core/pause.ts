/**
 * What a lazy reader of text (lines, tables, sentences, an answer's claims) yields, besides its parts, after
 * a run of work that produced none: a place where its caller may pause (yield to the event loop) before
 * asking for more, so that no stretch of text without parts, however long, runs in one piece.
 */
export const PAUSE = null;
export type Pause = typeof PAUSE;

/** Units of a reader's work (lines, pieces, rows) after which it yields `PAUSE` when it has yielded nothing. */
export const PAUSE_EVERY = 1024;
