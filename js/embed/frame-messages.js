/**
 * The messages between a frame and the page around it (embed-mode.js's header says what each does; js/embed-host.js,
 * a plain script, spells the same types), for embed-mode.js and embed-frame.js alike.
 */

/** The message type a frame sends its parent with its height. */
export const RESIZE_MESSAGE = "attention-playground:resize";
/** The message type a parent sends a frame to have its height sent again (its width may have changed). */
export const MEASURE_MESSAGE = "attention-playground:measure";
/** The message type a parent sends a frame with the theme to follow. */
export const THEME_MESSAGE = "attention-playground:theme";
